package boltstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"iter"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// A large catalog import is staged: one bbolt transaction holds every
// page it dirties in memory until it commits, so a 100,000-row import in
// one transaction grew the server by over 200 MB. Instead the import
// writes a copy of the account's catalog with its rows applied, a chunk
// of rows per transaction, under
//
//	accounts/<id>/catalogStaging/<random name>/catalog
//
// which nothing reads, then publishes it in one small transaction that
// moves it in place of accounts/<id>/catalog (a bucket move relinks its
// root page). Readers see the old catalog or the new one, never a part.
// A failure deletes the staging copy; a crash leaves it to Open, which
// deletes every staging copy (no import runs then). Another import
// published meanwhile fails this one with nothing applied.

var bCatStaging = []byte("catalogStaging")

// ImportChunk is how many rows (or copied keys) one transaction of a
// staged import writes: memory is bounded by a chunk, not the file.
var ImportChunk = 5000

// errCatalogMoved: the live catalog changed while an import was staged.
var errCatalogMoved = app.Errorf(app.KindPreconditionFailed,
	"Another catalog import finished while this one was being applied; nothing of this one was imported. Run it again.")

var _ store.StagedCatalogImporter = (*Store)(nil)

// ImportCatalogStaged applies n checked rows to the account's catalog as
// Tx.ImportCatalog does, all or nothing, in transactions of ImportChunk
// rows (store.StagedCatalogImporter). rows is read once. An import that
// writes at most ImportChunk items runs in one transaction, as before:
// copying a large catalog for a few rows would cost more than it saves.
func (s *Store) ImportCatalogStaged(ctx context.Context, accountID int64, mode app.CatalogImportMode, n int,
	rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) (err error) {
	if n <= ImportChunk {
		var live int
		err := s.View(ctx, accountID, func(stx store.Tx) error {
			if cb := stx.(*tx).b(bCatalog); cb != nil {
				live = int(u64At(cb, kCatCount))
			}
			return nil
		})
		if err != nil {
			return err
		}
		if mode == app.CatalogMerge || live <= ImportChunk {
			counts := *report
			err := s.Update(ctx, accountID, func(stx store.Tx) error {
				counts = *report // a rerun starts again
				return stx.ImportCatalog(mode, rows, &counts)
			})
			if err == nil {
				*report = counts
			}
			return err
		}
	}
	var name [8]byte
	rand.Read(name[:])
	st := &staging{s: s, ctx: ctx, acct: accountID, name: []byte(hex.EncodeToString(name[:]))}
	defer func() {
		if err != nil {
			// The copy is garbage: drop it (Open would, after a crash),
			// even when ctx ended.
			st.ctx = context.WithoutCancel(ctx)
			st.update(func(t *tx) error { return st.drop(t) })
		}
	}()
	if err := st.copyLive(); err != nil {
		return err
	}
	seen := map[int64]struct{}{}
	var chunk []app.CatalogRow
	apply := func() error {
		var counts app.CatalogImportReport
		err := st.update(func(t *tx) error {
			counts = app.CatalogImportReport{} // a rerun starts again
			w, err := st.writer(t)
			if err != nil {
				return err
			}
			for _, row := range chunk {
				id, err := store.UpsertCatalogRow(w, row, w.now, &counts)
				if err != nil {
					return fmt.Errorf("import line %d: %w", row.Line, err)
				}
				if mode == app.CatalogReplace {
					seen[id] = struct{}{}
				}
			}
			return w.flush()
		})
		report.Added += counts.Added
		report.Updated += counts.Updated
		report.Unchanged += counts.Unchanged
		chunk = chunk[:0]
		return err
	}
	for row, err := range store.PackagesLast(rows) {
		if err != nil {
			return err
		}
		if chunk = append(chunk, row); len(chunk) >= ImportChunk {
			if err := apply(); err != nil {
				return err
			}
		}
	}
	if err := apply(); err != nil {
		return err
	}
	if mode == app.CatalogReplace {
		// The copy holds the catalog as it was and the rows' added items;
		// every item no row named goes.
		var count int
		if err := st.update(func(t *tx) error {
			w, err := st.writer(t)
			count = int(w.count)
			return err
		}); err != nil {
			return err
		}
		if err := app.CheckCatalogRemoval(report.ConfirmRemoval, count-report.Added, count-len(seen)); err != nil {
			return err
		}
		if err := st.removeUnseen(seen, report); err != nil {
			return err
		}
	}
	return st.publish()
}

// staging is one staged import's state between its transactions.
type staging struct {
	s    *Store
	ctx  context.Context
	acct int64
	name []byte
	// base is the live catalog's version when it was copied (0: none).
	base uint64
}

func (st *staging) update(fn func(t *tx) error) error {
	return st.s.Update(st.ctx, st.acct, func(stx store.Tx) error { return fn(stx.(*tx)) })
}

// dir is the staging copy's parent bucket (the catalog bucket's).
func (st *staging) dir(t *tx) (*bolt.Bucket, error) {
	all, err := t.ab.CreateBucketIfNotExists(bCatStaging)
	if err != nil {
		return nil, err
	}
	return all.CreateBucketIfNotExists(st.name)
}

