package app

import "testing"

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
