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

// listState is an account's list index at one version, with each
// proposal's list row as the API sends it: a read-only list page is
// answered from memory (reading 25 rows from the file and checking them
// against the decode cache was a fifth of a list request).
type listState struct {
	idx  *listindex.Snap
	rows listindex.Layered[int64, []byte]
}

func (ls *listState) Version() uint64 { return ls.idx.Version() }

// with is ls moved to version w by a write group's overlay.
func (ls *listState) with(ov *acctOverlay, w uint64, deltaMin int) *listState {
	deltaMax := ls.idx.DeltaMax(deltaMin)
	return &listState{idx: ls.idx.With(ov.entries, w, deltaMax), rows: ls.rows.With(ov.rows, deltaMax)}
}

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

// loadList reads the account's index and list rows at version w.
func loadList(ab *bolt.Bucket, w uint64) (*listState, error) {
	entries, err := loadEntries(ab)
	if err != nil {
		return nil, err
	}
	rows := make(map[int64][]byte, len(entries))
	err = ab.Bucket(bRows).ForEach(func(k, v []byte) error {
		// Encoded as the API sends it, once here (a row stored by an
		// older version may differ in form).
		var row decodecache.RowJSON
		if err := decode(v, &row); err != nil {
			return fmt.Errorf("list row %d: %w", keyID(k), err)
		}
		rows[keyID(k)] = row
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &listState{idx: listindex.New(entries, w), rows: listindex.NewLayered(rows)}, nil
}

// listSnap returns the account's list index as this transaction sees it.
func (t *tx) listSnap() (*listindex.Snap, error) {
	if ov := t.g.overlayOf(t.id); ov != nil {
		// A write that changed proposals: the index it began with plus
		// the group's writes; never published.
		if ls, ok := t.s.snaps.At(t.id, ov.base); ok {
			return ls.idx.With(ov.entries, listindex.Private, math.MaxInt), nil
		}
		entries, err := loadEntries(t.ab)
		return listindex.New(entries, listindex.Private), err
	}
	if t.btx.Writable() {
		if ls, ok := t.s.snaps.At(t.id, t.baseW); ok {
			return ls.idx, nil
		}
		entries, err := loadEntries(t.ab)
		return listindex.New(entries, t.baseW), err
	}
	ls, err := t.heldList()
	if err != nil {
		return nil, err
	}
	return ls.idx, nil
}

// heldList is the account's list state at the version a read-only
// transaction sees, loaded once for all readers when not held.
func (t *tx) heldList() (*listState, error) {
	if ls, ok := t.s.snaps.At(t.id, t.baseW); ok {
		return ls, nil
	}
	return t.s.snaps.Load(t.id, t.baseW, func() (*listState, error) {
		return loadList(t.ab, t.baseW)
	})
}

// List answers a list query with app.ListQuery.Select's semantics from the
// list index (never decoding proposals), then reads only the page's rows.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	return listRows(t, q, t.s.decoded.rows)
}

// ListJSON is List with the rows encoded, each encoded once per version:
// a read-only transaction finds them beside the index.
func (t *tx) ListJSON(q app.ListQuery) ([][]byte, int, error) {
	if t.btx.Writable() {
		rows, count, err := listRows(t, q, t.s.decoded.rowJSON)
		out := make([][]byte, len(rows))
		for i, r := range rows {
			out[i] = r
		}
		return out, count, err
	}
	ls, err := t.heldList()
	if err != nil {
		return nil, 0, err
	}
	page, count := ls.idx.Query(&q)
	out := make([][]byte, len(page))
	for i, e := range page {
		row, ok := ls.rows.Get(e.ID)
		if !ok {
			return nil, 0, fmt.Errorf("list row %d: not beside the index at version %d", e.ID, ls.Version())
		}
		out[i] = row
	}
	return out, count, nil
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
