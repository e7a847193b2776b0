package app

import (
	"slices"
	"testing"
)

// Edge rules of the financial engine: unknown costs, credit lines,
// recurring bundles and payment remainders. Figures worked by hand.

func TestProfitLeavesUnknownCostsOut(t *testing.T) {
	tests := []struct {
		name string
		doc  Document
		want ProfitFigures
	}{
		{
			// Only the first part's cost is known: profit 100 − 60 = 40 on
			// a sell of 100 (40%); the 50.00 part with no cost counts
			// neither as sell nor as cost.
			name: "unknown cost is not zero cost",
			doc:  oneOption(part(1, "100.00", "1", withCost("60")), part(2, "50.00", "1")),
			want: ProfitFigures{Total: m("40"), PartTotal: m("40"), Percentage: r("40"), PartPercentage: r("40")},
		},
		{
			// 10% off a 150.00 parts subtotal is 15.00; the known-cost part
			// carries 15×100/150 = 10.00 of it. Profit 100−10−60 = 30 on
			// a sell of 90: 33.3333%.
			name: "known lines carry their share of the discount",
			doc:  with(oneOption(part(1, "100.00", "1", withCost("60")), part(2, "50.00", "1")), percentOff("10")),
			want: ProfitFigures{Total: m("30"), PartTotal: m("30"), Percentage: r("33.3333"), PartPercentage: r("33.3333")},
		},
		{
			// No cost known anywhere: no profit is claimed.
			name: "no known costs",
			doc:  oneOption(part(1, "100.00", "1"), labor(2, "80.00", "1")),
			want: ProfitFigures{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summarize(&tc.doc).Profit; got != tc.want {
				t.Errorf("profit = %+v\nwant     %+v", got, tc.want)
			}
		})
	}
}

func TestCreditLinesNeverMakeNegativeTax(t *testing.T) {
	// Taxable part 100.00 and an exempt credit of −40.00: parts subtotal
	// 60.00. An amount discount of 30.00 would split 30×100/60 = 50.00 to
	// the taxable side, more than the discount: it is clamped to 30.00,
	// exempt 0. Tax base 100 − 30 = 70.00 at 10% = 7.00.
	d := with(oneOption(part(1, "100.00", "1"), part(2, "-40.00", "1", exempt)),
		amountOff("30"), taxed(TaxOK, false, applyParts, "10", "0"))
	s := Summarize(&d)
	if s.PartsDiscountTaxable != m("30") || s.PartsDiscountTaxExempt != 0 {
		t.Errorf("split = %s / %s, want 30.00 / 0.00", s.PartsDiscountTaxable, s.PartsDiscountTaxExempt)
	}
	if s.TaxTotal != m("7") {
		t.Errorf("tax = %s, want 7.00", s.TaxTotal)
	}

	// A taxable credit larger than the taxable sales: base −20.00 is
	// taxed as zero, never as a refund.
	d = with(oneOption(part(1, "30.00", "1"), part(2, "-50.00", "1"), part(3, "100.00", "1", exempt)),
		taxed(TaxOK, false, applyParts, "10", "0"))
	if s := Summarize(&d); s.TaxTotal != 0 || s.Tax[CategoryParts].Base != 0 {
		t.Errorf("tax on a negative base = %s (base %s), want 0", s.TaxTotal, s.Tax[CategoryParts].Base)
	}
}

func TestRecurringBundleGathersRecurringLines(t *testing.T) {
	// A recurring bundle (1) of 20.00 with a recurring child (2) of 5.00
	// and a one-time child (3) of 100.00: the bundle reports 25.00, the
	// one-time child stays in the option total on its own.
	items := []Item{
		part(1, "20.00", "1", combined, recurring),
		part(2, "5.00", "1", under(1), recurring),
		part(3, "100.00", "1", under(1)),
	}
	if got, want := ItemAmounts(items), []Money{m("25"), m("5"), m("100")}; !slices.Equal(got, want) {
		t.Errorf("amounts = %v, want %v", got, want)
	}
	o := option(1, OptionDraft, items...)
	if total, rec := OptionTotals(&o); total != m("100") || rec != m("25") {
		t.Errorf("option totals = %s / %s, want 100.00 / 25.00", total, rec)
	}
}

