package localstore

import (
	"encoding/json"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
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
