package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/catalogindex"
)

// The catalog (migration 003): items as JSONB documents, searched through
// the same in-memory index the bbolt store and the desktop use
// (app/catalogindex), one per account and catalog version. Each search
// reads the version first, so a replica never answers from an index older
// than the database: another replica's import changes the version.

// catalogIndexes is the store's per-account search indexes.
type catalogIndexes struct {
	mu  sync.Mutex
	idx map[int64]versionedIndex
}

type versionedIndex struct {
	version int64
	ix      *catalogindex.Index
}

// catalogMeta reads the account's catalog version, feed position and
// count (all zero before the first import).
func (t *tx) catalogMeta() (version, seq, count int64, err error) {
	err = t.q.QueryRow(t.ctx, "SELECT version, seq, count FROM catalog_meta WHERE account_id = $1", t.id).
		Scan(&version, &seq, &count)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, 0, nil
	}
	return version, seq, count, err
}

func (t *tx) catalogIndex(version int64) (*catalogindex.Index, error) {
	c := &t.s.catalog
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idx == nil {
		c.idx = map[int64]versionedIndex{}
	}
	if v, ok := c.idx[t.id]; ok && v.version == version {
		return v.ix, nil
	}
	rows, err := t.q.Query(t.ctx, "SELECT id, doc FROM catalog_items WHERE account_id = $1 AND doc IS NOT NULL", t.id)
	if err != nil {
		return nil, err
	}
	ix, err := catalogindex.FromJSON(func(fn func(k, v []byte) error) error {
		defer rows.Close()
		for rows.Next() {
			var id int64
			var doc []byte
			if err := rows.Scan(&id, &doc); err != nil {
				return err
			}
			if err := fn([]byte(strconv.FormatInt(id, 10)), doc); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("catalog index: %w", err)
	}
	if v, ok := c.idx[t.id]; !ok || v.version < version {
		c.idx[t.id] = versionedIndex{version: version, ix: ix}
	}
	return ix, nil
}

func (t *tx) CatalogItem(id int64) (app.CatalogItem, bool, error) {
	var it app.CatalogItem
	found, err := t.getJSON(&it, "SELECT doc FROM catalog_items WHERE account_id = $1 AND id = $2 AND doc IS NOT NULL", t.id, id)
	if err != nil {
		err = fmt.Errorf("catalog item %d: %w", id, err)
		t.fail(err)
		return it, false, err
	}
	return it, found, nil
}

func (t *tx) SearchCatalog(q app.CatalogQuery) ([]app.CatalogItem, int, error) {
	page := []app.CatalogItem{}
	version, _, _, err := t.catalogMeta()
	if err != nil || version == 0 {
		return page, 0, dbErr(err)
	}
	ix, err := t.catalogIndex(version)
	if err != nil {
		return nil, 0, dbErr(err)
	}
	ids, count := ix.Search(&q)
	if len(ids) == 0 {
		return page, count, nil
	}
	rows, err := t.q.Query(t.ctx, "SELECT id, doc FROM catalog_items WHERE account_id = $1 AND id = ANY($2)", t.id, ids)
	if err != nil {
		return nil, 0, dbErr(err)
	}
	byID, err := collectItems(rows)
	if err != nil {
		return nil, 0, dbErr(err)
	}
	for _, id := range ids { // the index's order
		if it, ok := byID[id]; ok {
			page = append(page, it)
		}
	}
	return page, count, nil
}

func collectItems(rows pgx.Rows) (map[int64]app.CatalogItem, error) {
	defer rows.Close()
	out := map[int64]app.CatalogItem{}
	for rows.Next() {
		var id int64
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		var it app.CatalogItem
		if err := json.Unmarshal(doc, &it); err != nil {
			return nil, fmt.Errorf("catalog item %d: %w", id, err)
		}
		out[id] = it
	}
	return out, rows.Err()
}

func (t *tx) CatalogChanges(cursor string, limit int) (app.CatalogChanges, error) {
	out := app.CatalogChanges{Cursor: cursor, Items: []app.CatalogItem{}, DeletedIDs: []int64{}}
	var after int64
	if cursor != "" {
		v, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || v < 0 {
			return out, app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	_, _, count, err := t.catalogMeta()
	if err != nil {
		return out, dbErr(err)
	}
	out.ItemCount = int(count)
	rows, err := t.q.Query(t.ctx, `SELECT id, doc, seq FROM catalog_items WHERE account_id = $1 AND seq > $2
		ORDER BY seq LIMIT $3`, t.id, after, limit+1)
	if err != nil {
		return out, dbErr(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, seq int64
		var doc []byte
		if err := rows.Scan(&id, &doc, &seq); err != nil {
			return out, dbErr(err)
		}
		if n == limit {
			out.HasMore = true
			break
		}
		n++
		if doc == nil {
			out.DeletedIDs = append(out.DeletedIDs, id)
		} else {
			var it app.CatalogItem
			if err := json.Unmarshal(doc, &it); err != nil {
				return out, fmt.Errorf("catalog item %d: %w", id, err)
			}
			out.Items = append(out.Items, it)
		}
		out.Cursor = strconv.FormatInt(seq, 10)
	}
	return out, dbErr(rows.Err())
}

// catalogWriter is one import's view of the account's catalog.
type catalogWriter struct {
	t          *tx
	seq, count int64
	now        app.Time
	ids        []int64 // IDs allocated ahead, a batch at a time
}

func (t *tx) ImportCatalog(mode app.CatalogImportMode, rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) error {
	version, seq, count, err := t.catalogMeta()
	if err != nil {
		return dbErr(err)
	}
	w := &catalogWriter{t: t, seq: seq, count: count, now: app.At(t.s.cfg.now())}
	if err := store.ImportCatalog(w, mode, int(count), w.now, rows, report); err != nil {
		return err
	}
	// A new version for every import: replicas rebuild their index.
	var next int64
	if err := t.q.QueryRow(t.ctx, "SELECT nextval('ids')").Scan(&next); err != nil {
		return dbErr(err)
	}
	if next <= version {
		next = version + 1
	}
	_, err = t.q.Exec(t.ctx, `INSERT INTO catalog_meta (account_id, version, seq, count) VALUES ($1, $2, $3, $4)
		ON CONFLICT (account_id) DO UPDATE SET version = $2, seq = $3, count = $4`, t.id, next, w.seq, max(w.count, 0))
	return dbErr(err)
}

var _ store.CatalogWriter = (*catalogWriter)(nil)

// ItemIDs lists the items the catalog holds (store.CatalogWriter).
func (w *catalogWriter) ItemIDs(fn func(id int64)) error {
	t := w.t
	rows, err := t.q.Query(t.ctx, "SELECT id FROM catalog_items WHERE account_id = $1 AND doc IS NOT NULL", t.id)
	if err != nil {
		return dbErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return dbErr(err)
		}
		fn(id)
	}
	return dbErr(rows.Err())
}

// RemoveItems removes the items, each leaving its ID in the changes feed
// (store.CatalogWriter).
func (w *catalogWriter) RemoveItems(ids []int64, report *app.CatalogImportReport) error {
	t := w.t
	// The report names the first items removed, as they were.
	named, err := t.q.Query(t.ctx, "SELECT id, doc FROM catalog_items WHERE account_id = $1 AND id = ANY($2)",
		t.id, ids[:min(len(ids), app.MaxReportedRows)])
	if err != nil {
		return dbErr(err)
	}
	byID, err := collectItems(named)
	if err != nil {
		return dbErr(err)
	}
	for _, id := range ids {
		w.seq++
		if _, err := t.q.Exec(t.ctx, "UPDATE catalog_items SET key = NULL, doc = NULL, seq = $3 WHERE account_id = $1 AND id = $2",
			t.id, id, w.seq); err != nil {
			return fmt.Errorf("remove catalog item %d: %w", id, dbErr(err))
		}
		w.count--
		it := byID[id]
		it.ID = id
		report.NoteRemoved(&it)
	}
	return nil
}

// ItemByKey finds the item with the key (store.CatalogWriter).
func (w *catalogWriter) ItemByKey(key string) (app.CatalogItem, bool, error) {
	t := w.t
	var it app.CatalogItem
	var doc []byte
	err := t.q.QueryRow(t.ctx, "SELECT id, doc FROM catalog_items WHERE account_id = $1 AND key = $2", t.id, key).Scan(&it.ID, &doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.CatalogItem{}, false, nil
	}
	if err != nil {
		return app.CatalogItem{}, false, dbErr(err)
	}
	if err := json.Unmarshal(doc, &it); err != nil {
		return app.CatalogItem{}, false, fmt.Errorf("catalog item %d: %w", it.ID, err)
	}
	return it, true, nil
}

// AddItem stores a new item (store.CatalogWriter).
func (w *catalogWriter) AddItem(key string, it app.CatalogItem) (int64, error) {
	var err error
	if it.ID, err = w.nextID(); err != nil {
		return 0, dbErr(err)
	}
	if err := w.t.claim(it.ID, "catalog item"); err != nil {
		return 0, dbErr(err)
	}
	w.count++
	return it.ID, w.put(key, it)
}

// UpdateItem stores an item again (store.CatalogWriter).
func (w *catalogWriter) UpdateItem(key string, it app.CatalogItem) error { return w.put(key, it) }

// put writes an item under its key at the next feed position.
func (w *catalogWriter) put(key string, it app.CatalogItem) error {
	t := w.t
	doc, err := json.Marshal(&it)
	if err != nil {
		return fmt.Errorf("encode catalog item: %w", err)
	}
	w.seq++
	_, err = t.q.Exec(t.ctx, `INSERT INTO catalog_items (account_id, id, key, doc, seq) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (account_id, id) DO UPDATE SET key = $3, doc = $4, seq = $5`, t.id, it.ID, key, doc, w.seq)
	if err != nil && strings.Contains(err.Error(), "catalog_items_key") {
		return fmt.Errorf("two rows of the import are the same item (%s)", key)
	}
	return dbErr(err)
}

// nextID hands out IDs from the shared sequence, fetched a batch at a
// time (an import of many rows would otherwise pay a round trip each).
func (w *catalogWriter) nextID() (int64, error) {
	if len(w.ids) == 0 {
		rows, err := w.t.q.Query(w.t.ctx, "SELECT nextval('ids') FROM generate_series(1, 256)")
		if err != nil {
			return 0, err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return 0, err
		}
		w.ids = ids
	}
	id := w.ids[0]
	w.ids = w.ids[1:]
	return id, nil
}

// CategoryID finds or allocates the ID of a category (store.CatalogWriter).
func (w *catalogWriter) CategoryID(key string) (int64, error) {
	var id int64
	err := w.t.q.QueryRow(w.t.ctx, "SELECT id FROM catalog_categories WHERE account_id = $1 AND name = $2", w.t.id, key).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return 0, dbErr(err)
	}
	if id, err = w.nextID(); err != nil {
		return 0, dbErr(err)
	}
	_, err = w.t.q.Exec(w.t.ctx, "INSERT INTO catalog_categories (account_id, name, id) VALUES ($1, $2, $3)", w.t.id, key, id)
	return id, dbErr(err)
}
