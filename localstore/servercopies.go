package localstore

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Schema 4 keeps each record's server copy in a bucket of its own:
//
//	serverCopies  proposal ID → app.Proposal (the record's Server)
//
// An edit changes only the local view; before, every edit of a big
// proposal encoded and wrote its unchanged server copy as well, which
// was half the cost of the edit.
var bucketServerCopies = []byte("serverCopies") // v4

// migrate3to4 moves each record's server copy out of the record. The
// copy's JSON is moved as it is, not decoded and encoded again.
func migrate3to4(tx *bolt.Tx) error {
	copies, err := tx.CreateBucketIfNotExists(bucketServerCopies)
	if err != nil {
		return err
	}
	recs := tx.Bucket(bucketProposals)
	type move struct{ key, rec, srv []byte }
	var moves []move
	err = recs.ForEach(func(k, v []byte) error {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(v, &fields); err != nil {
			return fmt.Errorf("proposal %d: %w", keyID(k), err)
		}
		srv, ok := fields["server"]
		delete(fields, "server")
		rec, err := json.Marshal(fields)
		if err != nil {
			return fmt.Errorf("proposal %d: %w", keyID(k), err)
		}
		m := move{key: append([]byte(nil), k...), rec: rec}
		if ok && string(srv) != "null" {
			m.srv = srv
		}
		moves = append(moves, m)
		return nil
	})
	if err != nil {
		return err
	}
	// Written after the walk: bbolt forbids changing a bucket under its
	// cursor.
	for _, m := range moves {
		if err := recs.Put(m.key, m.rec); err != nil {
			return err
		}
		if m.srv != nil {
			if err := copies.Put(m.key, m.srv); err != nil {
				return err
			}
		}
	}
	return nil
}
