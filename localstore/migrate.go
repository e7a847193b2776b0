package localstore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A migration moves the file from version i to i+1 (migrations[i]). Each
// runs in the transaction that also records the new version, so a crash
// leaves the file at the old version or the new one, never between.
// Migrations are append-only: a released one is never edited.
var migrations = []func(tx *bolt.Tx) error{
	migrate0to1,
	migrate1to2,
	migrate2to3, // catalog.go
	migrate3to4, // servercopies.go
	// 4 to 5: a record may say its local view is the server copy
	// (Record.LocalIsServer); the records already written stay valid,
	// and the new version keeps an older program from misreading it.
	func(*bolt.Tx) error { return nil },
	migrate5to6, // unsendable.go
}

// migrate0to1 creates the first layout.
func migrate0to1(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketMeta, bucketProposals, bucketList, bucketOutbox, bucketCreators,
		bucketContacts, bucketLocations, bucketContactLocations, bucketUsers} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	return nil
}

// migrate1to2 adds the settings bucket and the outbox's per-proposal
// index, filled from the entries already queued.
func migrate1to2(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketSettings); err != nil {
		return err
	}
	idx, err := tx.CreateBucketIfNotExists(bucketOutboxByProposal)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		var e struct {
			ProposalID int64 `json:"proposalId"`
		}
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("outbox entry %d: %w", keySeq(k), err)
		}
		if e.ProposalID == 0 {
			return nil // a contact or location entry
		}
		return idx.Put(pairKey(e.ProposalID, keySeq(k)), nil)
	})
}

// schemaVersion reads the file's version; 0 for a new file.
func schemaVersion(tx *bolt.Tx) uint64 {
	b := tx.Bucket(bucketMeta)
	if b == nil {
		return 0
	}
	v := b.Get(keySchema)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

// migrate brings the file up to target, one numbered step per
// transaction. A file newer than this code is refused, never
// downgraded.
func migrate(db *bolt.DB, target int) error {
	for {
		var done bool
		err := db.Update(func(tx *bolt.Tx) error {
			v := schemaVersion(tx)
			if v > uint64(len(migrations)) || v > uint64(SchemaVersion) {
				return fmt.Errorf("%w: the file is at schema version %d, this program knows %d", ErrTooNew, v, SchemaVersion)
			}
			if v >= uint64(target) {
				done = true
				return nil
			}
			if err := migrations[v](tx); err != nil {
				return fmt.Errorf("migrate schema %d to %d: %w", v, v+1, err)
			}
			return tx.Bucket(bucketMeta).Put(keySchema, seqKey(v+1))
		})
		if err != nil || done {
			return err
		}
	}
}
