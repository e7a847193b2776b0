package localstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// Migrating to schema 4 moves the v1 fixture's server copy out of its
// record, byte for byte, and keeps the offline record (no server copy)
// without one.
func TestMigrate3to4MovesServerCopies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk.db")
	copyFile(t, v1Fixture, path)
	// The server copies as schema 1 to 3 kept them, inside the record.
	want := map[int64]string{}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketProposals).ForEach(func(k, v []byte) error {
			var f map[string]json.RawMessage
			if err := json.Unmarshal(v, &f); err != nil {
				t.Fatal(err)
			}
			want[keyID(k)] = string(f["server"])
			return nil
		})
	})
	db.Close()
	if len(want) != 2 || want[-1] != "null" || len(want[1001]) < 100 {
		t.Fatalf("fixture's records: %v", want)
	}

	s := openStore(t, path)
	s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketProposals).ForEach(func(k, v []byte) error {
			var f map[string]json.RawMessage
			if err := json.Unmarshal(v, &f); err != nil {
				t.Fatal(err)
			}
			if _, has := f["server"]; has {
				t.Errorf("record %d still holds its server copy", keyID(k))
			}
			got := tx.Bucket(bucketServerCopies).Get(k)
			switch id := keyID(k); {
			case want[id] == "null" && got != nil:
				t.Errorf("record %d got a server copy %s", id, got)
			case want[id] != "null" && string(got) != want[id]:
				t.Errorf("record %d server copy\n got %s\nwant %s", id, got, want[id])
			}
			return nil
		})
	})
	for id, w := range want {
		rec, err := s.Record(id)
		if err != nil {
			t.Fatal(err)
		}
		if (rec.Server == nil) != (w == "null") || rec.Local == nil {
			t.Errorf("record %d after migration: server %v local %v", id, rec.Server != nil, rec.Local != nil)
		}
	}
}

// encodeRecord writes what json.Marshal writes for the record without
// its server copy, for records with and without a local view and with
// conflicts after it.
func TestEncodeRecordMatchesMarshal(t *testing.T) {
	f := newFakeServer()
	p, err := f.apply(&app.CreateProposal{SalesPersonID: sales.ID, Name: strp(`Lake "house" <b>`)}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	p, err = f.apply(&app.CreateArea{ID: p.ID, Name: "Room"}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Record{
		{ID: p.ID, Server: p, Local: p, BaseVersion: 3},
		{ID: -4, Local: p, ReadOnly: true, NeedsServerCopy: true,
			Conflicts: []Conflict{{Field: "name", Base: "a", Mine: `"local":null`, Theirs: "c"}}},
		{ID: 9},
	} {
		got, err := encodeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		rest := *r
		rest.Server = nil
		want, err := json.Marshal(&rest)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("record %d:\n got %s\nwant %s", r.ID, got, want)
		}
	}
}

// A record read from the file while an edit commits is not cached: the
// next read has the edit.
func TestRecordReadDuringEditNotCached(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Job")
	s.recs = map[int64]*Record{} // as after a start
	s.afterRead = func() {
		s.afterRead = nil
		if _, err := s.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "edited"}, envAt(1, sales)); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := s.Record(p.ID); err != nil || r.Local.ProjectDescription == "edited" {
		t.Fatalf("first read %v: %q", err, r.Local.ProjectDescription)
	}
	if r, err := s.Record(p.ID); err != nil || r.Local.ProjectDescription != "edited" {
		t.Fatalf("read after the edit %v: %q", err, r.Local.ProjectDescription)
	}
}

// Store.Record serves decoded records from the cache, and a reader
// racing writers never leaves a stale record there: after concurrent
// edits and reads of more proposals than the cache holds, every record
// equals what the file holds (read again after a reopen).
func TestRecordCacheNeverStale(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	var ids []int64
	for i := range maxCachedRecords + 3 {
		ids = append(ids, pulled(t, s, f, fmt.Sprintf("Job %d", i)).ID)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if _, err := s.Record(ids[(i*7+r)%len(ids)]); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 60 {
		id := ids[i%len(ids)]
		if _, err := s.Edit(ctx, id, &app.SetDescription{ID: id, Description: fmt.Sprint("edit ", i)}, envAt(i, sales)); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	cached := map[int64]string{}
	for _, id := range ids {
		r, err := s.Record(id)
		if err != nil {
			t.Fatal(err)
		}
		cached[id] = r.Local.ProjectDescription
	}
	s = reopen(t, s)
	for _, id := range ids {
		r, err := s.Record(id)
		if err != nil {
			t.Fatal(err)
		}
		if cached[id] != r.Local.ProjectDescription || !strings.HasPrefix(r.Local.ProjectDescription, "edit ") {
			t.Errorf("proposal %d: cached %q, file %q", id, cached[id], r.Local.ProjectDescription)
		}
	}
}

// A server copy given with its JSON is stored as those bytes (not
// encoded again), and reads back, after a reopen, as the copy.
func TestPutServerCopyJSONStoresTheBytes(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p, err := f.apply(&app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Lake house")}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = f.apply(&app.CreateArea{ID: p.ID, Name: "Room"}, t0, sales); err != nil {
		t.Fatal(err)
	}
	want, err := p.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	// Another encoding of the same proposal (PostgreSQL's text of a
	// jsonb column has spaces too).
	var raw bytes.Buffer
	if err := json.Indent(&raw, want, "", " "); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyPull(ctx, func(tx *PullTx) error { return tx.PutServerCopyJSON(p, raw.Bytes()) }); err != nil {
		t.Fatal(err)
	}
	s.db.View(func(tx *bolt.Tx) error {
		if got := tx.Bucket(bucketServerCopies).Get(idKey(p.ID)); !bytes.Equal(got, raw.Bytes()) {
			t.Errorf("stored server copy\n got %s\nwant %s", got, raw.Bytes())
		}
		return nil
	})
	s = reopen(t, s)
	rec, err := s.Record(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for name, q := range map[string]*app.Proposal{"server": rec.Server, "local": rec.Local} {
		if got, _ := q.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("%s copy read back\n got %s\nwant %s", name, got, want)
		}
	}
}
