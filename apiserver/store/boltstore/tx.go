package boltstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// tx is a transaction bound to one account. It holds that account's bucket
// and reaches the global buckets only for IDs, ownership and users.
type tx struct {
	s       *Store
	btx     *bolt.Tx
	id      int64
	account store.Account
	ab      *bolt.Bucket // accounts/<id>

	// baseW is the account's index version when the tx began.
	baseW uint64
	// view is set in a read-only View, with Store.commits when it
	// began: the count the stamps it reads are memoized at.
	view       bool
	viewWrites uint64
	// g is the write group this tx belongs to (nil when read-only);
	// wrote is set by every method that writes, so a failure after it
	// rolls the group back (see commitqueue.go).
	g       *writeGroup
	wrote   bool
	written []record // proposals stored, for the decode cache
	// err is the first failure of a method that cannot return one
	// (NextID, NextNumber); the transaction fails with it.
	err error
}

func (s *Store) begin(btx *bolt.Tx, accountID int64) (*tx, error) {
	accts := btx.Bucket(bAccounts)
	if accts == nil || accountID <= 0 {
		return nil, notFound("account %d not found", accountID)
	}
	ab := accts.Bucket(idKey(accountID))
	if ab == nil {
		return nil, notFound("account %d not found", accountID)
	}
	t := &tx{s: s, btx: btx, id: accountID, ab: ab}
	acct, err := s.decoded.Accounts.Decode(fmt.Sprint(accountID), ab.Get(kRecord))
	if err != nil {
		return nil, fmt.Errorf("account %d: %w", accountID, err)
	}
	t.account = acct
	t.baseW = indexVersion(ab)
	return t, nil
}

func indexVersion(ab *bolt.Bucket) uint64 {
	if v := ab.Get(kIndexTx); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

func (t *tx) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *tx) b(name []byte) *bolt.Bucket { return t.ab.Bucket(name) }

func (t *tx) AccountID() int64       { return t.id }
func (t *tx) Account() store.Account { return t.account }

// claim checks that id is not another account's record (notFound names
// it with what) and claims it for this account.
func (t *tx) claim(id int64, what string) error {
	owners := t.btx.Bucket(bOwners)
	if v := owners.Get(idKey(id)); v != nil {
		if keyID(v) != t.id {
			return notFound("%s %d not found", what, id)
		}
		return nil
	}
	if !t.btx.Writable() {
		return fmt.Errorf("boltstore: write of %s %d in a read-only transaction", what, id)
	}
	t.wrote = true
	return owners.Put(idKey(id), idKey(t.id))
}

// ---- proposals

func (t *tx) Proposal(id int64) (*app.Proposal, error) {
	v := t.b(bProposals).Get(idKey(id))
	if v == nil {
		return nil, notFound("proposal %d not found", id)
	}
	p, err := t.s.decoded.proposals.Decode(strconv.FormatInt(id, 10), v)
	if err != nil {
		return nil, fmt.Errorf("proposal %d: %w", id, err)
	}
	return &p, nil
}

// ProposalVersion reads the proposal's stamp (stamps.go), not the proposal.
func (t *tx) ProposalVersion(id int64) (int64, error) {
	v := t.b(bStamps).Get(idKey(id))
	if v == nil {
		return 0, notFound("proposal %d not found", id)
	}
	version, err := stampVersion(v)
	if err != nil {
		return 0, fmt.Errorf("proposal %d: %w", id, err)
	}
	if t.view {
		t.s.stamps.put(t.viewWrites, stampKey{t.id, id}, version)
	}
	return version, nil
}

func (t *tx) ProposalUncached(id int64) (*app.Proposal, error) {
	v := t.b(bProposals).Get(idKey(id))
	if v == nil {
		return nil, notFound("proposal %d not found", id)
	}
	var p app.Proposal
	if err := decode(v, &p); err != nil {
		return nil, fmt.Errorf("proposal %d: %w", id, err)
	}
	return &p, nil
}

