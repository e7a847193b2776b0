package app

// The financial rules. Every figure is derived from the document's items
// each time it is asked for; nothing here is stored.

// LineTotal is an item's own line: sell price times quantity, rounded to
// cents.
func (it *Item) LineTotal() Money { return it.SellPrice.MulQty(it.Quantity) }

// LineCost is the item's cost times quantity; ok is false when the cost is
// not known.
func (it *Item) LineCost() (cost Money, ok bool) {
	if it.Cost == nil {
		return 0, false
	}
	return it.Cost.MulQty(it.Quantity), true
}

// ItemAmounts returns the amount each item of an option reports, in item
// order. An item's amount is its own line; a combined-price item's amount
// also includes every item nested under it, at any depth, that is
// recurring exactly when the bundle is (so recurring lines never leak into
// a one-time bundle's price, nor one-time lines into a subscription's).
// Nested items still report their own lines, and option totals count each
// line once (see OptionTotals), so nothing is counted twice.
func ItemAmounts(items []Item) []Money {
	amounts := make([]Money, len(items))
	for i := range items {
		amounts[i] = items[i].LineTotal()
	}
	for i := range items {
		if items[i].ParentID == 0 {
			continue
		}
		line := items[i].LineTotal()
		// Walk up the parents; the bound guards against a cycle in bad data.
		parent := items[i].ParentID
		for depth := 0; parent != 0 && depth < len(items); depth++ {
			j := itemIndex(items, parent)
			if j < 0 {
				break
			}
			// A bundle gathers lines of its own kind: a recurring bundle
			// its recurring lines, any other bundle the rest.
			if items[j].IsCombinedPrice && items[j].IsRecurringService == items[i].IsRecurringService {
				amounts[j] += line
			}
			parent = items[j].ParentID
		}
	}
	return amounts
}

// InCombined reports, for each of an option's items, whether a parent's
// combined price already counts it (a component of a priced package):
// what the client pays for it is in that parent's figure, so a screen
// or a document says "included" where its own amount would stand. The
// walk is ItemAmounts': a bundle gathers lines of its own kind.
func InCombined(items []Item) []bool {
	out := make([]bool, len(items))
	for i := range items {
		parent := items[i].ParentID
		for depth := 0; parent != 0 && depth < len(items); depth++ {
			j := itemIndex(items, parent)
			if j < 0 {
				break
			}
			if items[j].IsCombinedPrice && items[j].IsRecurringService == items[i].IsRecurringService {
				out[i] = true
				break
			}
			parent = items[j].ParentID
		}
	}
	return out
}

func itemIndex(items []Item, id int64) int {
	for i := range items {
		if items[i].ID == id {
			return i
		}
	}
	return -1
}

// OptionTotals are an option's two totals: total leaves recurring services
// out and counts them in recurring instead.
func OptionTotals(o *Option) (total, recurring Money) {
	for i := range o.Items {
		if o.Items[i].IsRecurringService {
			recurring += o.Items[i].LineTotal()
		} else {
			total += o.Items[i].LineTotal()
		}
	}
	return total, recurring
}

// countedIndex is the one rule for which of an area's n options counts
// in the document's totals: the Selected one, else the first; -1 when
// the area has none. Totals, prints, exports and the desktop all reach it
// through CountedOption or AreaView.CountedIndex.
func countedIndex(n int, status func(i int) OptionStatus) int {
	for i := range n {
		if status(i) == OptionSelected {
			return i
		}
	}
	if n > 0 {
		return 0
	}
	return -1
}

// CountedOption is the option of an area whose items count in the
// document's totals: the Selected one, else the first. An area with no
// options counts nothing (nil).
func CountedOption(a *Area) *Option {
	i := countedIndex(len(a.Options), func(i int) OptionStatus { return a.Options[i].Status })
	if i < 0 {
		return nil
	}
	return &a.Options[i]
}

// CountedIndex is the index in a.Options of the option counted in the
// totals (CountedOption, on the view); -1 when the area has none.
func (a *AreaView) CountedIndex() int {
	return countedIndex(len(a.Options), func(i int) OptionStatus { return a.Options[i].Status })
}

// CategoryTax is the tax on one category: its base and the two rate
// amounts, each rounded on its own.
type CategoryTax struct {
	Base   Money
	First  Money
	Second Money
}

// Total is the category's whole tax.
func (c CategoryTax) Total() Money { return c.First + c.Second }

// RecurringLine is one recurring service of the counted options.
type RecurringLine struct {
	Name      string
	SellPrice Money
	Quantity  Quantity
	TotalSell Money
}

// ProfitFigures are the profit figures; they exist only for readers who
// may see costs.
type ProfitFigures struct {
	Total, PartTotal, LaborTotal                Money
	Percentage, PartPercentage, LaborPercentage Rate
}

// Summary is every derived figure of a document.
type Summary struct {
	PartsSubtotal          Money
	TaxableParts           Money
	PartsDiscount          Money
	PartsDiscountTaxable   Money
	PartsDiscountTaxExempt Money
	PartsTotal             Money
	LaborTotal             Money
	FeeTotal               Money
	Subtotal               Money
	Tax                    [numCategories]CategoryTax
	TaxTotal               Money
	Total                  Money
	Cost                   [numCategories]Money
	Profit                 ProfitFigures
	Recurring              []RecurringLine
	TotalRecurring         Money
}

