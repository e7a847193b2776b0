package clientpage

import (
	"strings"

	"proposaldesk/app"
	"proposaldesk/app/report"
)

// page is what the template shows.
type page struct {
	Token      string
	Title      string
	Dealer     string
	Number     string
	Name       string
	Customer   string
	Message    string
	Project    string
	Terms      string
	Areas      []area
	Totals     []row
	Recurring  []row
	State      app.LinkState
	StateWords string
	Open       bool
	Consent    string
	ConsentVer string
	Error      string
	FullName   string
	Reason     string
	Decided    bool
	Decision   string
}

type area struct {
	ID        int64
	Name      string
	Choosable bool
	Options   []option
}

type option struct {
	ID          int64
	Label       string
	Description string
	Chosen      bool
	Total       string
	Items       []item
}

type item struct {
	Name, Detail, Qty, Price, Total, Note string
	Nested, Recurring                     bool
}

type row struct{ Label, Amount string }

// buildPage lays out the snapshot with the client's choices, its totals
// recomputed by app.
func buildPage(snap *app.Proposal, choices map[int64]int64, link *app.ClientLink) page {
	chosen := app.WithChoices(snap, choices)
	d := app.DetailView(chosen, app.ViewOptions{})
	cur := d.FinancialSummary.Currency
	money := func(m app.Money) string { return app.FormatMoney(m, cur) }
	pg := page{
		Dealer: d.Dealer.CompanyName, Number: app.FormatID(d.Number), Name: d.Name,
		Project: d.ProjectDescription, Terms: d.ProjectTerms,
		Consent: app.ConsentText, ConsentVer: app.ConsentVersion,
	}
	if link != nil {
		pg.Message = link.Message
	}
	if c := d.Customer; c != nil {
		pg.Customer = c.DisplayName()
	}
	for _, a := range d.Areas {
		pa := area{ID: a.ID, Name: a.Name, Choosable: len(a.Options) > 1}
		counted := a.CountedIndex()
		for i, o := range a.Options {
			po := option{ID: o.ID, Label: optionLabel(len(a.Options), i), Description: o.ClientDescription,
				Chosen: i == counted, Total: money(o.Total)}
			for _, it := range o.Items {
				detail := strings.TrimSpace(strings.TrimSpace(it.Brand + " " + it.Model))
				po.Items = append(po.Items, item{Name: it.Name, Detail: detail, Qty: report.Quantity(it.Quantity),
					Price: money(it.SellPrice), Total: money(it.Total.Amount), Note: it.ClientNote,
					Nested: it.ParentID != 0, Recurring: it.IsRecurringService})
			}
			pa.Options = append(pa.Options, po)
		}
		pg.Areas = append(pg.Areas, pa)
	}
	fs := &d.FinancialSummary
	pg.Totals = append(pg.Totals, row{"Parts", money(fs.PartsSubtotal)})
	if fs.PartsDiscount != 0 {
		pg.Totals = append(pg.Totals, row{"Parts discount", "−" + money(fs.PartsDiscount)})
	}
	pg.Totals = append(pg.Totals, row{"Labor", money(fs.LaborTotal)}, row{"Fees", money(fs.FeeTotal)},
		row{"Subtotal", money(fs.ProposalSubtotal)}, row{"Sales tax", money(fs.SalesTax.Total)},
		row{"Total", money(fs.ProposalTotal)})
	for _, r := range d.RecurringServices.Items {
		pg.Recurring = append(pg.Recurring, row{r.Name + " × " + report.Quantity(r.Quantity), money(r.TotalSell) + " / month"})
	}
	if len(pg.Recurring) > 0 {
		pg.Recurring = append(pg.Recurring, row{"Monthly total", money(d.RecurringServices.TotalRecurringService) + " / month"})
	}
	return pg
}

func optionLabel(n, i int) string {
	if n == 1 {
		return "Included"
	}
	return "Option " + string(rune('A'+i))
}

// stateWords says what a link that decides nothing is.
func stateWords(s app.LinkState) string {
	switch s {
	case app.LinkReplaced:
		return "This link has been replaced by a newer one. Please use the most recent link you received; this one decides nothing."
	case app.LinkExpired:
		return "This proposal has expired, so it can no longer be accepted or declined here. Please contact the dealer for a new one."
	case app.LinkAccepted:
		return "This proposal has been accepted."
	case app.LinkDeclined:
		return "This proposal has been declined."
	case app.LinkClosed:
		return "The dealer has withdrawn this proposal for changes, so it cannot be decided here now. They will send you a new link."
	}
	return ""
}
