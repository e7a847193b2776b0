package boltstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/catalogindex"
)

// The account's catalog lives in one bucket, created by the first import
// (an account without it has an empty catalog, so no migration):
//
//	accounts/<id>/catalog             "version" -> ID of the tx that last wrote it
//	                                  "count"   -> number of items
//	accounts/<id>/catalog/items       id -> app.CatalogItem
//	accounts/<id>/catalog/keys        app.CatalogKeyOf -> id
//	accounts/<id>/catalog/categories  lower(category name) -> category ID
//	accounts/<id>/catalog/feed        seq -> id ++ state (0 present, 1 removed)
//	accounts/<id>/catalog/at          id -> seq of its latest feed entry
//
// Searches use an in-memory catalogindex per account, built from the
// items bucket when its version differs from the file's (after an import,
// on first use) and shared by every reader of that version.
var (
	bCatalog    = []byte("catalog")
	bCatItems   = []byte("items")
	bCatKeys    = []byte("keys")
	bCatCats    = []byte("categories")
	bCatFeed    = []byte("feed")
	bCatAt      = []byte("at")
	kCatVersion = []byte("version")
	kCatCount   = []byte("count")
)

const (
	feedPresent byte = 0
	feedRemoved byte = 1
)

// migrateCatalogKeys (schema v4) rewrites the keys of items without a
// part number to app.CatalogKeyOf's quoted form: they joined brand,
// model and name with NUL bytes, which the PostgreSQL store cannot hold,
// and both stores must match a file's rows to items alike.
func migrateCatalogKeys(btx *bolt.Tx) error {
	accts := btx.Bucket(bAccounts)
	return accts.ForEachBucket(func(k []byte) error {
		cb := accts.Bucket(k).Bucket(bCatalog)
		if cb == nil {
			return nil
		}
		keys := cb.Bucket(bCatKeys)
		type rekey struct{ old, new []byte }
		var moves []rekey
		c := keys.Cursor()
		for key, id := c.Seek([]byte("bmn:")); key != nil && bytes.HasPrefix(key, []byte("bmn:")); key, id = c.Next() {
			it, err := catalogItemAt(cb, keyID(id))
			if err != nil {
				return fmt.Errorf("account %d: %w", keyID(k), err)
			}
			if nk := app.CatalogKeyOf(&it); nk != string(key) {
				moves = append(moves, rekey{bytes.Clone(key), []byte(nk)})
			}
		}
		for _, m := range moves {
			id := bytes.Clone(keys.Get(m.old))
			if err := keys.Delete(m.old); err != nil {
				return err
			}
			if err := keys.Put(m.new, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// catalogIndex is an account's built search index at a catalog version;
// Store.catMu is held while one is built, so concurrent first searches
// build it once.
type catalogIndex struct {
	version uint64
	ix      *catalogindex.Index
	items   *itemCache // decoded items of this version
}

// catalogIndex returns the account's index at the version cb holds,
// building it when the cached one is of another version, and the cache
// of decoded items of that version (nil for a reader of an older one).
func (t *tx) catalogIndex(cb *bolt.Bucket) (*catalogindex.Index, *itemCache, error) {
	version := u64At(cb, kCatVersion)
	t.s.catMu.Lock()
	defer t.s.catMu.Unlock()
	if t.s.catIdx == nil {
		t.s.catIdx = map[int64]catalogIndex{}
	}
	if c, ok := t.s.catIdx[t.id]; ok && c.version == version {
		return c.ix, c.items, nil
	}
	ix, err := catalogindex.FromJSON(cb.Bucket(bCatItems).ForEach)
	if err != nil {
		return nil, nil, err
	}
	// A reader of an older snapshot must not replace a newer index.
	if c, ok := t.s.catIdx[t.id]; !ok || c.version < version {
		c := catalogIndex{version: version, ix: ix, items: newItemCache()}
		t.s.catIdx[t.id] = c
		return ix, c.items, nil
	}
	return ix, nil, nil
}

func u64At(b *bolt.Bucket, k []byte) uint64 {
	if v := b.Get(k); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

func (t *tx) CatalogItem(id int64) (app.CatalogItem, bool, error) {
	cb := t.b(bCatalog)
	if cb == nil {
		return app.CatalogItem{}, false, nil
	}
	it, err := catalogItemAt(cb, id)
	if app.KindOf(err) == app.KindNotFound {
		return it, false, nil
	}
	return it, err == nil, err
}

func catalogItemAt(cb *bolt.Bucket, id int64) (app.CatalogItem, error) {
	var it app.CatalogItem
	v := cb.Bucket(bCatItems).Get(idKey(id))
	if v == nil {
		return it, notFound("catalog item %d not found", id)
	}
	if err := json.Unmarshal(v, &it); err != nil {
		return it, fmt.Errorf("catalog item %d: %w", id, err)
	}
	return it, nil
}

func (t *tx) SearchCatalog(q app.CatalogQuery) ([]app.CatalogItem, int, error) {
	page := []app.CatalogItem{}
	cb := t.b(bCatalog)
	if cb == nil {
		return page, 0, nil
	}
	ix, cache, err := t.catalogIndex(cb)
	if err != nil {
		return nil, 0, err
	}
	ids, count := ix.Search(&q)
	for _, id := range ids {
		it, ok := cache.Get(id)
		if !ok {
			if it, err = catalogItemAt(cb, id); err != nil {
				return nil, 0, err
			}
			cache.Put(id, it)
		}
		page = append(page, it)
	}
	return page, count, nil
}

func (t *tx) CatalogChanges(cursor string, limit int) (app.CatalogChanges, error) {
	out := app.CatalogChanges{Cursor: cursor, Items: []app.CatalogItem{}, DeletedIDs: []int64{}}
	var after uint64
	if cursor != "" {
		v, err := strconv.ParseUint(cursor, 10, 64)
		if err != nil {
			return out, app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	cb := t.b(bCatalog)
	if cb == nil {
		return out, nil
	}
	out.ItemCount = int(u64At(cb, kCatCount))
	c := cb.Bucket(bCatFeed).Cursor()
	k, v := c.Seek(u64(after + 1))
	for ; k != nil && len(out.Items)+len(out.DeletedIDs) < limit; k, v = c.Next() {
		id := keyID(v[:8])
		if v[8] == feedRemoved {
			out.DeletedIDs = append(out.DeletedIDs, id)
		} else {
			it, err := catalogItemAt(cb, id)
			if err != nil {
				return out, err
			}
			out.Items = append(out.Items, it)
		}
		out.Cursor = strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	out.HasMore = k != nil
	return out, nil
}

// catalogWriter is one import's view of the catalog buckets.
type catalogWriter struct {
	t                               *tx
	cb, items, keys, cats, feed, at *bolt.Bucket
	count                           int64
	now                             app.Time
	// newKeys are the keys of added items, written sorted at the end:
	// bbolt inserts into an in-memory node by moving its tail, so keys
	// put in the file's (random) order cost quadratic time.
	newKeys []newKey
}

type newKey struct {
	key string
	id  int64
}

func (t *tx) catalogWriter() (*catalogWriter, error) {
	cb, err := t.ab.CreateBucketIfNotExists(bCatalog)
	if err != nil {
		return nil, fmt.Errorf("catalog bucket: %w", err)
	}
	return t.catalogWriterOn(cb)
}

// catalogWriterOn writes the catalog whose top bucket is cb (the
// account's, or a staged import's copy).
func (t *tx) catalogWriterOn(cb *bolt.Bucket) (*catalogWriter, error) {
	t.wrote = true // a failure from here on rolls the group back
	w := &catalogWriter{t: t, cb: cb, count: int64(u64At(cb, kCatCount)), now: app.At(t.s.cfg.now())}
	var err error
	for _, b := range []struct {
		dst  **bolt.Bucket
		name []byte
	}{{&w.items, bCatItems}, {&w.keys, bCatKeys}, {&w.cats, bCatCats}, {&w.feed, bCatFeed}, {&w.at, bCatAt}} {
		if *b.dst, err = cb.CreateBucketIfNotExists(b.name); err != nil {
			return nil, fmt.Errorf("catalog bucket %s: %w", b.name, err)
		}
	}
	// Bulk loads append in key order: fill pages fully.
	w.items.FillPercent, w.feed.FillPercent = 0.9, 0.95
	return w, nil
}

func (t *tx) ImportCatalog(mode app.CatalogImportMode, rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) error {
	w, err := t.catalogWriter()
	if err != nil {
		return err
	}
	if err := store.ImportCatalog(w, mode, int(w.count), w.now, rows, report); err != nil {
		return err
	}
	return w.finish()
}

var _ store.CatalogWriter = (*catalogWriter)(nil)
var _ store.KeyFlusher = (*catalogWriter)(nil)

// FlushKeys writes the keys added so far (store.KeyFlusher).
func (w *catalogWriter) FlushKeys() error { return w.flush() }

// ItemIDs lists the items the catalog holds (store.CatalogWriter).
func (w *catalogWriter) ItemIDs(fn func(id int64)) error {
	return w.items.ForEach(func(k, _ []byte) error {
		fn(keyID(k))
		return nil
	})
}

// RemoveItems removes the items (store.CatalogWriter).
func (w *catalogWriter) RemoveItems(ids []int64, report *app.CatalogImportReport) error {
	for _, id := range ids {
		if err := w.remove(id, report); err != nil {
			return fmt.Errorf("remove catalog item %d: %w", id, err)
		}
	}
	return nil
}

// ItemByKey finds the item with the key (store.CatalogWriter). A key
// added by this import is not found until flush writes it.
func (w *catalogWriter) ItemByKey(key string) (app.CatalogItem, bool, error) {
	v := w.keys.Get([]byte(key))
	if v == nil {
		return app.CatalogItem{}, false, nil
	}
	it, err := catalogItemAt(w.cb, keyID(v))
	return it, err == nil, err
}

// AddItem stores a new item (store.CatalogWriter); its key is written
// by flush.
func (w *catalogWriter) AddItem(key string, it app.CatalogItem) (int64, error) {
	it.ID = w.t.NextID()
	if w.t.err != nil {
		return 0, w.t.err
	}
	if err := w.t.claim(it.ID, "catalog item"); err != nil {
		return 0, err
	}
	w.newKeys = append(w.newKeys, newKey{key, it.ID})
	w.count++
	return it.ID, w.put(it)
}

// UpdateItem stores an item again (store.CatalogWriter).
func (w *catalogWriter) UpdateItem(_ string, it app.CatalogItem) error { return w.put(it) }

// put writes an item's record and moves it to the end of the feed.
func (w *catalogWriter) put(it app.CatalogItem) error {
	data, err := json.Marshal(&it)
	if err != nil {
		return fmt.Errorf("encode catalog item: %w", err)
	}
	if err := w.items.Put(idKey(it.ID), data); err != nil {
		return err
	}
	return w.record(it.ID, feedPresent)
}

// CategoryID finds or allocates the ID of a category (store.CatalogWriter).
func (w *catalogWriter) CategoryID(key string) (int64, error) {
	if v := w.cats.Get([]byte(key)); v != nil {
		return keyID(v), nil
	}
	id := w.t.NextID()
	if w.t.err != nil {
		return 0, w.t.err
	}
	return id, w.cats.Put([]byte(key), idKey(id))
}

// remove removes an item and notes it in report.
func (w *catalogWriter) remove(id int64, report *app.CatalogImportReport) error {
	it, err := catalogItemAt(w.cb, id)
	if err != nil {
		return err
	}
	report.NoteRemoved(&it)
	if err := w.keys.Delete([]byte(app.CatalogKeyOf(&it))); err != nil {
		return err
	}
	if err := w.items.Delete(idKey(id)); err != nil {
		return err
	}
	w.count--
	return w.record(id, feedRemoved)
}

// record moves the item's feed entry to a new seq.
func (w *catalogWriter) record(id int64, state byte) error {
	key := idKey(id)
	if old := w.at.Get(key); old != nil {
		if err := w.feed.Delete(bytes.Clone(old)); err != nil {
			return err
		}
	}
	seq, err := w.feed.NextSequence()
	if err != nil {
		return err
	}
	if err := w.feed.Put(u64(seq), append(bytes.Clone(key), state)); err != nil {
		return err
	}
	return w.at.Put(key, u64(seq))
}

// finish writes the new keys and count, and stamps the catalog's version
// (the index is rebuilt from the file by the next search).
func (w *catalogWriter) finish() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.cb.Put(kCatVersion, u64(uint64(w.t.btx.ID())))
}

// flush writes the new keys and the count (a staged import flushes each
// chunk and stamps the version once, when it publishes the catalog).
func (w *catalogWriter) flush() error {
	slices.SortFunc(w.newKeys, func(a, b newKey) int { return strings.Compare(a.key, b.key) })
	for i, k := range w.newKeys {
		if i > 0 && w.newKeys[i-1].key == k.key {
			return fmt.Errorf("two rows of the import are the same item (%s)", k.key)
		}
		if err := w.keys.Put([]byte(k.key), idKey(k.id)); err != nil {
			return err
		}
	}
	w.newKeys = nil
	return w.cb.Put(kCatCount, u64(uint64(max(w.count, 0))))
}
