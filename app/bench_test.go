package app

import (
	"testing"
	"time"
)

// BenchmarkRecalculate measures a full recalculation of a large proposal:
// 20 areas × 3 options × 30 items (bundles with nested items, recurring
// and exempt lines, a discount, two tax rates). Summarize is the figures
// alone; DetailView is the figures plus every option's totals and item
// amounts and the whole view, as a read of the proposal does it.
func BenchmarkRecalculate(b *testing.B) {
	p := benchProposal(20, 3, 30)
	if n := len(p.Areas) * len(p.Areas[0].Options) * len(p.Areas[0].Options[0].Items); n != 1800 {
		b.Fatalf("fixture has %d items, want 1800", n)
	}
	b.Run("Summarize", func(b *testing.B) {
		b.ReportAllocs()
		var s Summary
		for b.Loop() {
			s = Summarize(&p.Document)
		}
		if s.Total <= 0 || s.TotalRecurring <= 0 || s.PartsDiscount <= 0 || s.TaxTotal <= 0 {
			b.Fatalf("degenerate fixture: %+v", figuresOf(s))
		}
	})
	b.Run("DetailView", func(b *testing.B) {
		b.ReportAllocs()
		var v ProposalDetail
		for b.Loop() {
			v = DetailView(p, ViewOptions{ViewCosts: true})
		}
		if len(v.Areas) != 20 || v.FinancialSummary.ProposalTotal <= 0 {
			b.Fatalf("degenerate view")
		}
	})
}

// BenchmarkApplyItem500 is app's share of an item edit in a 500-item
// proposal: Apply (clone, rules, stamps) of a quantity or price change,
// then the totals the screen and list row show (Summarize). The
// target for the whole edit, store included, is p50 < 5 ms.
func BenchmarkApplyItem500(b *testing.B) {
	p := benchProposal(5, 1, 100)
	p.Status = StatusDraft
	env := Env{Now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
		Actor:   User{ID: 7, FirstName: "Sam", Role: RoleSales},
		Account: Account{Currency: USD, Taxes: USTaxTable()}}
	items := p.Areas[2].Options[0].Items
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		q := Quantity(1+i%9) * OneUnit
		next, err := Apply(p, &ChangeItem{ID: p.ID, ItemID: items[i%len(items)].ID, Quantity: &q}, env)
		if err != nil {
			b.Fatal(err)
		}
		if s := Summarize(&next.Document); s.Total <= 0 {
			b.Fatalf("total %v", s.Total)
		}
	}
}
