package boltstore

import (
	"reflect"
	"strconv"

	"proposaldesk/apiserver/store/storetest"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func TestDecodeCacheServesOnlyTheBytesItWasGiven(t *testing.T) {
	c := newDecodeCache(4, func(p app.Proposal) app.Proposal { return *p.Clone() })
	v1 := []byte(`{"id":1,"name":"Theater","areas":[{"id":2,"name":"Rack","options":[]}]}`)
	v2 := []byte(`{"id":1,"name":"Theater v2","areas":[]}`)

	p, err := c.decode("1", v1)
	if err != nil || p.Name != "Theater" {
		t.Fatalf("first decode = %q, %v", p.Name, err)
	}
	// A caller changing what it got changes nothing cached.
	p.Name = "scribbled"
	p.Areas[0].Name = "scribbled"
	again, _ := c.decode("1", v1)
	if again.Name != "Theater" || again.Areas[0].Name != "Rack" {
		t.Errorf("cached value was changed through a returned copy: %q / %q", again.Name, again.Areas[0].Name)
	}
	// New bytes under the same key are decoded, never answered from cache.
	if p, _ := c.decode("1", v2); p.Name != "Theater v2" {
		t.Errorf("after a write got %q, want the new record", p.Name)
	}
	// Bad bytes are an error, not a cached value.
	if _, err := c.decode("1", []byte(`{`)); err == nil {
		t.Error("malformed record decoded without error")
	}
	// The cache stays bounded.
	for i := range 20 {
		c.decode(string(rune('a'+i)), v2)
	}
	if n := len(c.items); n > 4 {
		t.Errorf("cache holds %d items, bound is 4", n)
	}
}

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
		bs.decoded.proposals.mu.Lock()
		_, primed := bs.decoded.proposals.items[strconv.FormatInt(id, 10)]
		bs.decoded.proposals.mu.Unlock()
		if !primed {
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
