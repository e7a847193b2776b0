package localstore

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
	"proposaldesk/app/catalogindex"
)

// The offline catalog (schema 3): the account's catalog as the signed-in
// user sees it (costs null without ViewCosts), kept by the sync engine
// from the server's catalog changes feed, searched with app's catalog
// semantics through an in-memory catalogindex built on first search
// after a change. The Store is an app.Catalog for the rule engine.
//
//	catalog   item ID → app.CatalogItem
//	meta      catalogStoreId, catalogCursor: where the feed stopped

var _ app.Catalog = (*Store)(nil)

var (
	bucketCatalog     = []byte("catalog") // v3
	keyCatalogStoreID = []byte("catalogStoreId")
	keyCatalogCursor  = []byte("catalogCursor")
)

// catalogIndex is the built search index and the generation of the
// catalog it was built from; every change bumps gen.
type catalogIndex struct {
	gen uint64
	ix  *catalogindex.Index
}

// CatalogCursor is where the catalog feed stopped: the server's store ID
// and the cursor ("" and "": never downloaded).
func (s *Store) CatalogCursor() (storeID, cursor string, err error) {
	err = s.view(func(t *txn) error {
		m := t.b(bucketMeta)
		storeID, cursor = string(m.Get(keyCatalogStoreID)), string(m.Get(keyCatalogCursor))
		return nil
	})
	return storeID, cursor, err
}

// ApplyCatalogChanges stores a page of the feed in one transaction: its
// items, its removals, and its cursor, so a download stopped midway goes
// on from the last page stored. A page from another server store
// (ch.StoreID differs: the server's data was replaced) first empties the
// catalog; the caller then pages from the beginning.
func (s *Store) ApplyCatalogChanges(ctx context.Context, ch app.CatalogChanges) error {
	err := s.update(ctx, func(t *txn) error {
		m, b := t.b(bucketMeta), t.b(bucketCatalog)
		if old := m.Get(keyCatalogStoreID); old != nil && string(old) != ch.StoreID {
			if err := t.tx.DeleteBucket(bucketCatalog); err != nil {
				return err
			}
			var err error
			if b, err = t.tx.CreateBucket(bucketCatalog); err != nil {
				return err
			}
		}
		b.FillPercent = 0.9 // pages arrive mostly in ID order
		for i := range ch.Items {
			if err := putJSON(b, idKey(ch.Items[i].ID), &ch.Items[i]); err != nil {
				return fmt.Errorf("catalog item %d: %w", ch.Items[i].ID, err)
			}
		}
		for _, id := range ch.DeletedIDs {
			if err := b.Delete(idKey(id)); err != nil {
				return err
			}
		}
		if err := m.Put(keyCatalogStoreID, []byte(ch.StoreID)); err != nil {
			return err
		}
		return m.Put(keyCatalogCursor, []byte(ch.Cursor))
	})
	if err != nil {
		return fmt.Errorf("store catalog changes: %w", err)
	}
	s.catMu.Lock()
	s.catGen++
	s.catIdx = catalogIndex{}
	s.catMu.Unlock()
	return nil
}

// CatalogItem finds an item of the offline catalog (app.Catalog).
func (s *Store) CatalogItem(id int64) (app.CatalogItem, bool, error) {
	var it app.CatalogItem
	var ok bool
	err := s.view(func(t *txn) error {
		var err error
		ok, err = getJSON(t.b(bucketCatalog), idKey(id), &it)
		return err
	})
	return it, ok && err == nil, err
}

// txCatalog is the offline catalog inside a transaction: the rule
// engine's catalog for edits and their replays (a read transaction of
// its own inside the write would not see this one's pages, and bbolt
// warns against it).
type txCatalog struct{ t *txn }

func (c txCatalog) CatalogItem(id int64) (app.CatalogItem, bool, error) {
	var it app.CatalogItem
	ok, err := getJSON(c.t.b(bucketCatalog), idKey(id), &it)
	return it, ok && err == nil, err
}

// CatalogSize is the number of items in the offline catalog.
func (s *Store) CatalogSize() (int, error) {
	var n int
	err := s.view(func(t *txn) error {
		n = t.b(bucketCatalog).Stats().KeyN
		return nil
	})
	return n, err
}

// SearchCatalog answers a catalog query offline with the server's
// semantics (app.CatalogQuery): the page of items and the count of all
// matches.
func (s *Store) SearchCatalog(q app.CatalogQuery) ([]app.CatalogItem, int, error) {
	ix, err := s.catalogIndex()
	if err != nil {
		return nil, 0, err
	}
	ids, count := ix.Search(&q)
	page := make([]app.CatalogItem, 0, len(ids))
	err = s.view(func(t *txn) error {
		b := t.b(bucketCatalog)
		for _, id := range ids {
			var it app.CatalogItem
			// An item removed since the index was built is skipped.
			if ok, err := getJSON(b, idKey(id), &it); err != nil {
				return err
			} else if ok {
				page = append(page, it)
			}
		}
		return nil
	})
	return page, count, err
}

// catalogIndex returns the index of the current catalog, building it
// when a change made it stale. catMu is held while it builds, so
// concurrent keystrokes build it once.
func (s *Store) catalogIndex() (*catalogindex.Index, error) {
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.catIdx.ix != nil && s.catIdx.gen == s.catGen {
		return s.catIdx.ix, nil
	}
	var ix *catalogindex.Index
	err := s.view(func(t *txn) error {
		var err error
		ix, err = catalogindex.FromJSON(t.b(bucketCatalog).ForEach)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("build catalog index: %w", err)
	}
	s.catIdx = catalogIndex{gen: s.catGen, ix: ix}
	return s.catIdx.ix, nil
}

// migrate2to3 adds the offline catalog's bucket.
func migrate2to3(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketCatalog)
	return err
}
