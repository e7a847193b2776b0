package store

import (
	"errors"
	"fmt"
	"slices"

	"proposaldesk/app"
)

// DirectoryStorage is what a backend stores of an account's contacts and
// their locations; PutContact, PutLocation and ContactLocations add the
// rules.
type DirectoryStorage interface {
	// Claim takes id for a record of the account (what names the record
	// in errors); an ID another account holds is not found.
	Claim(id int64, what string) error
	// StoreContact writes c and moves it to the end of the people feed.
	StoreContact(c app.Contact) error
	// HasContact reports whether the account has the contact.
	HasContact(id int64) (bool, error)
	// StoreLocation writes l under its contact, taking it from the
	// contact it was under before, and moves both contacts to the end of
	// the people feed.
	StoreLocation(l app.ContactLocation) error
	// RewriteLocation writes l again where it is, under the same contact
	// (only its record changes).
	RewriteLocation(l app.ContactLocation) error
	// Locations lists a contact's locations in ID order; ErrNotFound
	// when the contact is not the account's.
	Locations(contactID int64) ([]app.ContactLocation, error)
}

// PutContact stores a contact (Tx.PutContact) under the ID it brings,
// which must be the account's or free.
func PutContact(s DirectoryStorage, c app.Contact) error {
	if c.ID <= 0 {
		return fmt.Errorf("store: PutContact needs a contact with an ID")
	}
	if err := s.Claim(c.ID, "contact"); err != nil {
		return err
	}
	return s.StoreContact(c)
}

// PutLocation stores a contact's location (Tx.PutLocation): the contact
// must be the account's, and a location arriving as primary takes the
// flag from the contact's other locations (app.SetPrimary).
func PutLocation(s DirectoryStorage, l app.ContactLocation) error {
	if l.ID <= 0 {
		return fmt.Errorf("store: PutLocation needs a location with an ID")
	}
	ok, err := s.HasContact(l.ContactID)
	if err != nil {
		return fmt.Errorf("contact %d: %w", l.ContactID, err)
	}
	if !ok {
		return app.Errorf(app.KindNotFound, "contact %d not found", l.ContactID)
	}
	if err := s.Claim(l.ID, "location"); err != nil {
		return err
	}
	if err := s.StoreLocation(l); err != nil {
		return err
	}
	if !l.IsPrimary {
		return nil
	}
	locs, err := s.Locations(l.ContactID)
	if err != nil {
		return err
	}
	before := slices.Clone(locs)
	app.SetPrimary(locs, l.ID)
	for i := range locs {
		if locs[i].IsPrimary != before[i].IsPrimary {
			if err := s.RewriteLocation(locs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ContactLocations is app.Directory's ContactLocations over a backend's
// Locations: none for a contact the account does not have.
func ContactLocations(s interface {
	Locations(contactID int64) ([]app.ContactLocation, error)
}, contactID int64) ([]app.ContactLocation, error) {
	locs, err := s.Locations(contactID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return locs, err
}