func (t *tx) PutProposal(p *app.Proposal) error {
	if p == nil || p.ID <= 0 {
		return fmt.Errorf("boltstore: PutProposal needs a proposal with an ID")
	}
	if err := t.claim(p.ID, "proposal"); err != nil {
		return err
	}
	if t.g == nil {
		return fmt.Errorf("boltstore: PutProposal %d in a read-only transaction", p.ID)
	}
	t.wrote = true
	key := idKey(p.ID)
	// Every stored change gets a new version: the version is the ETag, and
	// readers (the server's rendered-detail cache, clients' If-Match) rely
	// on it changing whenever the content does, also for writers that put
	// a proposal without going through app.Apply (demo data, imports).
	if raw := t.b(bStamps).Get(key); raw != nil {
		oldVersion, err := stampVersion(raw)
		if err != nil {
			return fmt.Errorf("proposal %d: %w", p.ID, err)
		}
		if p.Version <= oldVersion {
			p.Version = oldVersion + 1
		}
	}
	entry := app.EntryOf(p)
	var row []byte // the list row, for the index kept in memory
	for _, w := range []struct {
		bucket []byte
		v      any
	}{{bProposals, p}, {bIndex, entry}, {bRows, app.ListItemView(p)}} {
		var data []byte
		var err error
		if p, ok := w.v.(*app.Proposal); ok {
			// Inside the single writer: the hand-written encoder, a
			// few times faster than reflection for the same bytes.
			data, err = p.AppendJSON(nil)
		} else {
			data, err = json.Marshal(w.v)
		}
		if err != nil {
			return fmt.Errorf("encode proposal %d: %w", p.ID, err)
		}
		if err := t.b(w.bucket).Put(key, data); err != nil {
			return err
		}
		if bytes.Equal(w.bucket, bRows) {
			row = data
		}
		if bytes.Equal(w.bucket, bProposals) {
			r := record{key: strconv.FormatInt(p.ID, 10), raw: data}
			if len(t.written) < maxPrimed {
				// A copy of what data encodes (Clone encodes exactly
				// like the original), for the decode cache.
				r.val = p.Clone()
			}
			t.written = append(t.written, r)
		}
	}
	stamp, err := encodeStamp(p)
	if err != nil {
		return fmt.Errorf("encode proposal %d: %w", p.ID, err)
	}
	if err := t.b(bStamps).Put(key, stamp); err != nil {
		return err
	}
	// The changes feed keeps one entry per proposal, at its latest seq.
	changes, changedAt := t.b(bChanges), t.b(bChangedAt)
	if old := changedAt.Get(key); old != nil {
		if err := changes.Delete(old); err != nil {
			return err
		}
	}
	seq, err := changes.NextSequence()
	if err != nil {
		return err
	}
	if err := changes.Put(u64(seq), key); err != nil {
		return err
	}
	if err := changedAt.Put(key, u64(seq)); err != nil {
		return err
	}
	// The index version names this commit; readers use the cache only
	// when it was built at the version their tx sees.
	newW := uint64(t.btx.ID())
	if err := t.ab.Put(kIndexTx, u64(newW)); err != nil {
		return err
	}
	t.g.put(t.id, t.baseW, entry, row)
	return nil
}

func (t *tx) ProposalIDs() ([]int64, error) {
	ids := []int64{}
	err := t.b(bProposals).ForEach(func(k, _ []byte) error {
		ids = append(ids, keyID(k))
		return nil
	})
	return ids, err
}

// ---- IDs

func (t *tx) NextID() int64 {
	seq, err := t.btx.Bucket(bIDs).NextSequence()
	if err != nil {
		t.fail(fmt.Errorf("boltstore: NextID: %w", err))
		return 0
	}
	return int64(seq)
}

// FirstNumber is the first proposal number of an account.
const FirstNumber = 1001

func (t *tx) NextNumber() int64 {
	// A number is seen by users: one taken by a write that then fails
	// must be given back, so taking it counts as writing. (IDs are not:
	// a gap in them is invisible.)
	t.wrote = true
	seq, err := t.ab.NextSequence()
	if err != nil {
		t.fail(fmt.Errorf("boltstore: NextNumber: %w", err))
		return 0
	}
	return int64(seq) + FirstNumber - 1
}

// ---- directory

func (t *tx) User(id int64) (app.User, bool, error) {
	u, err := t.userRecord(id)
	if errors.Is(err, store.ErrNotFound) {
		return app.User{}, false, nil
	}
	if err != nil {
		return app.User{}, false, fmt.Errorf("user %d: %w", id, err)
	}
	return u.User, true, nil
}

