package localstore

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// AccountInfo is what the rule engine needs of the dealer's account,
// cached from the server.
type AccountInfo struct {
	Dealer       app.DealerProfile   `json:"dealer"`
	Currency     app.Currency        `json:"currency"`
	TaxOverrides map[string]app.Rate `json:"taxOverrides,omitempty"`
	Terms        string              `json:"terms"`
}

// App is the rule engine's view of the account.
func (a AccountInfo) App() app.Account {
	return app.Account{Dealer: a.Dealer, Currency: a.Currency,
		Taxes: app.USTaxTable().WithOverrides(a.TaxOverrides), Terms: a.Terms}
}

func (t *txn) account() (AccountInfo, error) {
	var a AccountInfo
	_, err := getJSON(t.b(bucketMeta), keyAccount, &a)
	return a, err
}

func (t *txn) putAccount(a AccountInfo) error { return putJSON(t.b(bucketMeta), keyAccount, a) }

func (t *txn) putContact(c app.Contact) error {
	return putJSON(t.b(bucketContacts), idKey(c.ID), c)
}

func (t *txn) putLocation(l app.ContactLocation) error {
	if err := putJSON(t.b(bucketLocations), idKey(l.ID), l); err != nil {
		return err
	}
	return t.b(bucketContactLocations).Put(pairKey(l.ContactID, uint64(l.ID)), nil)
}

func (t *txn) deleteLocation(l app.ContactLocation) error {
	if err := t.b(bucketLocations).Delete(idKey(l.ID)); err != nil {
		return err
	}
	return t.b(bucketContactLocations).Delete(pairKey(l.ContactID, uint64(l.ID)))
}

func (t *txn) contactLocations(contactID int64) ([]app.ContactLocation, error) {
	var out []app.ContactLocation
	prefix := idKey(contactID)
	c := t.b(bucketContactLocations).Cursor()
	for k, _ := c.Seek(prefix); k != nil && string(k[:8]) == string(prefix); k, _ = c.Next() {
		var l app.ContactLocation
		ok, err := getJSON(t.b(bucketLocations), k[8:], &l)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, l)
		}
	}
	return out, nil
}

// Directory is app.Directory over the store's caches, valid inside the
// transaction it was made in. A read error (a corrupt cache row) is an
// error, not "not found".
type Directory struct {
	t *txn
}

var _ app.Directory = (*Directory)(nil)

func (d *Directory) get(b []byte, id int64, v any) (bool, error) {
	ok, err := getJSON(d.t.b(b), idKey(id), v)
	if err != nil {
		return false, fmt.Errorf("%s %d: %w", b, id, err)
	}
	return ok, nil
}

func (d *Directory) User(id int64) (app.User, bool, error) {
	var u app.User
	ok, err := d.get(bucketUsers, id, &u)
	return u, ok, err
}

func (d *Directory) Contact(id int64) (app.Contact, bool, error) {
	var c app.Contact
	ok, err := d.get(bucketContacts, id, &c)
	return c, ok, err
}

func (d *Directory) Location(id int64) (app.ContactLocation, bool, error) {
	var l app.ContactLocation
	ok, err := d.get(bucketLocations, id, &l)
	return l, ok, err
}

func (d *Directory) ContactLocations(contactID int64) ([]app.ContactLocation, error) {
	return d.t.contactLocations(contactID)
}

// WithDirectory runs fn with the cached directory in a read
// transaction.
func (s *Store) WithDirectory(fn func(d *Directory) error) error {
	return s.view(func(t *txn) error { return fn(&Directory{t: t}) })
}

// Account returns the cached account information.
func (s *Store) Account() (AccountInfo, error) {
	var a AccountInfo
	err := s.view(func(t *txn) (err error) { a, err = t.account(); return })
	return a, err
}

func listAll[T any](t *txn, bucket []byte) ([]T, error) {
	var out []T
	err := t.b(bucket).ForEach(func(k, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return fmt.Errorf("%s %d: %w", bucket, keyID(k), err)
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// Users are the cached account users (the salespeople to choose from).
func (s *Store) Users() ([]app.User, error) {
	var out []app.User
	err := s.view(func(t *txn) (err error) { out, err = listAll[app.User](t, bucketUsers); return })
	return out, err
}

// Contacts answers the people list from the cache with
// app.ContactQuery's rules.
func (s *Store) Contacts(q app.ContactQuery) ([]app.Contact, int, error) {
	var all []app.Contact
	err := s.view(func(t *txn) (err error) { all, err = listAll[app.Contact](t, bucketContacts); return })
	if err != nil {
		return nil, 0, err
	}
	page, n := q.Select(all)
	return page, n, nil
}

// Contact is one cached contact.
func (s *Store) Contact(id int64) (app.Contact, bool, error) {
	var c app.Contact
	var ok bool
	err := s.WithDirectory(func(d *Directory) (err error) { c, ok, err = d.Contact(id); return })
	return c, ok, err
}

// Locations are a cached contact's locations.
func (s *Store) Locations(contactID int64) ([]app.ContactLocation, error) {
	var out []app.ContactLocation
	err := s.view(func(t *txn) (err error) { out, err = t.contactLocations(contactID); return })
	return out, err
}

// replaceAll empties a bucket (used when a pull replaces a whole cache).
func replaceAll(tx *bolt.Tx, name []byte) error {
	if err := tx.DeleteBucket(name); err != nil {
		return err
	}
	_, err := tx.CreateBucket(name)
	return err
}