func TestPaymentRemainderNeverNegative(t *testing.T) {
	// Fixed payments of 80 + 50 exceed a 100.00 total: the remainder is
	// 0.00, not −30.00.
	ps := PaymentSchedule{Payments: []PaymentTerm{
		{Calculation: PaymentFixed, Amount: m("80")},
		{Calculation: PaymentFixed, Amount: m("50")},
		{Calculation: PaymentRemainder},
	}}
	if got := PaymentAmounts(ps, m("100")); !slices.Equal(got, []Money{m("80"), m("50"), 0}) {
		t.Errorf("amounts = %v", got)
	}
}

func TestViewsDoNotShareMemoryWithTheModel(t *testing.T) {
	p := richProposal()
	before := DetailView(p, ViewOptions{ViewCosts: true})
	v := DetailView(p, ViewOptions{ViewCosts: true})
	v.Customer.FirstName = "changed"
	v.Customer.Location.City = "changed"
	v.FinancialSummary.SalesTax.Calculation.ApplyTo[0] = ApplyFees
	if v.FinancialSummary.SalesTax.Calculation.TaxLocation != nil {
		v.FinancialSummary.SalesTax.Calculation.TaxLocation.City = "changed"
	}
	if len(v.PaymentRequests) > 0 {
		v.PaymentRequests[0].Description = "changed"
	}
	after := DetailView(p, ViewOptions{ViewCosts: true})
	if after.Customer.FirstName != before.Customer.FirstName || after.Customer.Location.City != before.Customer.Location.City ||
		after.FinancialSummary.SalesTax.Calculation.ApplyTo[0] != before.FinancialSummary.SalesTax.Calculation.ApplyTo[0] {
		t.Error("changing a view changed the stored proposal")
	}
	if len(after.PaymentRequests) > 0 && after.PaymentRequests[0].Description != before.PaymentRequests[0].Description {
		t.Error("changing a view's payment request changed the stored proposal")
	}
	p.Status = ""
	if got := DetailView(p, ViewOptions{}).Status; got != StatusUndefined {
		t.Errorf("empty status shows as %q, want Undefined", got)
	}
}

func TestCheckItem(t *testing.T) {
	tests := []struct {
		name string
		it   Item
		ok   bool
	}{
		{"ordinary", part(1, "1299.99", "2"), true},
		{"credit", part(1, "-50.00", "1"), true},
		{"zero quantity", part(1, "10.00", "0"), true},
		{"negative quantity", part(1, "10.00", "-1"), false},
		{"quantity over the limit", part(1, "1.00", "1000001"), false},
		{"price over the limit", part(1, "1000000000.01", "1"), false},
		{"cost over the limit", part(1, "1.00", "1", withCost("-1000000000.01")), false},
		{"line over the limit", part(1, "999999999.00", "100001"), false},
		{"unknown type", Item{ItemType: "Gadget", Quantity: OneUnit}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckItem(&tc.it)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckItem = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && KindOf(err) != KindValidationFailed {
				t.Errorf("kind = %s, want ValidationFailed", KindOf(err))
			}
		})
	}
}

func TestProposalChangeOrderLookup(t *testing.T) {
	p := richProposal()
	if len(p.ChangeOrders) == 0 {
		t.Fatal("fixture has no change orders")
	}
	want := p.ChangeOrders[len(p.ChangeOrders)-1].ID
	if co, err := p.ChangeOrder(want); err != nil || co.ID != want || co != &p.ChangeOrders[len(p.ChangeOrders)-1] {
		t.Errorf("ChangeOrder(%d) = %v, %v", want, co, err)
	}
	if _, err := p.ChangeOrder(want + 1000); KindOf(err) != KindNotFound {
		t.Errorf("missing change order: kind %q, want NotFound", KindOf(err))
	}
}
