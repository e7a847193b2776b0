package boltstore

import (
	"fmt"
	"sync"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// Readers arriving together at a version whose index is not built yet
// share one build, and each gets what a reader of the built index gets.
func TestColdListReadersShareOneBuild(t *testing.T) {
	f := newFixture(t)
	g := storetest.NewGen(3)
	g.PutRandom(t, f.S, f.A, 300)
	bs := f.S.(*Store)
	queries := make([]app.ListQuery, 16)
	for i := range queries {
		queries[i] = g.Query()
	}
	answer := func(q app.ListQuery) string {
		var out string
		err := f.S.View(ctx, f.A, func(tx store.Tx) error {
			page, n, err := tx.List(q)
			out = fmt.Sprint(n, storetest.MustJSON(page))
			return err
		})
		if err != nil {
			return err.Error()
		}
		return out
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		want[i] = answer(q)
	}
	for round := range 3 {
		bs.snaps.Reset()
		got := make([]string, len(queries))
		var wg sync.WaitGroup
		for i, q := range queries {
			wg.Go(func() { got[i] = answer(q) })
		}
		wg.Wait()
		for i := range queries {
			if got[i] != want[i] {
				t.Errorf("round %d, query %+v: cold %s, warm %s", round, queries[i], got[i], want[i])
			}
		}
		snaps, loading := bs.snaps.Counts(f.A)
		if snaps != 1 || loading != 0 {
			t.Errorf("round %d: %d versions held, %d builds left; want 1 and 0", round, snaps, loading)
		}
	}
}
