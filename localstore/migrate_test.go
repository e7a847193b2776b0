package localstore

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

var updateFixture = flag.Bool("update-fixture", false, "rewrite testdata/v1.db with the schema-1 fixture generator")

const v1Fixture = "testdata/v1.db"

// writeV1Fixture writes a store as schema version 1 laid it out: no
// settings bucket and no per-proposal outbox index. It writes the
// buckets directly, as the version-1 code did, so later code cannot
// leak version-2 data into it.
func writeV1Fixture(t *testing.T, path string) {
	os.Remove(path)
	s, err := OpenWith(path, Options{schema: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := newFakeServer()
	p, err := f.apply(&app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Fixture house")}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	desc := &app.SetDescription{ID: p.ID, Description: "queued before the upgrade"}
	local, err := app.Apply(p, desc, f.env(t0, sales))
	if err != nil {
		t.Fatal(err)
	}
	off := &app.CreateProposal{ID: -1, SalesPersonID: sales.ID, Name: strp("Offline fixture")}
	offLocal, err := app.Apply(nil, off, f.env(t0, sales))
	if err != nil {
		t.Fatal(err)
	}
	enc := func(m app.Mutation) []byte {
		b, err := app.EncodeMutation(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		put := func(b []byte, k []byte, v any) {
			if err == nil {
				err = putJSON(tx.Bucket(b), k, v)
			}
		}
		meta := tx.Bucket(bucketMeta)
		meta.SetSequence(1) // temporary ID -1 is taken
		meta.Put(keyStoreID, []byte("store-1"))
		meta.Put(keyCursor, []byte("c7"))
		put(bucketMeta, keyAccount, account)
		for _, u := range []app.User{sales, sales2, viewer} {
			put(bucketUsers, idKey(u.ID), u)
		}
		put(bucketContacts, idKey(acme.ID), acme)
		for _, l := range []app.ContactLocation{acmeHQ, acmeLake} {
			put(bucketLocations, idKey(l.ID), l)
			tx.Bucket(bucketContactLocations).Put(pairKey(l.ContactID, uint64(l.ID)), nil)
		}
		r1 := &Record{ID: p.ID, Server: p, Local: local, BaseVersion: p.Version}
		r2 := &Record{ID: -1, Local: offLocal}
		put(bucketProposals, idKey(r1.ID), r1)
		put(bucketProposals, idKey(r2.ID), r2)
		put(bucketList, idKey(r1.ID), itemOf(r1, Badges{Pending: 1}))
		put(bucketList, idKey(r2.ID), itemOf(r2, Badges{Pending: 1}))
		ob := tx.Bucket(bucketOutbox)
		ob.SetSequence(2)
		put(bucketOutbox, seqKey(1), &Entry{Seq: 1, Kind: EntryProposal, ProposalID: p.ID, Mutation: enc(desc),
			IdempotencyKey: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", BaseVersion: p.Version, State: StatePending,
			Created: t0, Actor: sales})
		put(bucketOutbox, seqKey(2), &Entry{Seq: 2, Kind: EntryProposal, ProposalID: -1, Mutation: enc(off),
			IdempotencyKey: "00112233445566778899aabbccddeeff", State: StatePending, Created: t0, Actor: sales})
		tx.Bucket(bucketCreators).Put(idKey(-1), seqKey(2))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestWriteV1Fixture(t *testing.T) {
	if !*updateFixture {
		t.Skip("run with -update-fixture to rewrite " + v1Fixture)
	}
	writeV1Fixture(t, v1Fixture)
}

// A store written by schema 1 opens, migrates to 2, and works: the
// outbox index is built from the queued entries.
func TestMigrateFromV1Fixture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk.db")
	copyFile(t, v1Fixture, path)
	var before uint64
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *bolt.Tx) error {
		before = schemaVersion(tx)
		if tx.Bucket(bucketSettings) != nil || tx.Bucket(bucketOutboxByProposal) != nil {
			t.Error("fixture already has version-2 buckets")
		}
		return nil
	})
	db.Close()
	if before != 1 {
		t.Fatalf("fixture is at version %d", before)
	}

	s := openStore(t, path)
	s.db.View(func(tx *bolt.Tx) error {
		if v := schemaVersion(tx); v != SchemaVersion {
			t.Errorf("schema %d after open", v)
		}
		return nil
	})
	if id, cur, _ := s.Cursor(); id != "store-1" || cur != "c7" {
		t.Errorf("cursor %s %s", id, cur)
	}
	if _, n, _ := s.Search(app.DefaultListQuery()); n != 2 {
		t.Errorf("list has %d proposals", n)
	}
	pend, err := s.Pending(0)
	if err != nil || len(pend) != 2 {
		t.Fatalf("pending %v %v", pend, err)
	}
	// The index works: acknowledging replays through it.
	rec, _ := s.Record(pend[0].ProposalID)
	srv, err := app.Apply(rec.Server, pend[0].decodeT(t), newFakeServer().env(t0, sales))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ack(ctx, pend[0].Seq, srv); err != nil {
		t.Fatal(err)
	}
	if it, _ := s.Item(srv.ID); it.Pending != 0 {
		t.Errorf("badges after ack %+v", it.Badges)
	}
	// New temporary IDs do not collide with the fixture's.
	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID}, envAt(1, sales))
	if err != nil || p.ID != -2 {
		t.Errorf("new offline proposal %d, %v", p.ID, err)
	}
	if err := s.UpdateSettings(ctx, func(st *Settings) { st.ServerURL = "https://x.test" }); err != nil {
		t.Error(err)
	}
	// Opening again runs no migration and keeps everything.
	s = reopen(t, s)
	if _, n, _ := s.Search(app.DefaultListQuery()); n != 3 {
		t.Errorf("after reopen %d proposals", n)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	s := openStore(t, "")
	path := s.Path()
	s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, seqKey(SchemaVersion+1)) })
	s.Close()
	if _, err := OpenWith(path, Options{}); err == nil || !errors.Is(err, ErrTooNew) {
		t.Fatalf("open: %v", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
