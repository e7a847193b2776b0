package app

import (
	"cmp"
	"encoding/json"
	"flag"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"testing/quick"
)

// The property tests run a bounded number of random cases from a fixed
// seed, so plain `go test` is quick and repeatable. Explore further with
// e.g. `go test -run Property -quick.seed=7 -quick.count=20000 ./app/`.
var (
	quickSeed  = flag.Int64("quick.seed", 20260301, "seed of the property tests' random documents")
	quickCount = flag.Int("quick.count", 300, "cases per property test")
)

func quickConfig(t *testing.T) *quick.Config {
	t.Helper()
	t.Logf("seed %d, %d cases", *quickSeed, *quickCount)
	return &quick.Config{MaxCount: *quickCount, Rand: rand.New(rand.NewSource(*quickSeed))}
}

func checkProperty(t *testing.T, f any) {
	t.Helper()
	if err := quick.Check(f, quickConfig(t)); err != nil {
		t.Error(err)
	}
}

// checkSlowProperty is checkProperty with a third of the cases, for
// properties that encode whole documents as JSON (slow under -race).
func checkSlowProperty(t *testing.T, f any) {
	t.Helper()
	c := quickConfig(t)
	c.MaxCount = max(1, c.MaxCount/3)
	if err := quick.Check(f, c); err != nil {
		t.Error(err)
	}
}

func TestPropertyFixedPointJSONRoundTrip(t *testing.T) {
	roundTrip := func(v, into any, quoted bool) bool {
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		if quoted { // a form-encoded body sends the number as a string
			b = []byte(strconv.Quote(string(b)))
		}
		if err := json.Unmarshal(b, into); err != nil {
			t.Logf("%s: %v", b, err)
			return false
		}
		return reflect.DeepEqual(reflect.ValueOf(into).Elem().Interface(), v)
	}
	checkProperty(t, func(a, b, c int64, quoted bool) bool {
		var mm Money
		var qq Quantity
		var rr Rate
		var all fixedJSON
		return roundTrip(Money(a), &mm, quoted) && roundTrip(Quantity(b), &qq, quoted) &&
			roundTrip(Rate(c), &rr, quoted) && roundTrip(fixedJSON{Money(a), Quantity(b), Rate(c)}, &all, false)
	})
	// Small values too: quick's int64s are almost all huge.
	checkProperty(t, func(a, b, c int16) bool {
		var mm Money
		var qq Quantity
		var rr Rate
		return roundTrip(Money(a), &mm, false) && roundTrip(Quantity(b), &qq, true) && roundTrip(Rate(c), &rr, false)
	})
}