// TaxFor is the tax of one category.
func (s *Summary) TaxFor(c Category) CategoryTax { return s.Tax[c] }

// Summarize computes the financial summary of a document from the counted
// option of each area.
func Summarize(d *Document) Summary {
	var s Summary
	// known is the sell of lines whose cost is known: profit is measured
	// on those alone, since an unknown cost is not a zero cost.
	var sell, taxable, known [numCategories]Money
	for ai := range d.Areas {
		o := CountedOption(&d.Areas[ai])
		if o == nil {
			continue
		}
		for ii := range o.Items {
			it := &o.Items[ii]
			line := it.LineTotal()
			if it.IsRecurringService {
				s.Recurring = append(s.Recurring, RecurringLine{
					Name: it.Name, SellPrice: it.SellPrice, Quantity: it.Quantity, TotalSell: line})
				s.TotalRecurring += line
				continue
			}
			c := it.ItemType.Category()
			sell[c] += line
			if !it.IsTaxExempt {
				taxable[c] += line
			}
			if cost, ok := it.LineCost(); ok {
				s.Cost[c] += cost
				known[c] += line
			}
		}
	}

	s.PartsSubtotal = sell[CategoryParts]
	s.TaxableParts = taxable[CategoryParts]
	s.PartsDiscount = partsDiscount(d.Pricing, s.PartsSubtotal)
	// Credit lines can make a share fall outside the discount; keep both
	// parts of the split between zero and the whole.
	s.PartsDiscountTaxable = clamp(s.PartsDiscount.Share(s.TaxableParts, s.PartsSubtotal), 0, s.PartsDiscount)
	s.PartsDiscountTaxExempt = s.PartsDiscount - s.PartsDiscountTaxable
	s.PartsTotal = s.PartsSubtotal - s.PartsDiscount
	s.LaborTotal = sell[CategoryLabor]
	s.FeeTotal = sell[CategoryFees]
	s.Subtotal = s.PartsTotal + s.LaborTotal + s.FeeTotal

	bases := taxable
	bases[CategoryParts] -= s.PartsDiscountTaxable
	if d.Tax.Status == TaxOK {
		for c := range numCategories {
			if !d.Tax.Applies(c) {
				continue
			}
			r := d.Tax.rates(c)
			base := max(bases[c], 0) // credits never make a negative tax
			t := CategoryTax{Base: base, First: base.Percent(r.Rate)}
			if d.Tax.HasMultipleTaxSupport {
				t.Second = base.Percent(r.Second)
			}
			s.Tax[c] = t
			s.TaxTotal += t.Total()
		}
	}
	s.Total = s.Subtotal + s.TaxTotal

	s.Profit = profit(&s, known)
	return s
}

// profit measures the margin on the lines whose cost is known. Parts
// carry their share of the discount; with every cost known the figures
// are simply sell totals less costs.
func profit(s *Summary, known [numCategories]Money) ProfitFigures {
	partsDiscount := s.PartsDiscount.Share(known[CategoryParts], s.PartsSubtotal)
	partsSell := known[CategoryParts] - partsDiscount
	sell := partsSell + known[CategoryLabor] + known[CategoryFees]
	totalCost := s.Cost[CategoryParts] + s.Cost[CategoryLabor] + s.Cost[CategoryFees]
	p := ProfitFigures{
		Total:      sell - totalCost,
		PartTotal:  partsSell - s.Cost[CategoryParts],
		LaborTotal: known[CategoryLabor] - s.Cost[CategoryLabor],
	}
	p.Percentage = RateOf(p.Total, sell)
	p.PartPercentage = RateOf(p.PartTotal, partsSell)
	p.LaborPercentage = RateOf(p.LaborTotal, known[CategoryLabor])
	return p
}

func clamp(v, lo, hi Money) Money { return max(lo, min(v, hi)) }

// partsDiscount is the discount on a parts subtotal: a percentage of it,
// or a fixed amount that never exceeds it (a discount cannot make the
// parts total negative).
func partsDiscount(p Pricing, subtotal Money) Money {
	if subtotal <= 0 {
		return 0
	}
	var d Money
	switch p.DiscountType {
	case DiscountAmount:
		d = p.DiscountAmount
	default:
		d = subtotal.Percent(p.DiscountPercentage)
	}
	return max(0, min(d, subtotal))
}

// PaymentAmounts resolves a payment schedule against a total: percentage
// payments are that share of the total, fixed ones their amount, and a
// remainder payment takes what the others leave.
func PaymentAmounts(ps PaymentSchedule, total Money) []Money {
	out := make([]Money, len(ps.Payments))
	var assigned Money
	for i, p := range ps.Payments {
		switch p.Calculation {
		case PaymentPercent:
			out[i] = total.Percent(p.Percentage)
		case PaymentFixed:
			out[i] = p.Amount
		default:
			continue
		}
		assigned += out[i]
	}
	for i, p := range ps.Payments {
		if p.Calculation != PaymentPercent && p.Calculation != PaymentFixed {
			out[i] = max(total-assigned, 0)
			assigned += out[i]
		}
	}
	return out
}
