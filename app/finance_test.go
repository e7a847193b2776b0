package app

import (
	"reflect"
	"testing"
)

// Every expected figure below is worked out by hand in the comment next
// to its case; none was copied from a run of the code.

func TestSummarize(t *testing.T) {
	// Rates as first/second for parts, labor, fees.
	std := []string{"8.25", "1.5", "5", "0.25", "2.5", "0.1"}
	tenAll := []string{"10", "0", "10", "0", "10", "0"}
	tests := []struct {
		name string
		doc  Document
		want figures
	}{
		{
			name: "empty document",
			doc:  Document{},
			want: figures{},
		},
		{
			name: "area without options counts nothing",
			doc:  Document{Areas: []Area{area(1)}},
			want: figures{},
		},
		{
			// 10.00 × 3 = 30.00; no tax location yet.
			name: "one part, untaxed",
			doc:  oneOption(part(1, "10.00", "3")),
			want: figures{PartsSubtotal: m("30"), TaxableParts: m("30"), PartsTotal: m("30"),
				Subtotal: m("30"), Total: m("30")},
		},
		{
			// parts: 19.99×2 = 39.98, custom 12.50 → 52.48; labor 85.00×1.5 =
			// 127.50; fee 25.00; subtotal 52.48+127.50+25.00 = 204.98.
			name: "every item type; a custom item counts as a part",
			doc: oneOption(part(1, "19.99", "2"), custom(2, "12.50", "1"),
				labor(3, "85.00", "1.5"), fee(4, "25.00", "1")),
			want: figures{PartsSubtotal: m("52.48"), TaxableParts: m("52.48"), PartsTotal: m("52.48"),
				LaborTotal: m("127.50"), FeeTotal: m("25.00"), Subtotal: m("204.98"), Total: m("204.98")},
		},
		{
			// Each line rounds on its own: 0.05×0.1 = 0.005 → 0.01 (twice);
			// 0.99×1.3333 = 1.319967 → 1.32; parts 0.01+0.01+1.32 = 1.34.
			// Labor −0.05×0.1 = −0.005 → −0.01. Subtotal 1.33.
			// (Summing before rounding would give parts 1.33.)
			name: "fractional quantities round per line",
			doc: oneOption(part(1, "0.05", "0.1"), part(2, "0.05", "0.1"), part(3, "0.99", "1.3333"),
				labor(4, "-0.05", "0.1")),
			want: figures{PartsSubtotal: m("1.34"), TaxableParts: m("1.34"), PartsTotal: m("1.34"),
				LaborTotal: m("-0.01"), Subtotal: m("1.33"), Total: m("1.33")},
		},
		{
			// Parts 100.00, taxed 10% = 10.00. Recurring: 29.99×12 = 359.88
			// and labor 50.00, total recurring 409.88, neither taxed nor in
			// the totals.
			name: "recurring services are left out of totals and tax",
			doc: with(oneOption(part(1, "100.00", "1"), part(2, "29.99", "12", recurring),
				labor(3, "50.00", "1", recurring)),
				taxed(TaxOK, false, applyAll, tenAll...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				Subtotal: m("100"), PartsTax: m("10"), TaxTotal: m("10"), Total: m("110"),
				TotalRecurring: m("409.88")},
		},
		{
			// Bundle 50.00 with nested 20.00×2 = 40.00, under that labor
			// 10.00×1.5 = 15.00, and fee 5.00 under the bundle. Each line once:
			// parts 50+40 = 90, labor 15, fee 5, subtotal 110 (not the
			// bundle's reported 110 on top).
			name: "combined bundle: nested lines are counted once",
			doc: oneOption(part(1, "50.00", "1", combined), part(2, "20.00", "2", under(1)),
				labor(3, "10.00", "1.5", under(2)), fee(4, "5.00", "1", under(1))),
			want: figures{PartsSubtotal: m("90"), TaxableParts: m("90"), PartsTotal: m("90"),
				LaborTotal: m("15"), FeeTotal: m("5"), Subtotal: m("110"), Total: m("110")},
		},
		{
			// Parts 150 taxable + 50 exempt = 200; 10% = 20.00, split
			// 20×150/200 = 15.00 taxable, 5.00 exempt. Parts total 180.
			// Tax base 150−15 = 135; 135 × 8.25% = 11.1375 → 11.14.
			// Total 180 + 11.14 = 191.14.
			name: "percentage discount split between taxable and exempt parts",
			doc: with(oneOption(part(1, "150.00", "1"), part(2, "50.00", "1", exempt)),
				percentOff("10"), taxed(TaxOK, false, applyParts, std...)),
			want: figures{PartsSubtotal: m("200"), TaxableParts: m("150"), PartsDiscount: m("20"),
				PartsDiscountTaxable: m("15"), PartsDiscountTaxExempt: m("5"), PartsTotal: m("180"),
				Subtotal: m("180"), PartsTax: m("11.14"), TaxTotal: m("11.14"), Total: m("191.14")},
		},
		{
			// Parts 33.33 taxable + 66.67 exempt = 100.00; 15% = 15.00.
			// Taxable share 15.00×33.33/100 = 4.9995 → 5.00; exempt 10.00.
			name: "discount split rounds half away from zero",
			doc:  with(oneOption(part(1, "33.33", "1"), part(2, "66.67", "1", exempt)), percentOff("15")),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("33.33"), PartsDiscount: m("15"),
				PartsDiscountTaxable: m("5"), PartsDiscountTaxExempt: m("10"), PartsTotal: m("85"),
				Subtotal: m("85"), Total: m("85")},
		},
		{
			// Parts 60 taxable + 20 exempt = 80; 25.00 off: taxable share
			// 25×60/80 = 18.75, exempt 6.25; parts total 55. Tax base
			// 60−18.75 = 41.25 × 10% = 4.125 → 4.13. Total 59.13.
			name: "amount discount split; tax on an exact half cent",
			doc: with(oneOption(part(1, "60.00", "1"), part(2, "20.00", "1", exempt)),
				amountOff("25.00"), taxed(TaxOK, false, applyParts, tenAll...)),
			want: figures{PartsSubtotal: m("80"), TaxableParts: m("60"), PartsDiscount: m("25"),
				PartsDiscountTaxable: m("18.75"), PartsDiscountTaxExempt: m("6.25"), PartsTotal: m("55"),
				Subtotal: m("55"), PartsTax: m("4.13"), TaxTotal: m("4.13"), Total: m("59.13")},
		},
		{
			// 500.00 off parts of 120.00 is capped at 120.00, all taxable;
			// parts total 0, parts tax 0. Labor 50.00 × 5% = 2.50.
			// Subtotal 50, total 52.50.
			name: "amount discount is capped at the parts subtotal",
			doc: with(oneOption(part(1, "120.00", "1"), labor(2, "50.00", "1")),
				amountOff("500"), taxed(TaxOK, false, applyAll, std...)),
			want: figures{PartsSubtotal: m("120"), TaxableParts: m("120"), PartsDiscount: m("120"),
				PartsDiscountTaxable: m("120"), LaborTotal: m("50"), Subtotal: m("50"),
				LaborTax: m("2.50"), TaxTotal: m("2.50"), Total: m("52.50")},
		},
		{
			// No parts: nothing to discount. Labor 80.
			name: "amount discount without parts discounts nothing",
			doc:  with(oneOption(labor(1, "80.00", "1")), amountOff("10")),
			want: figures{LaborTotal: m("80"), Subtotal: m("80"), Total: m("80")},
		},
		{
			// 150% of 40.00 = 60.00, capped at 40.00; parts total 0.
			name: "percentage over 100 is capped at the parts subtotal",
			doc:  with(oneOption(part(1, "40.00", "1")), percentOff("150")),
			want: figures{PartsSubtotal: m("40"), TaxableParts: m("40"), PartsDiscount: m("40"),
				PartsDiscountTaxable: m("40")},
		},
		{
			// A negative amount is no discount: parts total stays 40.
			name: "negative amount discount is no discount",
			doc:  with(oneOption(part(1, "40.00", "1")), amountOff("-5")),
			want: figures{PartsSubtotal: m("40"), TaxableParts: m("40"), PartsTotal: m("40"),
				Subtotal: m("40"), Total: m("40")},
		},
		{
			// 100.00 − 15.00 trade-in = 85.00; 10% = 8.50, all taxable;
			// parts total 76.50.
			name: "credit line lowers the discounted subtotal",
			doc:  with(oneOption(part(1, "100.00", "1"), part(2, "-15.00", "1")), percentOff("10")),
			want: figures{PartsSubtotal: m("85"), TaxableParts: m("85"), PartsDiscount: m("8.50"),
				PartsDiscountTaxable: m("8.50"), PartsTotal: m("76.50"), Subtotal: m("76.50"), Total: m("76.50")},
		},
		{
			// 7.5% of 33.33 = 2.49975 → 2.50; parts total 30.83.
			name: "percentage discount rounds to the cent",
			doc:  with(oneOption(part(1, "33.33", "1")), percentOff("7.5")),
			want: figures{PartsSubtotal: m("33.33"), TaxableParts: m("33.33"), PartsDiscount: m("2.50"),
				PartsDiscountTaxable: m("2.50"), PartsTotal: m("30.83"), Subtotal: m("30.83"), Total: m("30.83")},
		},
		{
			// 100 × 8.25% = 8.25; 200 × 5% = 10.00; 30 × 2.5% = 0.75.
			// Tax 19.00; subtotal 330; total 349.00. Second rates ignored.
			name: "every category taxed, one rate each without multiple-tax support",
			doc: with(oneOption(part(1, "100.00", "1"), labor(2, "200.00", "1"), fee(3, "30.00", "1")),
				taxed(TaxOK, false, applyAll, std...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				LaborTotal: m("200"), FeeTotal: m("30"), Subtotal: m("330"),
				PartsTax: m("8.25"), LaborTax: m("10"), FeeTax: m("0.75"), TaxTotal: m("19"), Total: m("349")},
		},
		{
			// As above plus second rates: 100 × 1.5% = 1.50; 200 × 0.25% =
			// 0.50; 30 × 0.1% = 0.03. Tax 19.00 + 2.03 = 21.03; total 351.03.
			name: "two rates per category with multiple-tax support",
			doc: with(oneOption(part(1, "100.00", "1"), labor(2, "200.00", "1"), fee(3, "30.00", "1")),
				taxed(TaxOK, true, applyAll, std...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				LaborTotal: m("200"), FeeTotal: m("30"), Subtotal: m("330"),
				PartsTax: m("8.25"), PartsTax2: m("1.50"), LaborTax: m("10"), LaborTax2: m("0.50"),
				FeeTax: m("0.75"), FeeTax2: m("0.03"), TaxTotal: m("21.03"), Total: m("351.03")},
		},
		{
			// 0.10 × 5% = 0.005 → 0.01, twice: tax 0.02 (one 10% rate would
			// give 0.01). Total 0.12.
			name: "each tax amount is rounded on its own",
			doc:  with(oneOption(part(1, "0.10", "1")), taxed(TaxOK, true, applyParts, "5", "5")),
			want: figures{PartsSubtotal: m("0.10"), TaxableParts: m("0.10"), PartsTotal: m("0.10"),
				Subtotal: m("0.10"), PartsTax: m("0.01"), PartsTax2: m("0.01"), TaxTotal: m("0.02"),
				Total: m("0.12")},
		},
		{
			// Parts 100 taxed + 50 exempt; labor 60 taxed + 40 exempt; all
			// at 10%: parts tax 10.00, labor tax 6.00. Subtotal 250, total 266.
			name: "tax-exempt items carry no tax",
			doc: with(oneOption(part(1, "100.00", "1"), part(2, "50.00", "1", exempt),
				labor(3, "40.00", "1", exempt), labor(4, "60.00", "1")),
				taxed(TaxOK, false, applyAll, tenAll...)),
			want: figures{PartsSubtotal: m("150"), TaxableParts: m("100"), PartsTotal: m("150"),
				LaborTotal: m("100"), Subtotal: m("250"), PartsTax: m("10"), LaborTax: m("6"),
				TaxTotal: m("16"), Total: m("266")},
		},
		{
			// Labor only: 200 × 5% = 10.00; parts untaxed. Total 310.
			name: "only the categories in applyTo are taxed",
			doc: with(oneOption(part(1, "100.00", "1"), labor(2, "200.00", "1")),
				taxed(TaxOK, true, []ApplyTo{ApplyLabor}, std...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				LaborTotal: m("200"), Subtotal: m("300"), LaborTax: m("10"), LaborTax2: m("0.50"),
				TaxTotal: m("10.50"), Total: m("310.50")},
		},
		{
			// applyTo None: nothing taxed although the status is Ok.
			name: "applyTo None taxes nothing",
			doc: with(oneOption(part(1, "100.00", "1"), labor(2, "200.00", "1")),
				taxed(TaxOK, true, []ApplyTo{ApplyNone}, std...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				LaborTotal: m("200"), Subtotal: m("300"), Total: m("300")},
		},
		{
			// Labor 45.00 × 0.25 = 11.25; 10% = 1.125 → 1.13; total 12.38.
			name: "fractional labor taxed at an exact half cent",
			doc: with(oneOption(labor(1, "45.00", "0.25")),
				taxed(TaxOK, false, []ApplyTo{ApplyLabor}, tenAll...)),
			want: figures{LaborTotal: m("11.25"), Subtotal: m("11.25"), LaborTax: m("1.13"),
				TaxTotal: m("1.13"), Total: m("12.38")},
		},
		{
			// Area 1: Draft 10, Selected 20, Declined 30 → 20 counts.
			name: "the Selected option counts",
			doc: Document{Areas: []Area{area(1, option(10, OptionDraft, part(1, "10.00", "1")),
				option(11, OptionSelected, part(2, "20.00", "1")),
				option(12, OptionDeclined, part(3, "30.00", "1")))}},
			want: figures{PartsSubtotal: m("20"), TaxableParts: m("20"), PartsTotal: m("20"),
				Subtotal: m("20"), Total: m("20")},
		},
		{
			// Area 1: Declined labor 7 first, Draft labor 9 → 7 (no
			// Selected: the first counts). Area 2: Draft fee 3, Selected
			// fee 4 → 4. Area 3 has no options. Subtotal 11.
			name: "without a Selected option the first counts",
			doc: Document{Areas: []Area{
				area(1, option(10, OptionDeclined, labor(1, "7.00", "1")), option(11, OptionDraft, labor(2, "9.00", "1"))),
				area(2, option(20, OptionDraft, fee(3, "3.00", "1")), option(21, OptionSelected, fee(4, "4.00", "1"))),
				area(3),
			}},
			want: figures{LaborTotal: m("7"), FeeTotal: m("4"), Subtotal: m("11"), Total: m("11")},
		},
		{
			// A recurring child of a bundle stays out: parts 100, recurring 10.
			name: "recurring item nested in a bundle",
			doc:  oneOption(part(1, "100.00", "1", combined), part(2, "10.00", "1", under(1), recurring)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				Subtotal: m("100"), Total: m("100"), TotalRecurring: m("10")},
		},
	}
	// With status other than Ok nothing is taxed, whatever the rates and
	// applyTo: parts 100 + labor 50 = 150 untaxed.
	for _, st := range []TaxStatus{"", TaxUndefined, TaxExempt, TaxUnavailable} {
		tests = append(tests, struct {
			name string
			doc  Document
			want figures
		}{
			name: "status " + string(st) + " taxes nothing",
			doc: with(oneOption(part(1, "100.00", "1"), labor(2, "50.00", "1")),
				taxed(st, true, applyAll, std...)),
			want: figures{PartsSubtotal: m("100"), TaxableParts: m("100"), PartsTotal: m("100"),
				LaborTotal: m("50"), Subtotal: m("150"), Total: m("150")},
		})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(&tc.doc)
			if got := figuresOf(s); got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			// The tax base of a taxed category is what the tax was figured on.
			for c := range numCategories {
				if s.Tax[c].Total() != 0 && s.Tax[c].Base == 0 {
					t.Errorf("category %d taxed %s on a zero base", c, s.Tax[c].Total())
				}
			}
		})
	}
}

func TestSummarizeTaxBase(t *testing.T) {
	// Parts 150 taxable + 50 exempt, 10% off: taxable discount 15.00, so
	// the parts base is 135.00. Labor 60 taxable + 40 exempt: base 60.
	// Fees are not in applyTo: no base.
	d := with(oneOption(part(1, "150.00", "1"), part(2, "50.00", "1", exempt),
		labor(3, "60.00", "1"), labor(4, "40.00", "1", exempt), fee(5, "9.00", "1")),
		percentOff("10"), taxed(TaxOK, false, []ApplyTo{ApplyParts, ApplyLabor}, "10", "0", "10", "0", "10", "0"))
	s := Summarize(&d)
	want := [numCategories]CategoryTax{
		CategoryParts: {Base: m("135"), First: m("13.50")},
		CategoryLabor: {Base: m("60"), First: m("6")},
	}
	if s.Tax != want {
		t.Errorf("tax = %+v, want %+v", s.Tax, want)
	}
	if got := s.TaxFor(CategoryLabor); got != want[CategoryLabor] {
		t.Errorf("TaxFor(labor) = %+v", got)
	}
}

func TestSummarizeProfit(t *testing.T) {
	tests := []struct {
		name     string
		doc      Document
		wantCost [numCategories]Money
		want     ProfitFigures
	}{
		{
			name: "nothing",
			doc:  Document{},
		},
		{
			// Sell 150, cost 60+20 = 80: profit 70, 70/150 = 46.6667%.
			// Parts 100−60 = 40 (40%); labor 50−20 = 30 (60%).
			name:     "parts and labor",
			doc:      oneOption(part(1, "100.00", "1", withCost("60")), labor(2, "50.00", "1", withCost("20"))),
			wantCost: [numCategories]Money{m("60"), m("20"), 0},
			want: ProfitFigures{Total: m("70"), PartTotal: m("40"), LaborTotal: m("30"),
				Percentage: r("46.6667"), PartPercentage: r("40"), LaborPercentage: r("60")},
		},
		{
			// 10% off: parts total 90, subtotal 140. Profit 140−80 = 60,
			// 60/140 = 42.857142…% → 42.8571; parts 90−60 = 30, 33.3333%.
			name: "profit after the discount",
			doc: with(oneOption(part(1, "100.00", "1", withCost("60")), labor(2, "50.00", "1", withCost("20"))),
				percentOff("10")),
			wantCost: [numCategories]Money{m("60"), m("20"), 0},
			want: ProfitFigures{Total: m("60"), PartTotal: m("30"), LaborTotal: m("30"),
				Percentage: r("42.8571"), PartPercentage: r("33.3333"), LaborPercentage: r("60")},
		},
		{
			// Fee cost counts in the total profit: sell 125, cost 65, profit
			// 60 = 48%. No labor: labor profit 0 and 0%.
			name:     "fee cost is in the total only",
			doc:      oneOption(part(1, "100.00", "1", withCost("60")), fee(2, "25.00", "1", withCost("5"))),
			wantCost: [numCategories]Money{m("60"), 0, m("5")},
			want: ProfitFigures{Total: m("60"), PartTotal: m("40"),
				Percentage: r("48"), PartPercentage: r("40")},
		},
		{
			// Sold below cost: 100 − 150 = −50, −50%.
			name:     "loss",
			doc:      oneOption(part(1, "100.00", "1", withCost("150"))),
			wantCost: [numCategories]Money{m("150"), 0, 0},
			want: ProfitFigures{Total: m("-50"), PartTotal: m("-50"),
				Percentage: r("-50"), PartPercentage: r("-50")},
		},
		{
			// Sell 10.00×1.5 = 15.00; cost 3.33×1.5 = 4.995 → 5.00.
			// Profit 10.00, 10/15 = 66.6667%.
			name:     "cost line rounds like a sell line",
			doc:      oneOption(part(1, "10.00", "1.5", withCost("3.33"))),
			wantCost: [numCategories]Money{m("5"), 0, 0},
			want: ProfitFigures{Total: m("10"), PartTotal: m("10"),
				Percentage: r("66.6667"), PartPercentage: r("66.6667")},
		},
		{
			// Only the Selected option counts, and its recurring line's cost
			// is not a cost of the sale: cost 40, profit 60 (60%).
			name: "recurring and uncounted costs are left out",
			doc: Document{Areas: []Area{area(1,
				option(10, OptionDraft, part(1, "999.00", "1", withCost("1"))),
				option(11, OptionSelected, part(2, "100.00", "1", withCost("40")),
					part(3, "30.00", "1", withCost("20"), recurring)))}},
			wantCost: [numCategories]Money{m("40"), 0, 0},
			want: ProfitFigures{Total: m("60"), PartTotal: m("60"),
				Percentage: r("60"), PartPercentage: r("60")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(&tc.doc)
			if s.Cost != tc.wantCost {
				t.Errorf("cost = %v, want %v", s.Cost, tc.wantCost)
			}
			if s.Profit != tc.want {
				t.Errorf("profit = %+v\nwant     %+v", s.Profit, tc.want)
			}
		})
	}
}

func TestSummarizeRecurringLines(t *testing.T) {
	// Counted options only, in area then item order:
	// 29.99×12 = 359.88; 15.00×0.5 = 7.50; 9.99×1 = 9.99. Sum 377.37.
	d := Document{Areas: []Area{
		area(1, option(10, OptionSelected, part(1, "100.00", "1"),
			part(2, "29.99", "12", named("Monitoring"), recurring),
			labor(3, "15.00", "0.5", named("Support"), recurring))),
		area(2, option(20, OptionDraft, fee(4, "9.99", "1", named("Cloud"), recurring)),
			option(21, OptionDeclined, part(5, "1.00", "1", named("Ignored"), recurring))),
	}}
	s := Summarize(&d)
	want := []RecurringLine{
		{Name: "Monitoring", SellPrice: m("29.99"), Quantity: q("12"), TotalSell: m("359.88")},
		{Name: "Support", SellPrice: m("15.00"), Quantity: q("0.5"), TotalSell: m("7.50")},
		{Name: "Cloud", SellPrice: m("9.99"), Quantity: q("1"), TotalSell: m("9.99")},
	}
	if !reflect.DeepEqual(s.Recurring, want) {
		t.Errorf("recurring = %+v\nwant %+v", s.Recurring, want)
	}
	if s.TotalRecurring != m("377.37") {
		t.Errorf("total recurring = %s, want 377.37", s.TotalRecurring)
	}
}

func TestItemAmounts(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  []string
	}{
		{name: "no items", items: nil, want: []string{}},
		{
			// 10×2 = 20; 5×1 = 5.
			name:  "flat lines",
			items: []Item{part(1, "10.00", "2"), labor(2, "5.00", "1")},
			want:  []string{"20", "5"},
		},
		{
			// Bundle 50 + child 20×2 = 40 + grandchild 10×1.5 = 15 + fee 5
			// = 110. The child is not combined: it reports its own 40.
			name: "bundle includes nested lines at any depth",
			items: []Item{part(1, "50.00", "1", combined), part(2, "20.00", "2", under(1)),
				labor(3, "10.00", "1.5", under(2)), fee(4, "5.00", "1", under(1)), part(5, "7.00", "1")},
			want: []string{"110", "40", "15", "5", "7"},
		},
		{
			// Inner bundle 10 + 1×3 = 13; outer 100 + 10 + 3 = 113.
			name: "bundle in a bundle",
			items: []Item{part(1, "100.00", "1", combined), part(2, "10.00", "1", under(1), combined),
				part(3, "1.00", "3", under(2))},
			want: []string{"113", "13", "3"},
		},
		{
			// The recurring child is not part of the bundle's amount.
			name:  "recurring child left out of the bundle",
			items: []Item{part(1, "100.00", "1", combined), part(2, "30.00", "1", under(1), recurring)},
			want:  []string{"100", "30"},
		},
		{
			// Children before their parent: 20 + 50 = 70.
			name:  "item order does not matter",
			items: []Item{part(2, "20.00", "1", under(1)), part(1, "50.00", "1", combined)},
			want:  []string{"20", "70"},
		},
		{
			name:  "parent not in the option",
			items: []Item{part(1, "5.00", "1", under(99))},
			want:  []string{"5"},
		},
		{
			name:  "bundle without children",
			items: []Item{part(1, "12.00", "1", combined)},
			want:  []string{"12"},
		},
		{
			// Each line rounds first: 0.05×0.1 → 0.01 twice, bundle 0.02.
			name:  "bundle sums rounded lines",
			items: []Item{part(1, "0.05", "0.1", combined), part(2, "0.05", "0.1", under(1))},
			want:  []string{"0.02", "0.01"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ItemAmounts(tc.items)
			want := make([]Money, len(tc.want))
			for i, s := range tc.want {
				want[i] = m(s)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestInCombined(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  []bool
	}{
		{name: "no items", items: nil, want: []bool{}},
		{name: "flat lines", items: []Item{part(1, "10.00", "2"), labor(2, "5.00", "1")}, want: []bool{false, false}},
		{
			name: "under a bundle at any depth",
			items: []Item{part(1, "50.00", "1", combined), part(2, "0", "2", under(1)),
				labor(3, "0", "1.5", under(2)), part(5, "7.00", "1")},
			want: []bool{false, true, true, false},
		},
		{
			// A package priced by item: the parent is not combined.
			name:  "under a parent that is not combined",
			items: []Item{part(1, "0", "1"), part(2, "20.00", "1", under(1))},
			want:  []bool{false, false},
		},
		{
			// A monitoring plan in a priced kit keeps its monthly price.
			name:  "recurring child of a one-time bundle",
			items: []Item{part(1, "100.00", "1", combined), part(2, "30.00", "1", under(1), recurring)},
			want:  []bool{false, false},
		},
		{name: "children before their parent", items: []Item{part(2, "0", "1", under(1)), part(1, "50.00", "1", combined)}, want: []bool{true, false}},
		{name: "parent not in the option", items: []Item{part(1, "5.00", "1", under(99))}, want: []bool{false}},
		{
			// Bad data: a cycle ends the walk.
			name:  "cycle",
			items: []Item{part(1, "1.00", "1", under(2)), part(2, "1.00", "1", under(1))},
			want:  []bool{false, false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := InCombined(tc.items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOptionTotals(t *testing.T) {
	tests := []struct {
		name                 string
		items                []Item
		total, recurringWant string
	}{
		{name: "empty", total: "0", recurringWant: "0"},
		{
			// 50 + 40 + 15 + 5 + 7 = 117: every line once.
			name: "bundle counted once",
			items: []Item{part(1, "50.00", "1", combined), part(2, "20.00", "2", under(1)),
				labor(3, "10.00", "1.5", under(2)), fee(4, "5.00", "1", under(1)), part(5, "7.00", "1")},
			total: "117", recurringWant: "0",
		},
		{
			// Total 100; recurring 29.99×12 = 359.88 + 10 = 369.88.
			name: "recurring lines apart",
			items: []Item{part(1, "100.00", "1"), part(2, "29.99", "12", recurring),
				labor(3, "10.00", "1", recurring)},
			total: "100", recurringWant: "369.88",
		},
		{
			name:  "recurring child of a bundle",
			items: []Item{part(1, "100.00", "1", combined), part(2, "30.00", "1", under(1), recurring)},
			total: "100", recurringWant: "30",
		},
	}
	for _, tc := range tests {
		o := option(1, OptionDraft, tc.items...)
		total, rec := OptionTotals(&o)
		if total != m(tc.total) || rec != m(tc.recurringWant) {
			t.Errorf("%s: got %s, %s; want %s, %s", tc.name, total, rec, tc.total, tc.recurringWant)
		}
	}
}

func TestCountedOption(t *testing.T) {
	tests := []struct {
		name     string
		statuses []OptionStatus
		want     int64 // option ID, 0 for none
	}{
		{"no options", nil, 0},
		{"one draft", []OptionStatus{OptionDraft}, 1},
		{"selected second", []OptionStatus{OptionDraft, OptionSelected}, 2},
		{"selected third", []OptionStatus{OptionDraft, OptionDeclined, OptionSelected}, 3},
		{"declined first still counts", []OptionStatus{OptionDeclined, OptionDraft}, 1},
		{"first of two selected", []OptionStatus{OptionDraft, OptionSelected, OptionSelected}, 2},
	}
	for _, tc := range tests {
		a := Area{ID: 1}
		for i, st := range tc.statuses {
			a.Options = append(a.Options, option(int64(i+1), st))
		}
		got := CountedOption(&a)
		switch {
		case tc.want == 0 && got != nil:
			t.Errorf("%s: got option %d, want none", tc.name, got.ID)
		case tc.want != 0 && (got == nil || got.ID != tc.want):
			t.Errorf("%s: got %v, want option %d", tc.name, got, tc.want)
		case got != nil && got != &a.Options[tc.want-1]:
			t.Errorf("%s: not a pointer into the area", tc.name)
		}
		// The view (what prints, exports and the desktop read) counts
		// the same option.
		av := AreaView{ID: a.ID}
		for _, o := range a.Options {
			av.Options = append(av.Options, OptionView{ID: o.ID, Status: o.Status})
		}
		if i := av.CountedIndex(); int64(i+1) != tc.want {
			t.Errorf("%s: the view counts index %d, want option %d", tc.name, i, tc.want)
		}
	}
}

func TestPaymentAmounts(t *testing.T) {
	pct := func(rate string) PaymentTerm { return PaymentTerm{Calculation: PaymentPercent, Percentage: r(rate)} }
	fixed := func(amount string) PaymentTerm { return PaymentTerm{Calculation: PaymentFixed, Amount: m(amount)} }
	rest := PaymentTerm{Calculation: PaymentRemainder}
	tests := []struct {
		name  string
		terms []PaymentTerm
		total string
		want  []string
	}{
		{name: "no payments", total: "100", want: []string{}},
		{
			// 50% of 1000.01 = 500.005 → 500.01; 25% = 250.0025 → 250.00;
			// rest 1000.01 − 750.01 = 250.00.
			name: "percentages and remainder", terms: []PaymentTerm{pct("50"), pct("25"), rest},
			total: "1000.01", want: []string{"500.01", "250.00", "250.00"},
		},
		{
			// 500 fixed, 10% of 2000 = 200, rest 1300.
			name: "fixed, percentage, remainder", terms: []PaymentTerm{fixed("500"), pct("10"), rest},
			total: "2000", want: []string{"500", "200", "1300"},
		},
		{
			// The remainder may come first: 40% = 40, rest 60.
			name: "remainder first", terms: []PaymentTerm{rest, pct("40")},
			total: "100", want: []string{"60", "40"},
		},
		{
			// The first remainder takes what is left, a second gets 0.
			name: "two remainders", terms: []PaymentTerm{pct("50"), rest, rest},
			total: "10", want: []string{"5", "5", "0"},
		},
		{
			// 33.3333% and 33.3334% of 100.00 both round to 33.33; with
			// no remainder term nothing absorbs the missing cent.
			name: "percentages only", terms: []PaymentTerm{pct("33.3333"), pct("33.3333"), pct("33.3334")},
			total: "100", want: []string{"33.33", "33.33", "33.33"},
		},
		{
			// An unknown calculation is a remainder: 100 − 30 = 70.
			name: "unknown calculation is a remainder", terms: []PaymentTerm{fixed("30"), {Calculation: ""}},
			total: "100", want: []string{"30", "70"},
		},
	}
	for _, tc := range tests {
		got := PaymentAmounts(PaymentSchedule{Payments: tc.terms}, m(tc.total))
		want := make([]Money, len(tc.want))
		for i, s := range tc.want {
			want[i] = m(s)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
}

// coDocument: parts 100.00 (cost 60) and labor 50.00 (cost 20), 10% off
// parts, parts taxed at 10%. Parts subtotal 100, discount 10, parts total
// 90, subtotal 140, tax (100−10) × 10% = 9.00, total 149.00.
func coDocument() Document {
	return with(oneOption(part(1, "100.00", "1", withCost("60")), labor(2, "50.00", "1", withCost("20"))),
		percentOff("10"), taxed(TaxOK, false, applyParts, "10", "0"))
}

func TestChangeOrderDetailView(t *testing.T) {
	co := &ChangeOrder{coDocument()}
	v := ChangeOrderDetailView(co, ViewOptions{ViewCosts: true})
	want := ChangeOrderFinancialSummary{
		PartsSubtotal: m("100"), PartsDiscountType: DiscountPercentage, PartsDiscountPercentage: r("10"),
		PartsDiscount: m("10"), PartsTotal: m("90"), LaborTotal: m("50"), ChangeOrderSubtotal: m("140"),
		ChangeOrderTotal: m("149"), Currency: USD,
	}
	got := v.FinancialSummary
	got.SalesTax = SalesTax{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("financial summary = %+v\nwant %+v", got, want)
	}
	if v.FinancialSummary.SalesTax.Total != m("9") || v.FinancialSummary.SalesTax.Calculation.PartsTotalTax != m("9") {
		t.Errorf("sales tax = %+v, want 9.00 on parts", v.FinancialSummary.SalesTax)
	}
	// Profit: 140 − 80 = 60 (42.8571%); parts 90 − 60 = 30 (33.3333%);
	// labor 50 − 20 = 30 (60%).
	p := v.Profit
	if p.Total == nil || *p.Total != m("60") || *p.Percentage != r("42.8571") ||
		*p.PartTotal != m("30") || *p.PartPercentage != r("33.3333") ||
		*p.LaborTotal != m("30") || *p.LaborPercentage != r("60") {
		t.Errorf("profit = %+v", p)
	}
	if s := ChangeOrderSummaryView(co); s.Total.ChangeOrderTotal != m("149") || s.Total.Currency != USD {
		t.Errorf("summary total = %+v, want 149.00 USD", s.Total)
	}
	if hidden := ChangeOrderDetailView(co, ViewOptions{}); hidden.Profit.Total != nil ||
		hidden.Areas[0].Options[0].Items[0].Cost != nil {
		t.Errorf("costs shown without ViewCosts: %+v", hidden.Profit)
	}
}

func TestDiscountInView(t *testing.T) {
	tests := []struct {
		name     string
		opt      docOpt
		wantType DiscountType
		wantPct  string
		wantDisc string
	}{
		// No pricing set: a percentage discount of 0.
		{"none", func(*Document) {}, DiscountPercentage, "0", "0"},
		// 12.5% of 120 = 15.
		{"percentage", percentOff("12.5"), DiscountPercentage, "12.5", "15"},
		// 30 of 120 is 25%.
		{"amount", amountOff("30"), DiscountAmount, "25", "30"},
		// 500 is capped at 120: 100%.
		{"capped amount", amountOff("500"), DiscountAmount, "100", "120"},
		// 10 of 120 = 8.3333…%.
		{"amount as a rounded rate", amountOff("10"), DiscountAmount, "8.3333", "10"},
	}
	for _, tc := range tests {
		p := &Proposal{Document: with(oneOption(part(1, "120.00", "1")), tc.opt)}
		fs := DetailView(p, ViewOptions{}).FinancialSummary
		if fs.PartsDiscountType != tc.wantType || fs.PartsDiscountPercentage != r(tc.wantPct) ||
			fs.PartsDiscount != m(tc.wantDisc) {
			t.Errorf("%s: got %s %s%% = %s; want %s %s%% = %s", tc.name, fs.PartsDiscountType,
				fs.PartsDiscountPercentage, fs.PartsDiscount, tc.wantType, tc.wantPct, tc.wantDisc)
		}
	}
}