func (t *tx) userRecord(id int64) (store.UserRecord, error) {
	if t.b(bAcctUsers).Get(idKey(id)) == nil {
		return store.UserRecord{}, notFound("user %d not found", id)
	}
	var u store.UserRecord
	if err := decode(t.btx.Bucket(bUsers).Get(idKey(id)), &u); err != nil {
		return u, err
	}
	if u.AccountID != t.id {
		return store.UserRecord{}, notFound("user %d not found", id)
	}
	return u, nil
}

func (t *tx) Users() ([]app.User, error) {
	users := []app.User{}
	err := t.b(bAcctUsers).ForEach(func(k, _ []byte) error {
		u, err := t.userRecord(keyID(k))
		if err != nil {
			return err
		}
		users = append(users, u.User)
		return nil
	})
	return users, err
}

func (t *tx) Contact(id int64) (app.Contact, bool, error) {
	var c app.Contact
	v := t.b(bContacts).Get(idKey(id))
	if v == nil {
		return app.Contact{}, false, nil
	}
	if err := decode(v, &c); err != nil {
		return app.Contact{}, false, fmt.Errorf("contact %d: %w", id, err)
	}
	return c, true, nil
}

func (t *tx) Location(id int64) (app.ContactLocation, bool, error) {
	var l app.ContactLocation
	v := t.b(bLocations).Get(idKey(id))
	if v == nil {
		return app.ContactLocation{}, false, nil
	}
	if err := decode(v, &l); err != nil {
		return app.ContactLocation{}, false, fmt.Errorf("location %d: %w", id, err)
	}
	return l, true, nil
}

// ContactLocations is Locations with none for a contact the account
// does not have.
func (t *tx) ContactLocations(contactID int64) ([]app.ContactLocation, error) {
	return store.ContactLocations(t, contactID)
}

