// Package boltstore is the embedded implementation of store.Store: one
// bbolt file holding every account's data.
//
// Layout (bucket names; keys of IDs are big-endian uint64):
//
//	meta                     schema (uint64), storeId (hex)
//	ids                      sequence: NextID, unique across the server
//	owners                   id -> account ID of the proposal/contact/location
//	apps                     appID -> store.App
//	users                    userID -> store.UserRecord
//	emails                   lower(email) -> userID
//	keys                     sha256 -> store.APIKey
//	userkeys                 userID ++ sha256 -> ""
//	accounts/<id>            "record" -> store.Account; sequence: NextNumber
//	accounts/<id>/proposals  id -> app.Proposal
//	accounts/<id>/index      id -> app.ListEntry
//	accounts/<id>/rows       id -> app.ListItem
//	accounts/<id>/contacts   id -> app.Contact
//	accounts/<id>/locations  id -> app.ContactLocation
//	accounts/<id>/contactlocs contactID ++ locationID -> ""
//	accounts/<id>/changes    seq -> proposalID; sequence: the feed's seq
//	accounts/<id>/changedat  proposalID -> seq
//	accounts/<id>/peoplefeed seq -> contactID; sequence: the people feed's seq
//	accounts/<id>/peopleat   contactID -> seq
//	accounts/<id>/idempotency userID ++ key -> store.IdempotencyRecord
//	accounts/<id>/idemtime   createdAt(unix ns) ++ userID ++ key -> ""
//	accounts/<id>/users      userID -> ""
//
// A Tx holds the account's bucket and nothing else of the account tree,
// so it cannot reach another account's records.
package boltstore

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/decodecache"
	"proposaldesk/apiserver/store/listindex"
	"proposaldesk/app"
)

var _ store.Store = (*Store)(nil)
var _ store.AuthStore = (*authStore)(nil)
var _ store.Tx = (*tx)(nil)

// ErrInUse is returned by Open when another process holds the file.
var ErrInUse = errors.New("database is in use by another process")

// ErrSchemaTooNew is returned by Open when the file was written by a newer
// version of the server than this one.
var ErrSchemaTooNew = errors.New("database schema is newer than this server knows")

var (
	bMeta     = []byte("meta")
	bIDs      = []byte("ids")
	bOwners   = []byte("owners")
	bApps     = []byte("apps")
	bUsers    = []byte("users")
	bEmails   = []byte("emails")
	bKeys     = []byte("keys")
	bUserKeys = []byte("userkeys")
	bAccounts = []byte("accounts")

	// inside accounts/<id>
	bProposals   = []byte("proposals")
	bIndex       = []byte("index")
	bRows        = []byte("rows")
	bContacts    = []byte("contacts")
	bLocations   = []byte("locations")
	bContactLocs = []byte("contactlocs")
	bChanges     = []byte("changes")
	bChangedAt   = []byte("changedat")
	bIdem        = []byte("idempotency")
	bIdemTime    = []byte("idemtime")
	bAcctUsers   = []byte("users")

	kSchema  = []byte("schema")
	kStoreID = []byte("storeId")
	kRecord  = []byte("record")
	kIndexTx = []byte("indexTx")
)

var accountBuckets = [][]byte{bProposals, bIndex, bRows, bContacts, bLocations, bContactLocs,
	bChanges, bChangedAt, bIdem, bIdemTime, bAcctUsers, bPeopleFeed, bPeopleAt, bStamps}

