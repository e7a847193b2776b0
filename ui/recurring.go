package ui

import (
	"strings"

	"proposaldesk/app"
)

// Recurring services (monitoring, care plans) are monthly: their lines,
// their options' recurring totals and the summary say "/month", apart
// from the one-time figures (app.OptionTotals, app.Summarize count
// them apart).

// recurringMenuLabel is the item menu's check entry that makes a line
// recurring or one-time.
const recurringMenuLabel = "Recurring service (monthly)"

// perMonth is a monthly amount in words: "$29.00/month".
func perMonth(m app.Money, cur app.Currency) string { return app.FormatMoney(m, cur) + "/month" }

// lineTotals are an option's rows' totals as shown: a recurring line's
// per month, "/mo" to fit the column beside the one-time totals; a line
// with no amount of its own that a parent's combined price counts (a
// priced package's component) "included", as the client PDF says,
// rather than a "$0.00" that reads as free.
func lineTotals(items []app.Item, cur app.Currency) []string {
	amounts, incl := app.ItemAmounts(items), app.InCombined(items)
	out := make([]string, len(items))
	for i := range items {
		switch {
		case incl[i] && amounts[i] == 0:
			out[i] = "included"
		case items[i].IsRecurringService:
			out[i] = app.FormatMoney(amounts[i], cur) + "/mo"
		default:
			out[i] = app.FormatMoney(amounts[i], cur)
		}
	}
	return out
}

// taxLabel is the summary's sales-tax line: the status's words and,
// when tax is computed, the rate ("Sales tax (6.25%)"), one rate per
// taxed category when they differ ("Sales tax (parts 6.25%, labor 4%)").
func taxLabel(t *app.SalesTax) string {
	label := t.TaxStatus.Label()
	if t.TaxStatus != app.TaxOK {
		return label
	}
	if r := taxRateWords(&t.Calculation); r != "" {
		label += " (" + r + ")"
	}
	return label
}

// taxRateWords are the rates of the categories tax applies to (a second
// rate, where the location has one, adds to the first).
func taxRateWords(c *app.TaxCalculation) string {
	type cat struct {
		what string
		rate app.Rate
	}
	var cats []cat
	for _, a := range c.ApplyTo {
		switch a {
		case app.ApplyParts:
			cats = append(cats, cat{"parts", c.PartsTax + c.PartsTax2})
		case app.ApplyLabor:
			cats = append(cats, cat{"labor", c.LaborTax + c.LaborTax2})
		case app.ApplyFees:
			cats = append(cats, cat{"fees", c.FeeTax + c.FeeTax2})
		}
	}
	if len(cats) == 0 {
		return ""
	}
	same := true
	for _, x := range cats[1:] {
		same = same && x.rate == cats[0].rate
	}
	if same {
		return cats[0].rate.String() + "%"
	}
	parts := make([]string, len(cats))
	for i, x := range cats {
		parts[i] = x.what + " " + x.rate.String() + "%"
	}
	return strings.Join(parts, ", ")
}
