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

// lineTotalText is a row's total: a recurring line's is per month, "/mo"
// to fit the column beside the others' one-time totals.
func lineTotalText(it *app.Item, amount app.Money, cur app.Currency) string {
	if it.IsRecurringService {
		return app.FormatMoney(amount, cur) + "/mo"
	}
	return app.FormatMoney(amount, cur)
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