func (st *staging) writer(t *tx) (*catalogWriter, error) {
	dir, err := st.dir(t)
	if err != nil {
		return nil, err
	}
	cb, err := dir.CreateBucketIfNotExists(bCatalog)
	if err != nil {
		return nil, err
	}
	return t.catalogWriterOn(cb)
}

func (st *staging) drop(t *tx) error {
	all := t.ab.Bucket(bCatStaging)
	if all == nil || all.Bucket(st.name) == nil {
		return nil
	}
	t.wrote = true
	return all.DeleteBucket(st.name)
}

// copyLive copies the live catalog into the staging copy, ImportChunk
// keys per transaction: each sub-bucket with its sequence, and the
// version and count.
func (st *staging) copyLive() error {
	copied := false // the first transaction notes the live version
	for _, sub := range [][]byte{bCatItems, bCatKeys, bCatCats, bCatFeed, bCatAt} {
		var after []byte // the last key copied
		for done := false; !done; {
			from := after // a rerun of the transaction starts here again
			err := st.update(func(t *tx) error {
				w, err := st.writer(t) // creates the copy's buckets
				if err != nil {
					return err
				}
				live := t.b(bCatalog)
				if live == nil {
					done = true
					return nil
				}
				if !copied {
					st.base = u64At(live, kCatVersion)
					if err := w.cb.Put(kCatCount, u64(u64At(live, kCatCount))); err != nil {
						return err
					}
				} else if u64At(live, kCatVersion) != st.base {
					return errCatalogMoved
				}
				src, dst := live.Bucket(sub), w.cb.Bucket(sub)
				if src == nil {
					done = true
					return nil
				}
				if err := dst.SetSequence(src.Sequence()); err != nil {
					return err
				}
				dst.FillPercent = 0.95 // appended in key order
				c := src.Cursor()
				k, v := c.First()
				if from != nil {
					if k, v = c.Seek(from); k != nil && bytes.Equal(k, from) {
						k, v = c.Next()
					}
				}
				for n := 0; k != nil && n < ImportChunk; k, v = c.Next() {
					if err := dst.Put(k, v); err != nil {
						return err
					}
					n++
					after = bytes.Clone(k)
				}
				done = k == nil
				return nil
			})
			if err != nil {
				return fmt.Errorf("stage catalog copy: %w", err)
			}
			copied = true
		}
	}
	return nil
}

// removeUnseen removes the copy's items no row named (Replace), a chunk
// per transaction.
func (st *staging) removeUnseen(seen map[int64]struct{}, report *app.CatalogImportReport) error {
	var after []byte
	for done := false; !done; {
		var removed app.CatalogImportReport
		from := after // a rerun of the transaction starts here again
		err := st.update(func(t *tx) error {
			removed = app.CatalogImportReport{}
			w, err := st.writer(t)
			if err != nil {
				return err
			}
			var doomed []int64
			c := w.items.Cursor()
			k, _ := c.First()
			if from != nil {
				k, _ = c.Seek(from)
			}
			for ; k != nil && len(doomed) < ImportChunk; k, _ = c.Next() {
				if _, ok := seen[keyID(k)]; !ok {
					doomed = append(doomed, keyID(k))
				}
			}
			if k != nil {
				after = bytes.Clone(k) // the first key not looked at
			}
			done = k == nil
			for _, id := range doomed {
				if err := w.remove(id, &removed); err != nil {
					return fmt.Errorf("remove catalog item %d: %w", id, err)
				}
			}
			return w.flush()
		})
		if err != nil {
			return err
		}
		report.Deleted += removed.Deleted
		report.Removed = append(report.Removed, removed.Removed[:min(len(removed.Removed), app.MaxReportedRows-len(report.Removed))]...)
	}
	return nil
}

// publish moves the staging copy in place of the live catalog, stamped
// with this transaction's version, unless the live one changed since it
// was copied.
func (st *staging) publish() error {
	return st.update(func(t *tx) error {
		live := t.b(bCatalog)
		var version uint64
		if live != nil {
			version = u64At(live, kCatVersion)
		}
		if version != st.base {
			return errCatalogMoved
		}
		dir, err := st.dir(t)
		if err != nil {
			return err
		}
		t.wrote = true
		if live != nil {
			if err := t.ab.DeleteBucket(bCatalog); err != nil {
				return err
			}
		}
		// The move relinks the copy as committed: nothing may be written
		// to it in this transaction before (bbolt would drop it), so the
		// version is stamped after.
		if err := t.btx.MoveBucket(bCatalog, dir, t.ab); err != nil {
			return fmt.Errorf("publish staged catalog: %w", err)
		}
		if err := t.ab.Bucket(bCatalog).Put(kCatVersion, u64(uint64(t.btx.ID()))); err != nil {
			return err
		}
		return st.drop(t)
	})
}

// dropStagedImports deletes what staged imports a crash left behind
// (Open runs it before any import can start).
func dropStagedImports(btx *bolt.Tx) error {
	accts := btx.Bucket(bAccounts)
	if accts == nil {
		return nil
	}
	var left [][]byte
	err := accts.ForEachBucket(func(k []byte) error {
		if accts.Bucket(k).Bucket(bCatStaging) != nil {
			left = append(left, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range left {
		if err := accts.Bucket(k).DeleteBucket(bCatStaging); err != nil {
			return fmt.Errorf("drop staged catalog imports of account %d: %w", keyID(k), err)
		}
	}
	return nil
}