func TestPropertySummaryIdentities(t *testing.T) {
	checkProperty(t, func(g genDocument) bool {
		d := &g.Document
		s := Summarize(d)
		ok := true
		fail := func(what string, args ...any) {
			t.Errorf(what, args...)
			ok = false
		}
		if s.PartsTotal != s.PartsSubtotal-s.PartsDiscount {
			fail("partsTotal %s ≠ %s − %s", s.PartsTotal, s.PartsSubtotal, s.PartsDiscount)
		}
		if s.PartsDiscountTaxable+s.PartsDiscountTaxExempt != s.PartsDiscount {
			fail("discount %s ≠ %s + %s", s.PartsDiscount, s.PartsDiscountTaxable, s.PartsDiscountTaxExempt)
		}
		if s.PartsDiscount < 0 || s.PartsDiscount > max(0, s.PartsSubtotal) {
			fail("discount %s outside [0, %s]", s.PartsDiscount, s.PartsSubtotal)
		}
		if s.Subtotal != s.PartsTotal+s.LaborTotal+s.FeeTotal {
			fail("subtotal %s ≠ %s + %s + %s", s.Subtotal, s.PartsTotal, s.LaborTotal, s.FeeTotal)
		}
		if s.Total != s.Subtotal+s.TaxTotal {
			fail("total %s ≠ %s + %s", s.Total, s.Subtotal, s.TaxTotal)
		}
		var taxSum Money
		for c := range numCategories {
			taxSum += s.Tax[c].Total()
			if (d.Tax.Status != TaxOK || !d.Tax.Applies(c)) && s.Tax[c] != (CategoryTax{}) {
				fail("category %d taxed although status %q applyTo %v", c, d.Tax.Status, d.Tax.ApplyTo)
			}
			if !d.Tax.HasMultipleTaxSupport && s.Tax[c].Second != 0 {
				fail("category %d has a second tax without multiple-tax support", c)
			}
		}
		if s.TaxTotal != taxSum {
			fail("tax total %s ≠ sum of categories %s", s.TaxTotal, taxSum)
		}
		// The counted options' totals add up to the undiscounted subtotal,
		// and their recurring totals to the summary's.
		var optTotal, optRecurring, lines Money
		for i := range d.Areas {
			if o := CountedOption(&d.Areas[i]); o != nil {
				total, rec := OptionTotals(o)
				optTotal += total
				optRecurring += rec
			}
		}
		if optTotal != s.PartsSubtotal+s.LaborTotal+s.FeeTotal {
			fail("counted option totals %s ≠ %s + %s + %s", optTotal, s.PartsSubtotal, s.LaborTotal, s.FeeTotal)
		}
		for _, l := range s.Recurring {
			lines += l.TotalSell
		}
		if s.TotalRecurring != optRecurring || s.TotalRecurring != lines {
			fail("total recurring %s; options say %s, lines %s", s.TotalRecurring, optRecurring, lines)
		}
		// Costs are those of the counted, non-recurring lines; profit is
		// measured on the lines whose cost is known, parts net of their
		// share of the discount.
		var cost, knownSell [numCategories]Money
		for i := range d.Areas {
			if o := CountedOption(&d.Areas[i]); o != nil {
				for _, it := range o.Items {
					if c, known := it.LineCost(); known && !it.IsRecurringService {
						cost[it.ItemType.Category()] += c
						knownSell[it.ItemType.Category()] += it.LineTotal()
					}
				}
			}
		}
		if s.Cost != cost {
			fail("costs %v, want %v", s.Cost, cost)
		}
		partsShare := s.PartsDiscount.Share(knownSell[0], s.PartsSubtotal)
		wantProfit := knownSell[0] - partsShare + knownSell[1] + knownSell[2] - (cost[0] + cost[1] + cost[2])
		if s.Profit.Total != wantProfit {
			fail("profit %s ≠ known sell %v − parts discount share %s − costs %v", s.Profit.Total, knownSell, partsShare, cost)
		}
		if s.Profit.Total != s.Profit.PartTotal+s.Profit.LaborTotal+(knownSell[2]-cost[2]) {
			fail("profit %s ≠ parts %s + labor %s + fees", s.Profit.Total, s.Profit.PartTotal, s.Profit.LaborTotal)
		}
		return ok
	})
}

// summaryKey is every figure of a Summary, with recurring lines in a
// canonical order (their order follows the items').
func summaryKey(s Summary) Summary {
	s.Recurring = slices.Clone(s.Recurring)
	slices.SortFunc(s.Recurring, func(a, b RecurringLine) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.SellPrice, b.SellPrice),
			cmp.Compare(a.Quantity, b.Quantity))
	})
	return s
}

// amountsByID maps each item of an option to the amount it reports.
func amountsByID(o *Option) map[int64]Money {
	amounts := ItemAmounts(o.Items)
	out := make(map[int64]Money, len(amounts))
	for i, a := range amounts {
		out[o.Items[i].ID] = a
	}
	return out
}

func TestPropertyShuffleKeepsFigures(t *testing.T) {
	checkProperty(t, func(g genDocument, seed int64) bool {
		d := &g.Document
		shuffled := d.clone()
		rnd := rand.New(rand.NewSource(seed))
		for ai := range shuffled.Areas {
			for oi := range shuffled.Areas[ai].Options {
				items := shuffled.Areas[ai].Options[oi].Items
				rnd.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
			}
		}
		if !reflect.DeepEqual(summaryKey(Summarize(d)), summaryKey(Summarize(&shuffled))) {
			t.Errorf("summary changed by shuffling items:\n%+v\n%+v", Summarize(d), Summarize(&shuffled))
			return false
		}
		for ai := range d.Areas {
			for oi := range d.Areas[ai].Options {
				before, after := &d.Areas[ai].Options[oi], &shuffled.Areas[ai].Options[oi]
				t1, r1 := OptionTotals(before)
				t2, r2 := OptionTotals(after)
				if t1 != t2 || r1 != r2 || !reflect.DeepEqual(amountsByID(before), amountsByID(after)) {
					t.Errorf("option %d changed by shuffling: %s/%s vs %s/%s", before.ID, t1, r1, t2, r2)
					return false
				}
			}
		}
		return true
	})
}