// migrations[i] takes the schema from version i to i+1. Append only.
var migrations = []func(*bolt.Tx) error{
	// v1: the layout above.
	func(btx *bolt.Tx) error {
		for _, name := range [][]byte{bIDs, bOwners, bApps, bUsers, bEmails, bKeys, bUserKeys, bAccounts} {
			if _, err := btx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	},
	// v2: the people feed (peoplefeed.go), holding every contact.
	migratePeopleFeed,
	// v3: each proposal's stamp beside it (stamps.go).
	migrateStamps,
	// v4: catalog keys without NUL bytes (catalog.go).
	migrateCatalogKeys,
}

// SchemaVersion is the schema this code writes.
func SchemaVersion() uint64 { return uint64(len(migrations)) }

// Option configures Open.
type Option func(*config)

type config struct {
	timeout  time.Duration
	noSync   bool
	now      func() time.Time
	idemTTL  time.Duration
	pruneMax int
	deltaMin int // see listindex.Snap.DeltaMax
}

// WithTimeout sets how long Open waits for the file lock (default 1s).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithNoSync skips fsync on commit: for tests and benchmarks only.
func WithNoSync() Option { return func(c *config) { c.noSync = true } }

// WithClock sets the clock used for default timestamps and pruning.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithIdempotencyTTL sets how long idempotency records are kept before
// they are pruned (default 24h; they are pruned a little later than that,
// a few at a time, as new ones are written).
func WithIdempotencyTTL(d time.Duration) Option { return func(c *config) { c.idemTTL = d } }

// Store is the bbolt store.
type Store struct {
	db      *bolt.DB
	cfg     config
	storeID string

	// snaps are the recent versions of each account's list index.
	snaps *listindex.Held[*listState]

	writes *writeQueue

	decoded decodeCaches
	// commits counts write transactions, each counted after its commit:
	// what was read after a count was taken holds until the count moves
	// (memo.go).
	commits atomic.Uint64
	creds   memo[string, store.Credentials]
	stamps  memo[stampKey, int64] // versions

	// catIdx is each account's catalog search index (catalog.go).
	catMu  sync.Mutex
	catIdx map[int64]catalogIndex
}

// decodeCaches hold decoded records (see decodecache.Cache).
type decodeCaches struct {
	decodecache.Auth
	proposals *decodecache.Cache[app.Proposal]
	rows      *decodecache.Cache[app.ListItem]
	rowJSON   *decodecache.Cache[decodecache.RowJSON]
}

func newDecodeCaches() decodeCaches {
	return decodeCaches{
		Auth:      decodecache.NewAuth(),
		proposals: decodecache.New(4096, func(p app.Proposal) app.Proposal { return *p.Clone() }),
		rows:      decodecache.New(16384, decodecache.CopyListItem),
		rowJSON:   decodecache.New(16384, decodecache.Same[decodecache.RowJSON]),
	}
}

// Open opens or creates the database file at path, migrating it to the
// current schema.
func Open(path string, opts ...Option) (*Store, error) {
	cfg := config{timeout: time.Second, now: time.Now, idemTTL: 24 * time.Hour, pruneMax: 64, deltaMin: 1024}
	for _, o := range opts {
		o(&cfg)
	}
	// InitialMmapSize: the file is mapped 1 GiB at a time (address space,
	// not memory), so a large write transaction (a catalog import) does not
	// remap and copy every dirty node to the heap each time the file grows.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: cfg.timeout, NoSync: cfg.noSync, FreelistType: bolt.FreelistMapType,
		InitialMmapSize: 1 << 30})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (waited %s for its lock)", path, ErrInUse, cfg.timeout)
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &Store{db: db, cfg: cfg, snaps: listindex.NewHeld[*listState](keepSnaps, 0), decoded: newDecodeCaches()}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s.startWriter()
	return s, nil
}

func (s *Store) migrate() error {
	return s.update(func(btx *bolt.Tx) error {
		meta, err := btx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		var version uint64
		if v := meta.Get(kSchema); v != nil {
			if len(v) != 8 {
				return fmt.Errorf("corrupt schema version %x", v)
			}
			version = binary.BigEndian.Uint64(v)
		}
		if version > SchemaVersion() {
			return fmt.Errorf("%w: file has version %d, this server knows up to %d", ErrSchemaTooNew, version, SchemaVersion())
		}
		for ; version < SchemaVersion(); version++ {
			if err := migrations[version](btx); err != nil {
				return fmt.Errorf("migrate schema to v%d: %w", version+1, err)
			}
		}
		if err := meta.Put(kSchema, u64(version)); err != nil {
			return err
		}
		if err := dropStagedImports(btx); err != nil { // catalog_staged.go
			return err
		}
		id := meta.Get(kStoreID)
		if id == nil {
			var b [16]byte
			if _, err := rand.Read(b[:]); err != nil {
				return err
			}
			id = []byte(hex.EncodeToString(b[:]))
			if err := meta.Put(kStoreID, id); err != nil {
				return err
			}
		}
		s.storeID = string(id)
		return nil
	})
}

// StoreID names this data set.
func (s *Store) StoreID() string { return s.storeID }

// Close closes the file.
// Close finishes the queued writes and closes the file.
func (s *Store) Close() error {
	s.stopWriter()
	return s.db.Close()
}

// Auth returns the account-independent part of the store.
func (s *Store) Auth() store.AuthStore { return &authStore{s} }

// View runs fn in a read-only transaction over one account.
func (s *Store) View(ctx context.Context, accountID int64, fn func(store.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	writes := s.commits.Load() // before the transaction: see memo
	return s.db.View(func(btx *bolt.Tx) error {
		t, err := s.begin(btx, accountID)
		if err != nil {
			return err
		}
		t.view, t.viewWrites = true, writes
		if err := fn(t); err != nil {
			return err
		}
		return t.err
	})
}

// Update runs fn in one read-write transaction over one account. If fn
// returns an error (or panics) nothing it wrote is kept, in the file or in
// the list index. Concurrent Updates share a bbolt transaction and its
// fsync (see commitqueue.go); fn may run more than once, so it must only
// set its results, never accumulate them. Update returns once the write
// is on disk.
func (s *Store) Update(ctx context.Context, accountID int64, fn func(store.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.enqueue(&writeCall{account: accountID, fn: fn, done: make(chan struct{})})
}

// Backup writes a consistent snapshot of the whole file to w.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := s.db.View(func(btx *bolt.Tx) error {
		var err error
		n, err = btx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	return n, err
}

// ctxWriter stops a long backup when its context ends.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

func idKey(id int64) []byte { return u64(uint64(id)) }

func keyID(k []byte) int64 { return int64(binary.BigEndian.Uint64(k)) }

// notFound is an *app.Error of kind NotFound: errors.Is(err,
// store.ErrNotFound) holds, and its message is fit to show.
func notFound(format string, args ...any) error {
	return app.Errorf(app.KindNotFound, format, args...)
}
