package boltstore

import (
	"bytes"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
)

// A file of schema v2 (no stamps) gets every proposal's stamp when it is
// opened: its version, and the date the release before still reads.
func TestMigrationStampsEveryProposal(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	g := storetest.NewGen(5)
	g.PutRandom(t, f.S, f.A, 30)
	s := asSchema(t, f.S, 2, func(btx *bolt.Tx) error {
		accts := btx.Bucket(bAccounts)
		return accts.ForEachBucket(func(k []byte) error { return accts.Bucket(k).DeleteBucket(bStamps) })
	})
	checked := 0
	err := s.View(ctx, f.A, func(stx store.Tx) error {
		ids, err := stx.ProposalIDs()
		if err != nil {
			return err
		}
		for _, id := range ids {
			version, err := stx.ProposalVersion(id)
			if err != nil {
				return err
			}
			p, err := stx.Proposal(id)
			if err != nil {
				return err
			}
			want, err := encodeStamp(p)
			if err != nil {
				return err
			}
			if raw := stx.(*tx).b(bStamps).Get(idKey(id)); version != p.Version || !bytes.Equal(raw, want) {
				t.Errorf("proposal %d: version %d, stamp %q; proposal version %d, stamp %q", id, version, raw, p.Version, want)
			}
			checked++
		}
		return nil
	})
	if err != nil || checked < 30 {
		t.Fatalf("checked %d stamps: %v", checked, err)
	}
}

// A stamp read by a View is memoized until the next write of any kind,
// only for the account that read it.
func TestVersionMemo(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	s := f.S.(*Store)
	read := func(acct, id int64) (version int64) {
		t.Helper()
		err := s.View(ctx, acct, func(tx store.Tx) error {
			var err error
			version, err = tx.ProposalVersion(id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return version
	}
	memo := func(acct, id int64) (int64, bool) {
		return s.MemoVersion(acct, id)
	}
	if _, ok := memo(f.A, f.ProposalA); ok {
		t.Fatal("a stamp nobody read is memoized")
	}
	v := read(f.A, f.ProposalA)
	if got, ok := memo(f.A, f.ProposalA); !ok || got != v {
		t.Fatalf("memo after a read = %d, %v; want %d", got, ok, v)
	}
	if _, ok := memo(f.B, f.ProposalA); ok {
		t.Error("another account finds the stamp")
	}
	// A write elsewhere (the other account, not a proposal) forgets it.
	if err := s.Update(ctx, f.B, func(tx store.Tx) error { tx.NextID(); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := memo(f.A, f.ProposalA); ok {
		t.Error("the memo survived a write")
	}
	// The proposal's own write: the next read memoizes the new version.
	err := s.Update(ctx, f.A, func(tx store.Tx) error {
		p, err := tx.Proposal(f.ProposalA)
		if err != nil {
			return err
		}
		p.Name = "renamed"
		return tx.PutProposal(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if v2 := read(f.A, f.ProposalA); v2 <= v {
		t.Fatalf("version %d after a write, was %d", v2, v)
	} else if got, ok := memo(f.A, f.ProposalA); !ok || got != v2 {
		t.Errorf("memo = %d, %v; want %d", got, ok, v2)
	}
	// A read that began before a write puts what it read at the count it
	// began with: never served after the write.
	began := s.commits.Load()
	if err := s.update(func(*bolt.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	s.stamps.put(began, stampKey{f.A, f.ProposalA}, 1)
	if _, ok := memo(f.A, f.ProposalA); ok {
		t.Error("a stamp read before a write is served after it")
	}
}
