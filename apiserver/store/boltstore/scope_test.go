package boltstore

import (
	"bytes"
	"fmt"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// dump is every key and value of the file but the ID sequence, to check
// that a failed write changed nothing.
func dump(t testing.TB, s *Store) string {
	t.Helper()
	var buf bytes.Buffer
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		fmt.Fprintf(&buf, "%s seq=%d\n", prefix, b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+"/"+fmt.Sprintf("%x", k), b.Bucket(k))
			}
			fmt.Fprintf(&buf, "%s/%x=%x\n", prefix, k, v)
			return nil
		})
	}
	err := s.db.View(func(btx *bolt.Tx) error {
		return btx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name), b) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
