package boltstore

import (
	"reflect"
	"strconv"

	"proposaldesk/apiserver/store/storetest"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// A proposal stored again with a version that does not move (a writer
// that bypasses app.Apply) still gets a new version: the version is the
// ETag and must change with the content.
func TestPutProposalAlwaysMovesTheVersion(t *testing.T) {
	f := newFixture(t)
	var versions []int64
	for _, name := range []string{"Second", "Third"} {
		err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
			p, err := tx.Proposal(f.ProposalA)
			if err != nil {
				return err
			}
			p.Name = name // no Version++
			return tx.PutProposal(p)
		})
		if err != nil {
			t.Fatal(err)
		}
		f.S.View(ctx, f.A, func(tx store.Tx) error {
			p, _ := tx.Proposal(f.ProposalA)
			versions = append(versions, p.Version)
			return nil
		})
	}
	if len(versions) != 2 || versions[1] != versions[0]+1 || versions[0] < 1 {
		t.Errorf("versions after two plain puts = %v, want two consecutive, rising", versions)
	}
	// A writer that already moved the version (app.Apply) keeps its own.
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.ProposalA)
		p.Version += 5
		return tx.PutProposal(p)
	})
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		if p, _ := tx.Proposal(f.ProposalA); p.Version != versions[1]+5 {
			t.Errorf("version = %d, want %d", p.Version, versions[1]+5)
		}
		return nil
	})
}

// A write keeps the proposal it stored as the decoded form of its bytes
// (no decode after the commit): what a later read gets from the cache is
// exactly what decoding the stored bytes gives.
func TestWrittenProposalIsCachedAsItsDecodedForm(t *testing.T) {
	f := newFixture(t)
	g := storetest.NewGen(7)
	for i := range 30 {
		var id int64
		err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
			p, err := tx.Proposal(f.ProposalA)
			if err != nil {
				return err
			}
			if i%2 == 0 { // a new one too: both paths of PutProposal
				p = &app.Proposal{}
				p.ID, p.Number = tx.NextID(), tx.NextNumber()
			}
			g.Fill(p)
			id = p.ID
			return tx.PutProposal(p)
		})
		if err != nil {
			t.Fatal(err)
		}
		bs := f.S.(*Store)
		if !bs.decoded.proposals.Holds(strconv.FormatInt(id, 10)) {
			t.Fatalf("write %d: proposal %d not in the decode cache after its write", i, id)
		}
		f.S.View(ctx, f.A, func(tx store.Tx) error {
			cached, err1 := tx.Proposal(id)
			decoded, err2 := tx.ProposalUncached(id)
			if err1 != nil || err2 != nil {
				t.Fatalf("read %d: %v, %v", id, err1, err2)
			}
			if !reflect.DeepEqual(cached, decoded) {
				t.Errorf("write %d: cached proposal differs from the decoded record:\n%s\n%s", i, storetest.MustJSON(cached), storetest.MustJSON(decoded))
			}
			return nil
		})
	}
}
