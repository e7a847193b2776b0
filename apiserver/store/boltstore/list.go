package boltstore

import (
	"fmt"
	"math"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store/decodecache"
	"proposaldesk/apiserver/store/listindex"
	"proposaldesk/app"
)

// keepSnaps is how many recent versions of an account's list index are
// kept, so a reader whose transaction began just before a commit still
// finds the version it sees.
const keepSnaps = 8

// loadEntries decodes the account's whole index bucket.
func loadEntries(ab *bolt.Bucket) ([]app.ListEntry, error) {
	var entries []app.ListEntry
	err := ab.Bucket(bIndex).ForEach(func(k, v []byte) error {
		var e app.ListEntry
		if err := decode(v, &e); err != nil {
			return fmt.Errorf("list entry %d: %w", keyID(k), err)
		}
		entries = append(entries, e)
		return nil
	})
	return entries, err
}

// listSnap returns the account's list index as this transaction sees it.
func (t *tx) listSnap() (*listindex.Snap, error) {
	if ov := t.g.overlayOf(t.id); ov != nil {
		// A write that changed proposals: the index it began with plus
		// the group's writes; never published.
		if sn, ok := t.s.snaps.At(t.id, ov.base); ok {
			return sn.With(ov.entries, 0, math.MaxInt), nil
		}
		entries, err := loadEntries(t.ab)
		return listindex.New(entries, 0), err
	}
	if sn, ok := t.s.snaps.At(t.id, t.baseW); ok {
		return sn, nil
	}
	if t.btx.Writable() {
		entries, err := loadEntries(t.ab)
		return listindex.New(entries, t.baseW), err
	}
	return t.s.snaps.Load(t.id, t.baseW, func() (*listindex.Snap, error) {
		entries, err := loadEntries(t.ab)
		return listindex.New(entries, t.baseW), err
	})
}

// List answers a list query with app.ListQuery.Select's semantics from the
// list index (never decoding proposals), then reads only the page's rows.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	return listRows(t, q, t.s.decoded.rows)
}

// ListJSON is List with the rows encoded, each encoded once per version.
func (t *tx) ListJSON(q app.ListQuery) ([][]byte, int, error) {
	rows, count, err := listRows(t, q, t.s.decoded.rowJSON)
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, count, err
}

// listRows answers q and reads the page's rows through cache.
func listRows[T any](t *tx, q app.ListQuery, cache *decodecache.Cache[T]) ([]T, int, error) {
	sn, err := t.listSnap()
	if err != nil {
		return nil, 0, err
	}
	page, count := sn.Query(&q)
	items := make([]T, 0, len(page))
	rows := t.b(bRows)
	for _, e := range page {
		item, err := cache.Decode(strconv.FormatInt(e.ID, 10), rows.Get(idKey(e.ID)))
		if err != nil {
			return nil, 0, fmt.Errorf("list row %d: %w", e.ID, err)
		}
		items = append(items, item)
	}
	return items, count, nil
}