func (t *tx) Contacts(q app.ContactQuery) ([]app.Contact, int, error) {
	var all []app.Contact
	err := t.b(bContacts).ForEach(func(k, v []byte) error {
		var c app.Contact
		if err := decode(v, &c); err != nil {
			return fmt.Errorf("contact %d: %w", keyID(k), err)
		}
		all = append(all, c)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	page, count := q.Select(all)
	return page, count, nil
}

// PutContact stores a contact with store.PutContact's rules.
func (t *tx) PutContact(c app.Contact) error { return store.PutContact(directoryStorage{t}, c) }

func (s directoryStorage) StoreContact(c app.Contact) error {
	t := s.tx
	if err := t.put(bContacts, idKey(c.ID), c); err != nil {
		return err
	}
	return t.touchContact(c.ID)
}

// Locations lists a contact's locations in ID order; ErrNotFound when the
// contact is not the account's.
func (t *tx) Locations(contactID int64) ([]app.ContactLocation, error) {
	if t.b(bContacts).Get(idKey(contactID)) == nil {
		return nil, notFound("contact %d not found", contactID)
	}
	locs := []app.ContactLocation{}
	prefix := idKey(contactID)
	c := t.b(bContactLocs).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		var l app.ContactLocation
		id := keyID(k[8:])
		if err := decode(t.b(bLocations).Get(k[8:]), &l); err != nil {
			return nil, fmt.Errorf("location %d: %w", id, err)
		}
		locs = append(locs, l)
	}
	return locs, nil
}

// PutLocation stores a contact's location with store.PutLocation's rules.
func (t *tx) PutLocation(l app.ContactLocation) error {
	return store.PutLocation(directoryStorage{t}, l)
}

// directoryStorage is the transaction's storage of contacts and
// locations, as store.PutContact and store.PutLocation write them.
type directoryStorage struct{ *tx }

var _ store.DirectoryStorage = directoryStorage{}

func (s directoryStorage) HasContact(id int64) (bool, error) {
	return s.b(bContacts).Get(idKey(id)) != nil, nil
}

func (s directoryStorage) Claim(id int64, what string) error { return s.claim(id, what) }

func (s directoryStorage) StoreLocation(l app.ContactLocation) error {
	// A location that moves to another contact leaves the old one (a
	// change of both contacts in the people feed).
	old, ok, err := s.Location(l.ID)
	if err != nil {
		return err
	}
	if ok && old.ContactID != l.ContactID {
		if err := s.b(bContactLocs).Delete(append(idKey(old.ContactID), idKey(l.ID)...)); err != nil {
			return err
		}
		if err := s.touchContact(old.ContactID); err != nil {
			return err
		}
	}
	if err := s.touchContact(l.ContactID); err != nil {
		return err
	}
	if err := s.b(bContactLocs).Put(append(idKey(l.ContactID), idKey(l.ID)...), nil); err != nil {
		return err
	}
	return s.RewriteLocation(l)
}

func (s directoryStorage) RewriteLocation(l app.ContactLocation) error {
	return s.put(bLocations, idKey(l.ID), l)
}

// ---- idempotency

func idemKey(userID int64, key string) []byte { return append(idKey(userID), key...) }

func (t *tx) Idempotency(userID int64, key string, since time.Time) (store.IdempotencyRecord, bool, error) {
	var r store.IdempotencyRecord
	v := t.b(bIdem).Get(idemKey(userID, key))
	if v == nil {
		return r, false, nil
	}
	if err := decode(v, &r); err != nil {
		return r, false, fmt.Errorf("idempotency record: %w", err)
	}
	if r.CreatedAt.Before(since) {
		return store.IdempotencyRecord{}, false, nil
	}
	return r, true, nil
}

func (t *tx) PutIdempotency(r store.IdempotencyRecord) error {
	if r.Key == "" || r.UserID <= 0 {
		return fmt.Errorf("boltstore: PutIdempotency needs a user and a key")
	}
	if t.b(bAcctUsers).Get(idKey(r.UserID)) == nil {
		return notFound("user %d not found", r.UserID)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = t.s.cfg.now()
	}
	t.wrote = true
	k := idemKey(r.UserID, r.Key)
	idem, times := t.b(bIdem), t.b(bIdemTime)
	var old store.IdempotencyRecord
	if v := idem.Get(k); v != nil && decode(v, &old) == nil {
		if err := times.Delete(idemTimeKey(old.CreatedAt, k)); err != nil {
			return err
		}
	}
	if err := t.put(bIdem, k, r); err != nil {
		return err
	}
	if err := times.Put(idemTimeKey(r.CreatedAt, k), nil); err != nil {
		return err
	}
	return t.pruneIdempotency(r.CreatedAt.Add(-t.s.cfg.idemTTL))
}

func idemTimeKey(at time.Time, k []byte) []byte {
	return append(u64(uint64(max(at.UnixNano(), 0))), k...)
}

// pruneIdempotency deletes a few records made before cutoff, oldest first.
func (t *tx) pruneIdempotency(cutoff time.Time) error {
	limit := u64(uint64(max(cutoff.UnixNano(), 0)))
	times := t.b(bIdemTime)
	c := times.Cursor()
	var doomed [][]byte
	for k, _ := c.First(); k != nil && len(doomed) < t.s.cfg.pruneMax && bytes.Compare(k[:8], limit) < 0; k, _ = c.Next() {
		doomed = append(doomed, bytes.Clone(k))
	}
	for _, k := range doomed {
		if err := times.Delete(k); err != nil {
			return err
		}
		if err := t.b(bIdem).Delete(k[8:]); err != nil {
			return err
		}
	}
	return nil
}

// ---- changes feed

func (t *tx) Changes(cursor string) ([]int64, string, error) {
	var after uint64
	if cursor != "" {
		v, err := strconv.ParseUint(cursor, 10, 64)
		if err != nil {
			return nil, "", app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	ids := []int64{}
	next := cursor
	c := t.b(bChanges).Cursor()
	for k, v := c.Seek(u64(after + 1)); k != nil; k, v = c.Next() {
		ids = append(ids, keyID(v))
		next = strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	return ids, next, nil
}

// ---- helpers

func (t *tx) put(bucket, key []byte, v any) error {
	t.wrote = true
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", bucket, err)
	}
	return t.b(bucket).Put(key, data)
}

func decode(data []byte, v any) error {
	if data == nil {
		return fmt.Errorf("missing record")
	}
	return json.Unmarshal(data, v)
}