func TestPropertyRecurringItemLeavesTotals(t *testing.T) {
	checkProperty(t, func(g genDocument, pick uint16, price int32, qty uint32, nested bool) bool {
		d := &g.Document
		var opts []*Option
		for ai := range d.Areas {
			for oi := range d.Areas[ai].Options {
				opts = append(opts, &d.Areas[ai].Options[oi])
			}
		}
		if len(opts) == 0 {
			return true
		}
		before := Summarize(d)
		o := opts[int(pick)%len(opts)]
		counted := false
		for ai := range d.Areas {
			counted = counted || CountedOption(&d.Areas[ai]) == o
		}
		total0, rec0 := OptionTotals(o)
		amounts0 := amountsByID(o)
		it := Item{ID: 1 << 40, ItemType: ItemTypes[int(pick)%len(ItemTypes)], SellPrice: Money(price % 1000000),
			Quantity: Quantity(qty % uint32(1000*OneUnit)), IsRecurringService: true, IsTaxExempt: pick%2 == 0,
			Cost: mp("12.34")}
		if nested && len(o.Items) > 0 {
			it.ParentID = o.Items[int(pick)%len(o.Items)].ID
		}
		o.Items = append(o.Items, it)
		line := it.LineTotal()

		total1, rec1 := OptionTotals(o)
		if total1 != total0 || rec1 != rec0+line {
			t.Errorf("option totals %s/%s → %s/%s after adding recurring %s", total0, rec0, total1, rec1, line)
			return false
		}
		amounts1 := amountsByID(o)
		delete(amounts1, it.ID)
		// A recurring bundle gathers recurring lines, so only the amounts
		// of one-time items must stay as they were.
		for _, x := range o.Items {
			if x.IsRecurringService {
				delete(amounts0, x.ID)
				delete(amounts1, x.ID)
			}
		}
		if !reflect.DeepEqual(amounts0, amounts1) {
			t.Errorf("item amounts changed: %v → %v", amounts0, amounts1)
			return false
		}
		after := Summarize(d)
		wantRecurring := before.TotalRecurring
		if counted {
			wantRecurring += line
		}
		if after.TotalRecurring != wantRecurring {
			t.Errorf("total recurring %s, want %s", after.TotalRecurring, wantRecurring)
			return false
		}
		a, b := figuresOf(before), figuresOf(after)
		a.TotalRecurring, b.TotalRecurring = 0, 0
		if a != b || before.Profit != after.Profit || before.Cost != after.Cost {
			t.Errorf("summary changed by a recurring item:\n%+v\n%+v", a, b)
			return false
		}
		return true
	})
}

// stripCosts removes every cost and the profit object from a decoded
// detail: what is left must not depend on the reader's permissions.
func stripCosts(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "cost")
		delete(x, "profit")
		for k, e := range x {
			x[k] = stripCosts(e)
		}
	case []any:
		for i, e := range x {
			x[i] = stripCosts(e)
		}
	}
	return v
}

func TestPropertyHidingCostsKeepsSellFigures(t *testing.T) {
	checkSlowProperty(t, func(g genDocument) bool {
		p := &Proposal{Document: g.Document}
		p.ChangeOrders = []ChangeOrder{{g.Document.clone()}}
		shown := decodeNumbers(t, DetailView(p, ViewOptions{ViewCosts: true}))
		hidden := decodeNumbers(t, DetailView(p, ViewOptions{ViewCosts: false}))

		// Hidden: every cost and profit figure is null.
		for k, v := range hidden.(map[string]any)["profit"].(map[string]any) {
			if k != "isProfitIncludeCos" && v != nil {
				t.Errorf("hidden profit %s = %v", k, v)
				return false
			}
		}
		for _, a := range hidden.(map[string]any)["areas"].([]any) {
			for _, o := range a.(map[string]any)["options"].([]any) {
				for _, it := range o.(map[string]any)["items"].([]any) {
					if c := it.(map[string]any)["cost"]; c != nil {
						t.Errorf("hidden cost = %v", c)
						return false
					}
				}
			}
		}
		if !reflect.DeepEqual(stripCosts(shown), stripCosts(hidden)) {
			t.Errorf("sell figures depend on ViewCosts")
			return false
		}
		co := &p.ChangeOrders[0]
		coShown := decodeNumbers(t, ChangeOrderDetailView(co, ViewOptions{ViewCosts: true}))
		coHidden := decodeNumbers(t, ChangeOrderDetailView(co, ViewOptions{}))
		if !reflect.DeepEqual(stripCosts(coShown), stripCosts(coHidden)) {
			t.Errorf("change-order sell figures depend on ViewCosts")
			return false
		}
		return true
	})
}

