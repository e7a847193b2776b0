package localstore

import (
	"context"
	"fmt"

	"proposaldesk/app"
)

// Edit applies m to the local view of proposal proposalID (0 for
// CreateProposal) with the same rules as the server, and queues it for
// the server, in one transaction. env supplies Now and Actor; the store
// supplies the cached account and directory. A rule error is returned as
// app's *app.Error and nothing is written.
//
// Creates made offline get temporary negative IDs (CreateProposal.ID,
// CreateArea.AreaID/OptionID, CreateOption.OptionID) unless the caller
// set them; the returned view carries them. m itself is not changed.
func (s *Store) Edit(ctx context.Context, proposalID int64, m app.Mutation, env app.Env) (*app.Proposal, error) {
	if m.ProposalID() != proposalID {
		return nil, fmt.Errorf("localstore: bug: Edit of proposal %d with a mutation of proposal %d", proposalID, m.ProposalID())
	}
	raw, err := app.EncodeMutation(m)
	if err != nil {
		return nil, err
	}
	m, err = app.DecodeMutation(raw) // a private copy to fill IDs into
	if err != nil {
		return nil, err
	}
	var out *app.Proposal
	err = s.update(ctx, func(t *txn) error {
		// The screen may hold temporary IDs a sync has replaced since.
		t.resolveMutation(m)
		proposalID := t.resolve(proposalID)
		rec := &Record{} // a create's, until Apply gives it its ID
		if proposalID != 0 {
			r, ok, err := t.record(proposalID)
			if err != nil {
				return err
			}
			if !ok {
				return errNoProposal(proposalID)
			}
			rec = r
		}
		if err := app.FillNewIDs(m, rec.Local, t.nextTempID); err != nil {
			return err
		}
		e, err := t.env(env.Now, env.Actor)
		if err != nil {
			return err
		}
		next, err := app.Apply(rec.Local, m, e)
		if err != nil {
			return err
		}
		if next.ID != rec.ID && proposalID != 0 {
			// The edit made another proposal (a copy): a record of its
			// own, with no server copy yet; the source is unchanged.
			rec = &Record{}
		}
		seen := rec.Local
		rec.ID, rec.Local = next.ID, next
		raw, err := app.EncodeMutation(m)
		if err != nil {
			return err
		}
		entry := &Entry{Kind: EntryProposal, ProposalID: rec.ID, Mutation: raw,
			Created: env.Now, Actor: env.Actor, Effect: app.Effect(m, next)}
		if rec.Server != nil {
			entry.BaseVersion = rec.BaseVersion
		}
		if err := t.enqueue(entry); err != nil {
			return err
		}
		if a, ok := m.(app.ClientDecision); ok {
			if err := t.putAcceptance(a, seen, entry.Seq, env.Now); err != nil {
				return err
			}
		}
		b := s.badges(rec.ID)
		b.Pending++
		out = next
		return t.putRecordBadges(rec, b)
	})
	return out, err
}

// badges are a proposal's committed badge counts (writers hold wmu, so
// nothing commits under us).
func (s *Store) badges(id int64) Badges {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[id].Badges
}

// CreateContact creates a contact offline: it validates nc with app's
// rules, caches the contact under a temporary ID and queues its create,
// in one transaction. Proposals may be assigned the contact at once.
func (s *Store) CreateContact(ctx context.Context, nc app.NewContact, env app.Env) (app.Contact, error) {
	if err := app.Require(env.Actor, app.OpCreatePerson.Permission()); err != nil {
		return app.Contact{}, err
	}
	c, err := nc.Contact(0)
	if err != nil {
		return app.Contact{}, err
	}
	err = s.update(ctx, func(t *txn) error {
		if c.ID, err = t.nextTempID(); err != nil {
			return err
		}
		if err := t.putContact(c); err != nil {
			return err
		}
		return t.enqueue(&Entry{Kind: EntryContact, Contact: &nc, ContactID: c.ID,
			Created: env.Now, Actor: env.Actor})
	})
	if err != nil {
		return app.Contact{}, err
	}
	return c, nil
}

// CreateLocation adds a location to a cached contact (which may itself
// be offline-created) under a temporary ID and queues its create. A
// primary location clears the flag on the contact's others.
func (s *Store) CreateLocation(ctx context.Context, contactID int64, nl app.NewLocation, env app.Env) (app.ContactLocation, error) {
	if err := app.Require(env.Actor, app.OpCreateLocation.Permission()); err != nil {
		return app.ContactLocation{}, err
	}
	loc, err := nl.Location(0, contactID)
	if err != nil {
		return app.ContactLocation{}, err
	}
	err = s.update(ctx, func(t *txn) error {
		contactID := t.resolve(contactID)
		loc.ContactID = contactID
		d := &Directory{t: t}
		if _, ok, err := d.Contact(contactID); err != nil {
			return err
		} else if !ok {
			return app.Errorf(app.KindNotFound, "contact %d not found in this account", contactID)
		}
		if loc.ID, err = t.nextTempID(); err != nil {
			return err
		}
		if loc.IsPrimary {
			others, err := t.contactLocations(contactID)
			if err != nil {
				return err
			}
			for _, o := range others {
				if o.IsPrimary {
					o.IsPrimary = false
					if err := t.putLocation(o); err != nil {
						return err
					}
				}
			}
		}
		if err := t.putLocation(loc); err != nil {
			return err
		}
		return t.enqueue(&Entry{Kind: EntryLocation, Location: &nl, LocationID: loc.ID, ContactID: contactID,
			Created: env.Now, Actor: env.Actor})
	})
	if err != nil {
		return app.ContactLocation{}, err
	}
	return loc, nil
}
