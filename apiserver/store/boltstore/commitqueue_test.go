package boltstore

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// TestGroupCommitIsolatesFailures sends many concurrent writes, so they
// share transactions, some failing before they write, some after, some
// panicking: every successful write is kept and listed, no failed one
// leaves anything, and each caller gets its own result.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	f := newFixture(t, withDeltaMin(4))
	errEarly, errLate := errors.New("early"), errors.New("late")
	const writers, rounds = 32, 8
	type outcome struct {
		kind  string // "ok", "early", "late", "panic"
		name  string
		err   error
		panic any
	}
	results := make([][]outcome, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				o := outcome{kind: []string{"ok", "early", "ok", "late", "ok", "panic"}[(w+r)%6], name: fmt.Sprintf("w%d-r%d", w, r)}
				func() {
					defer func() { o.panic = recover() }()
					o.err = f.S.Update(ctx, f.A, func(tx store.Tx) error {
						if o.kind == "early" {
							return errEarly
						}
						if err := tx.PutProposal(storetest.NewProposal(tx, o.name, nil)); err != nil {
							return err
						}
						switch o.kind {
						case "late":
							return errLate
						case "panic":
							panic(o.name)
						}
						return nil
					})
				}()
				results[w] = append(results[w], o)
			}
		})
	}
	wg.Wait()

	listed := map[string]bool{}
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		q := app.ListQuery{SearchText: "w", SortBy: app.SortName, PageNumber: 1, PageSize: app.MaxPageSize}
		page, n, err := tx.List(q)
		if err != nil || n > app.MaxPageSize {
			t.Fatalf("list: %d matches, %v", n, err)
		}
		for _, it := range page {
			listed[it.Name] = true
		}
		return nil
	})
	oks := 0
	for _, rs := range results {
		for _, o := range rs {
			var want error
			switch o.kind {
			case "early":
				want = errEarly
			case "late":
				want = errLate
			}
			if o.kind == "panic" {
				if o.panic != o.name {
					t.Errorf("%s: panic %v reached the caller, want %q", o.name, o.panic, o.name)
				}
			} else if !errors.Is(o.err, want) || o.panic != nil {
				t.Errorf("%s (%s): err %v, panic %v", o.name, o.kind, o.err, o.panic)
			}
			if o.kind == "ok" {
				oks++
			}
			if listed[o.name] != (o.kind == "ok") {
				t.Errorf("%s (%s): listed %v", o.name, o.kind, listed[o.name])
			}
		}
	}
	if len(listed) != oks {
		t.Errorf("%d listed, %d writes succeeded", len(listed), oks)
	}
}
