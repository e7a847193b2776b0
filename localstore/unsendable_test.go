package localstore

import (
	"encoding/json"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// A schema-5 file holding what older versions queued and could never
// send (a rename of proposal 0 with its phantom "#0" record; an edit
// that does not decode, with an edit depending on it) opens repaired:
// those entries are failed with a reason in words, the one depending
// on them waits behind it, the rest is pending as before; discarding
// removes them, the phantom record and the dependent with them.
func TestOpenRepairsUnsendableEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk.db")
	old, err := OpenWith(path, Options{schema: 5})
	if err != nil {
		t.Fatal(err)
	}
	seed(t, old)
	f := newFakeServer()
	p := pulled(t, old, f, "Lake house")
	if _, err := old.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "Still goes"}, envAt(1, sales)); err != nil {
		t.Fatal(err)
	}
	rename, err := app.EncodeMutation(&app.UpdateProposal{Name: strp("Copy of Lake house, renamed")})
	if err != nil {
		t.Fatal(err)
	}
	unreadable, _ := json.Marshal(map[string]any{"kind": "setMood", "mutation": map[string]any{"ProposalId": p.ID}})
	dependent, err := app.EncodeMutation(&app.SetOptionClientDescription{ID: p.ID, OptionID: -7, ClientDescription: "Waits"})
	if err != nil {
		t.Fatal(err)
	}
	var phantomSeq, unreadableSeq, dependentSeq uint64
	// Written as the schema-5 code did: a proposal-0 entry has no row
	// in the per-proposal index.
	err = old.db.Update(func(tx *bolt.Tx) error {
		ob := tx.Bucket(bucketOutbox)
		add := func(e *Entry) uint64 {
			e.Seq, _ = ob.NextSequence()
			e.Kind, e.State, e.Created, e.Actor = EntryProposal, StatePending, t0, sales
			e.IdempotencyKey = "key-" + string(rune('a'+e.Seq))
			if err == nil {
				err = putJSON(ob, seqKey(e.Seq), e)
			}
			if err == nil && e.ProposalID != 0 {
				err = tx.Bucket(bucketOutboxByProposal).Put(pairKey(e.ProposalID, e.Seq), nil)
			}
			return e.Seq
		}
		phantomSeq = add(&Entry{ProposalID: 0, Mutation: rename})
		unreadableSeq = add(&Entry{ProposalID: p.ID, Mutation: unreadable, BaseVersion: p.Version})
		dependentSeq = add(&Entry{ProposalID: p.ID, Mutation: dependent, BaseVersion: p.Version, DependsOn: []uint64{unreadableSeq}})
		if err == nil {
			err = tx.Bucket(bucketCreators).Put(idKey(-7), seqKey(unreadableSeq))
		}
		ghost := &Record{ID: 0, Local: &app.Proposal{}}
		ghost.Local.Name = "Copy of Lake house, renamed"
		if err == nil {
			err = putJSON(tx.Bucket(bucketProposals), idKey(0), ghost)
		}
		if err == nil {
			err = putJSON(tx.Bucket(bucketList), idKey(0), itemOf(ghost, Badges{Pending: 1}))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	s := openStore(t, path)
	all, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	bySeq := map[uint64]Entry{}
	for _, e := range all {
		bySeq[e.Seq] = e
	}
	if e := bySeq[phantomSeq]; e.State != StateFailed || !e.Unsendable || e.ErrorMessage != ReasonNoProposal {
		t.Errorf("rename of proposal 0 after open: %+v", e)
	}
	if e := bySeq[unreadableSeq]; e.State != StateFailed || !e.Unsendable || e.ErrorMessage != ReasonUnreadable {
		t.Errorf("unreadable edit after open: %+v", e)
	}
	if e := bySeq[dependentSeq]; e.State != StatePending || !e.Blocked || e.BlockedBy != unreadableSeq {
		t.Errorf("edit depending on the unreadable one: %+v", e)
	}
	pend, err := s.Pending(0)
	if err != nil || len(pend) != 2 || pend[0].Blocked || pend[0].Unsendable {
		t.Fatalf("pending after open: %+v %v", pend, err)
	}
	if c, _ := s.Counts(); c.Failed != 2 || c.Pending != 2 || c.Blocked != 1 {
		t.Errorf("counts after open %+v", c)
	}
	if it, ok := s.Item(0); !ok || it.Failed != 1 || it.Pending != 0 {
		t.Errorf("phantom's row after open: %+v %v", it, ok)
	}

	if err := s.Discard(ctx, phantomSeq); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Record(0); kindOf(err) != app.KindNotFound {
		t.Errorf("phantom record after discarding its edit: %v", err)
	}
	if it, ok := s.Item(0); ok {
		t.Errorf("phantom row after discarding its edit: %+v", it)
	}
	if err := s.Discard(ctx, unreadableSeq); err != nil {
		t.Fatalf("discard the unreadable edit: %v", err)
	}
	if _, err := s.Entry(dependentSeq); kindOf(err) != app.KindNotFound {
		t.Errorf("dependent after discarding what it waits for: %v", err)
	}
	if got := dump(t, s)["creators/"+string(idKey(-7))]; got != "" {
		t.Errorf("creators index still names the discarded edit: %q", got)
	}
	f.drain(t, s)
	if c, _ := s.Counts(); c.Failed+c.Pending != 0 {
		t.Errorf("counts after sending the rest %+v", c)
	}
	if g := f.props[p.ID]; g.ProjectDescription != "Still goes" {
		t.Errorf("server description %q", g.ProjectDescription)
	}
}

// An entry that cannot be read, whose stored text happens to hold a
// temporary ID's digits, does not fail the acknowledgement of the
// create of that ID (which would fail it in every sync): it is marked
// unsendable with its reason, and the sync goes on.
func TestAckGoesOnPastAnUnreadableEntry(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "desk.db"))
	seed(t, s)
	f := newFakeServer()
	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Made offline")}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	unreadable, _ := json.Marshal(map[string]any{"kind": "setMood", "mutation": map[string]any{"note": p.ID}})
	var seq uint64
	err = s.update(ctx, func(tx *txn) error {
		seq, err = tx.b(bucketOutbox).NextSequence()
		if err != nil {
			return err
		}
		return tx.putEntry(&Entry{Seq: seq, Kind: EntryProposal, ProposalID: 4242, Mutation: unreadable,
			State: StatePending, Created: t0, Actor: sales, IdempotencyKey: "unreadable"})
	})
	if err != nil {
		t.Fatal(err)
	}
	f.drain(t, s) // fails the test if the create's Ack fails
	if got := s.Resolve(p.ID); got <= 0 {
		t.Fatalf("the create was not acknowledged: %d resolves to %d", p.ID, got)
	}
	e, err := s.Entry(seq)
	if err != nil {
		t.Fatal(err)
	}
	if e.State != StateFailed || !e.Unsendable || e.ErrorMessage != ReasonUnreadable {
		t.Fatalf("unreadable entry: %s unsendable %v %q", e.State, e.Unsendable, e.ErrorMessage)
	}
}
