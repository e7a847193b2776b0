package localstore

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"proposaldesk/app"
)

// Errors of Open.
var (
	// ErrLocked: another process (another copy of the app) has the file
	// open. bbolt holds an exclusive lock for as long as it is open.
	ErrLocked = errors.New("localstore: the data file is in use by another process")
	// ErrTooNew: the file was written by a newer version of the app.
	ErrTooNew = errors.New("localstore: the data file is newer than this program")
)

// Options tune Open. The zero value is what the app uses.
type Options struct {
	// Timeout is how long Open waits for the file lock (default 1 s).
	Timeout time.Duration
	// Rand is the source of idempotency keys (default crypto/rand).
	// Tests inject a seeded reader.
	Rand io.Reader
	// NoSync skips fsync on commit. Only benchmarks of code other than
	// the commit and throwaway tests set it.
	NoSync bool

	// schema stops migration at this version (fixture generation only).
	schema int
}

// Store is the desktop's local database. Its methods are safe for
// concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	rand io.Reader

	// wmu serializes writes with the update of the in-memory list that
	// follows each commit, so the memory never applies commits out of
	// order.
	wmu sync.Mutex

	// beforeCommit, when set (tests only), runs after a write's work and
	// before its commit; an error aborts the transaction as a crash at
	// that point would.
	beforeCommit func() error
	// afterRead, when set (tests only), runs in Record between reading
	// a record from the file and caching it.
	afterRead func()

	mu    sync.RWMutex
	items map[int64]ListItem // the list index, as committed
	flat  []app.ListEntry    // what Search runs over; nil after a write
	// recs holds a few decoded records, as committed, so that a run of
	// edits to one big proposal does not decode it again for each.
	// Proposals are never changed in place (app.Apply returns new ones),
	// so readers share them; a Record itself is copied out.
	recs map[int64]*Record
	// recGen counts the commits that changed records or list rows: a
	// reader caches what it decoded only if none committed meanwhile
	// (Store.Record).
	recGen uint64

	// The offline catalog's search index (catalog.go).
	catMu  sync.Mutex
	catGen uint64
	catIdx catalogIndex
}

// maxCachedRecords bounds Store.recs: the proposals being worked on.
const maxCachedRecords = 8

// Open opens (creating if needed) the store at path, migrating it to the
// current schema. It fails with ErrLocked after a second when another
// process holds the file.
func Open(path string) (*Store, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*Store, error) {
	if o.Timeout == 0 {
		o.Timeout = time.Second
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	target := SchemaVersion
	if o.schema != 0 {
		target = o.schema
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout, NoSync: o.NoSync})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("%w (%s); close the other window of Proposal Desk", ErrLocked, path)
	}
	if err != nil {
		return nil, fmt.Errorf("localstore: open %s: %w", path, err)
	}
	if err := migrate(db, target); err != nil {
		db.Close()
		return nil, fmt.Errorf("localstore: %s: %w", path, err)
	}
	s := &Store{db: db, path: path, rand: o.Rand, items: map[int64]ListItem{}, recs: map[int64]*Record{}}
	if target < SchemaVersion {
		return s, nil
	}
	if err := s.loadList(); err != nil {
		db.Close()
		return nil, fmt.Errorf("localstore: %s: load list index: %w", path, err)
	}
	return s, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Path is the file the store lives in.
func (s *Store) Path() string { return s.path }

func (s *Store) loadList() error {
	return s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketList).ForEach(func(k, v []byte) error {
			var it ListItem
			if err := json.Unmarshal(v, &it); err != nil {
				return fmt.Errorf("list entry %d: %w", keyID(k), err)
			}
			s.items[it.ID] = it
			return nil
		})
	})
}

// txn is one write transaction with the list changes it makes, applied
// to memory only after the commit succeeds.
type txn struct {
	s     *Store
	tx    *bolt.Tx
	items map[int64]*ListItem // nil: deleted
	// recs are the records this write stored or read (nil: deleted),
	// cached once it commits. Only writers fill the cache: they run one
	// at a time, so what they put there is what is committed.
	recs map[int64]*Record
	// servers are the server copies of the records this write read or
	// wrote, so that storing a record skips an unchanged one.
	servers map[int64]*app.Proposal
	// encoded are server copies' JSON as a pull received it
	// (PutServerCopyJSON), written instead of encoding the copy again.
	encoded map[*app.Proposal][]byte
}

func (s *Store) update(ctx context.Context, fn func(t *txn) error) error {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	t := &txn{s: s, items: map[int64]*ListItem{}, recs: map[int64]*Record{}, servers: map[int64]*app.Proposal{}}
	err := s.db.Update(func(tx *bolt.Tx) error {
		t.tx = tx
		if err := fn(t); err != nil {
			return err
		}
		if s.beforeCommit != nil {
			return s.beforeCommit() // a test's simulated crash
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(t.items) > 0 || len(t.recs) > 0 {
		s.mu.Lock()
		for id, it := range t.items {
			if it == nil {
				delete(s.items, id)
			} else {
				s.items[id] = *it
			}
		}
		if len(t.items) > 0 {
			s.flat = nil
		}
		for id, r := range t.recs {
			if r == nil {
				delete(s.recs, id)
				continue
			}
			s.cacheRecord(id, r)
		}
		s.recGen++
		s.mu.Unlock()
	}
	return nil
}

// cacheRecord keeps a decoded record as committed; s.mu is held.
func (s *Store) cacheRecord(id int64, r *Record) {
	if _, held := s.recs[id]; !held && len(s.recs) >= maxCachedRecords {
		for old := range s.recs { // any one: the set is small
			delete(s.recs, old)
			break
		}
	}
	s.recs[id] = r
}

func (s *Store) view(fn func(t *txn) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		return fn(&txn{s: s, tx: tx})
	})
}

func (t *txn) b(name []byte) *bolt.Bucket {
	b := t.tx.Bucket(name)
	if b == nil {
		panic(fmt.Sprintf("bug: bucket %s missing at schema %d", name, schemaVersion(t.tx)))
	}
	return b
}

func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	data := b.Get(key)
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("decode %s: %w", b.Tx().DB().Path(), err)
	}
	return true, nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}
