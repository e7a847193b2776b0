package localstore

import (
	"encoding/json"
	"path/filepath"
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
