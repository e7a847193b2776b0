// Package legacytest writes into a closed local store file what older
// versions of the desktop queued and could never send (an edit of
// proposal 0 and the phantom record it made), so that the tests of the
// sync engine and the desktop can check what the current code makes of
// such a file. It writes the buckets directly, as those versions did
// (localstore/schema.go), so no check of the current code stands in
// the way.
package legacytest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

var (
	bucketProposals        = []byte("proposals")
	bucketList             = []byte("list")
	bucketOutbox           = []byte("outbox")
	bucketCreators         = []byte("creators")
	bucketOutboxByProposal = []byte("outboxByProposal")
)

func key(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// AddEdit queues m for proposal pid (0 for the phantom) as pending,
// after everything queued, and returns its seq. dependsOn are the
// entries it waits for; the temporary IDs m creates are recorded as
// its. A proposal-0 entry gets no row in the per-proposal index, as
// older versions wrote it.
func AddEdit(path string, pid int64, m app.Mutation, actor app.User, dependsOn ...uint64) (uint64, error) {
	raw, err := app.EncodeMutation(m)
	if err != nil {
		return 0, err
	}
	var seq uint64
	err = update(path, func(tx *bolt.Tx) error {
		ob := tx.Bucket(bucketOutbox)
		if seq, err = ob.NextSequence(); err != nil {
			return err
		}
		e := localstore.Entry{Seq: seq, Kind: localstore.EntryProposal, ProposalID: pid, Mutation: raw,
			IdempotencyKey: fmt.Sprintf("legacy-%016x", seq), State: localstore.StatePending,
			Created: time.Now().UTC(), Actor: actor, DependsOn: dependsOn}
		data, err := json.Marshal(&e)
		if err != nil {
			return err
		}
		if err := ob.Put(key(seq), data); err != nil {
			return err
		}
		for _, id := range app.CreatedIDs(m) {
			if err := tx.Bucket(bucketCreators).Put(key(uint64(id)), key(seq)); err != nil {
				return err
			}
		}
		if pid == 0 {
			return nil
		}
		return tx.Bucket(bucketOutboxByProposal).Put(append(key(uint64(pid)), key(seq)...), nil)
	})
	return seq, err
}

// AddPhantom writes the record and list row of proposal 0 that an edit
// naming it made: a name, nothing else, one edit pending.
func AddPhantom(path, name string) error {
	p := &app.Proposal{}
	p.Name = name
	rec, err := json.Marshal(localstore.Record{ID: 0, Local: p})
	if err != nil {
		return err
	}
	row, err := json.Marshal(localstore.ListItem{ListEntry: app.EntryOf(p), Badges: localstore.Badges{Pending: 1}})
	if err != nil {
		return err
	}
	return update(path, func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketProposals).Put(key(0), rec); err != nil {
			return err
		}
		return tx.Bucket(bucketList).Put(key(0), row)
	})
}

func update(path string, fn func(tx *bolt.Tx) error) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("legacytest: open %s (close the store first): %w", path, err)
	}
	if err := db.Update(fn); err != nil {
		db.Close()
		return fmt.Errorf("legacytest: %s: %w", path, err)
	}
	return db.Close()
}