func TestPropertyDetailSummaryMatchesSummarize(t *testing.T) {
	checkProperty(t, func(g genDocument, viewCosts bool) bool {
		p := &Proposal{Document: g.Document}
		s := Summarize(&p.Document)
		v := DetailView(p, ViewOptions{ViewCosts: viewCosts})
		fs := v.FinancialSummary
		tax := fs.SalesTax
		got := figures{
			PartsSubtotal: fs.PartsSubtotal, TaxableParts: s.TaxableParts, PartsDiscount: fs.PartsDiscount,
			PartsDiscountTaxable: fs.PartsDiscountTaxable, PartsDiscountTaxExempt: fs.PartsDiscountTaxExempt,
			PartsTotal: fs.PartsTotal, LaborTotal: fs.LaborTotal, FeeTotal: fs.FeeTotal, Subtotal: fs.ProposalSubtotal,
			PartsTax: s.Tax[CategoryParts].First, PartsTax2: s.Tax[CategoryParts].Second,
			LaborTax: s.Tax[CategoryLabor].First, LaborTax2: s.Tax[CategoryLabor].Second,
			FeeTax: s.Tax[CategoryFees].First, FeeTax2: s.Tax[CategoryFees].Second,
			TaxTotal: tax.Total, Total: fs.ProposalTotal, TotalRecurring: v.RecurringServices.TotalRecurringService,
		}
		if got != figuresOf(s) {
			t.Errorf("detail %+v\nsummary %+v", got, figuresOf(s))
			return false
		}
		c := tax.Calculation
		if c.PartsTotalTax != s.Tax[CategoryParts].Total() || c.LaborTotalTax != s.Tax[CategoryLabor].Total() ||
			c.FeeTotalTax != s.Tax[CategoryFees].Total() {
			t.Errorf("category taxes %s/%s/%s, summary %+v", c.PartsTotalTax, c.LaborTotalTax, c.FeeTotalTax, s.Tax)
			return false
		}
		if len(v.RecurringServices.Items) != len(s.Recurring) {
			t.Errorf("%d recurring items, summary has %d", len(v.RecurringServices.Items), len(s.Recurring))
			return false
		}
		for i, l := range s.Recurring {
			if RecurringLine(v.RecurringServices.Items[i]) != l {
				t.Errorf("recurring item %d = %+v, want %+v", i, v.RecurringServices.Items[i], l)
				return false
			}
		}
		if viewCosts {
			pr := v.Profit
			if *pr.Total != s.Profit.Total || *pr.PartTotal != s.Profit.PartTotal || *pr.LaborTotal != s.Profit.LaborTotal ||
				*pr.Percentage != s.Profit.Percentage || *pr.PartPercentage != s.Profit.PartPercentage ||
				*pr.LaborPercentage != s.Profit.LaborPercentage {
				t.Errorf("profit %+v, summary %+v", pr, s.Profit)
				return false
			}
		}
		// Each option reports its own totals and item amounts.
		for ai, a := range v.Areas {
			for oi, ov := range a.Options {
				o := &p.Areas[ai].Options[oi]
				total, rec := OptionTotals(o)
				amounts := ItemAmounts(o.Items)
				if ov.Total != total || ov.TotalRecurringService != rec {
					t.Errorf("option %d: view %s/%s, rules %s/%s", o.ID, ov.Total, ov.TotalRecurringService, total, rec)
					return false
				}
				for k, iv := range ov.Items {
					if iv.Total.Amount != amounts[k] || iv.Total.IsCombinedPrice != o.Items[k].IsCombinedPrice {
						t.Errorf("item %d: view %+v, amount %s", iv.ID, iv.Total, amounts[k])
						return false
					}
				}
			}
		}
		// The list item and a change order of the same document agree.
		if li := ListItemView(p); li.Total.ProposalTotal != s.Total {
			t.Errorf("list total %s, want %s", li.Total.ProposalTotal, s.Total)
			return false
		}
		co := ChangeOrderDetailView(&ChangeOrder{p.Document}, ViewOptions{ViewCosts: viewCosts}).FinancialSummary
		if co.ChangeOrderSubtotal != s.Subtotal || co.ChangeOrderTotal != s.Total || co.PartsTotal != s.PartsTotal {
			t.Errorf("change order %+v, summary %+v", co, figuresOf(s))
			return false
		}
		return true
	})
}
