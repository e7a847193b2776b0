package app_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"proposaldesk/app"
)

// ApplyInPlace gives what Apply gives, for one edit of every kind (and
// the refusals alike), on a proposal it may change.
func TestApplyInPlaceAgreesWithApply(t *testing.T) {
	for _, status := range []app.Status{app.StatusDraft, app.StatusAccepted} {
		for _, m := range fieldSamples() {
			if m.ProposalID() == 0 {
				if err := app.ApplyInPlace(fixtureProposal(status), m, fixtureEnv(fixtureAdmin)); err == nil {
					t.Errorf("ApplyInPlace took a create (%s)", m.Kind())
				}
				continue
			}
			before := fixtureTarget(m, status)
			next := int64(0)
			if err := app.FillNewIDs(m, before, func() (int64, error) { next--; return next, nil }); err != nil {
				t.Fatalf("%s: new IDs: %v", m.Kind(), err)
			}
			want, werr := app.Apply(before, m, fixtureEnv(fixtureAdmin))
			got := before.Clone()
			gerr := app.ApplyInPlace(got, m, fixtureEnv(fixtureAdmin))
			if app.KindOf(werr) != app.KindOf(gerr) || (werr == nil) != (gerr == nil) {
				t.Errorf("%s on a %s proposal: Apply says %v, ApplyInPlace %v", m.Kind(), status, werr, gerr)
				continue
			}
			if werr == nil {
				sameProposal(t, m.Kind(), want, got)
			}
		}
	}
}

// A run of random item edits applied in place on one proposal ends as
// the same run applied by Apply, copy after copy, and each refusal is
// the same.
func TestApplyInPlaceAgreesOverARun(t *testing.T) {
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 7))
		p := fixtureProposal(app.StatusDraft)
		md := newContentModel(p)
		env := fixtureEnv(fixtureSales)
		owned, temp := p.Clone(), int64(0)
		for step := range 150 {
			m, apply := md.randomEdit(rng, p.ID)
			if rng.IntN(8) == 0 { // one that is refused
				m = &app.ChangeItem{ID: p.ID, ItemID: 987_654, Quantity: ptr(app.OneUnit)}
			}
			// The IDs in the edit, as the laptop queues it: both
			// applications make the same parts.
			if err := app.FillNewIDs(m, p, func() (int64, error) { temp--; return temp, nil }); err != nil {
				t.Fatal(err)
			}
			next, werr := app.Apply(p, m, env)
			gerr := app.ApplyInPlace(owned, m, env)
			if (werr == nil) != (gerr == nil) || app.KindOf(werr) != app.KindOf(gerr) {
				t.Fatalf("seed %d step %d: %s: Apply says %v, ApplyInPlace %v", seed, step, m.Describe(), werr, gerr)
			}
			if werr != nil {
				owned = p.Clone() // left as it may be: start again from the copy
				continue
			}
			apply(next)
			p = next
			sameProposal(t, m.Kind(), p, owned)
		}
	}
}

func sameProposal(t *testing.T, what app.MutationKind, want, got *app.Proposal) {
	t.Helper()
	w, err := want.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := got.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w, g) {
		t.Fatalf("%s: ApplyInPlace left\n%s\nApply gave\n%s", what, g, w)
	}
}
