package report

import (
	"proposaldesk/app"
)

// Document is what a rendered document shows, taken from a proposal
// detail or a change-order detail.
type Document struct {
	// Title is "Proposal" or "Change order".
	Title string
	// Number is the proposal's number; for a change order, Parent is the
	// proposal's number and Number the change order's.
	Number, Parent     int64
	Name               string
	Status             app.Status
	Date               app.Time
	Customer           *app.Customer
	Dealer             app.Dealer
	ProjectDescription string
	InternalNotes      string
	Terms              string
	Areas              []app.AreaView
	Totals             Totals
	Recurring          app.RecurringServices
	Payments           app.PaymentScheduleView
	Currency           app.Currency
}

// Totals are the financial summary's figures a client sees.
type Totals struct {
	PartsSubtotal      app.Money
	DiscountType       app.DiscountType
	DiscountPercentage app.Rate
	PartsDiscount      app.Money
	PartsTotal         app.Money
	LaborTotal         app.Money
	FeeTotal           app.Money
	Subtotal           app.Money
	Tax                app.SalesTax
	Total              app.Money
}

// FromProposal is the document of a proposal detail.
func FromProposal(d *app.ProposalDetail) Document {
	fs := &d.FinancialSummary
	return Document{
		Title: "Proposal", Number: d.Number, Name: d.Name, Status: d.Status, Date: docDate(d.CreatedDate, d.LastSubmittedDate),
		Customer: d.Customer, Dealer: d.Dealer, ProjectDescription: d.ProjectDescription,
		InternalNotes: d.InternalNotes, Terms: d.ProjectTerms, Areas: d.Areas,
		Totals: Totals{
			PartsSubtotal: fs.PartsSubtotal, DiscountType: fs.PartsDiscountType, DiscountPercentage: fs.PartsDiscountPercentage,
			PartsDiscount: fs.PartsDiscount, PartsTotal: fs.PartsTotal, LaborTotal: fs.LaborTotal, FeeTotal: fs.FeeTotal,
			Subtotal: fs.ProposalSubtotal, Tax: fs.SalesTax, Total: fs.ProposalTotal,
		},
		Recurring: d.RecurringServices, Payments: d.PaymentSchedule, Currency: fs.Currency,
	}
}

// FromChangeOrder is the document of a change order of the proposal
// numbered proposalNumber.
func FromChangeOrder(d *app.ChangeOrderDetail, proposalNumber int64) Document {
	fs := &d.FinancialSummary
	return Document{
		Title: "Change order", Number: d.Number, Parent: proposalNumber, Name: d.Name, Status: d.Status,
		Date:     docDate(d.CreatedDate, d.LastSubmittedDate),
		Customer: d.Customer, Dealer: d.Dealer, ProjectDescription: d.ProjectDescription,
		InternalNotes: d.InternalNotes, Terms: d.ProjectTerms, Areas: d.Areas,
		Totals: Totals{
			PartsSubtotal: fs.PartsSubtotal, DiscountType: fs.PartsDiscountType, DiscountPercentage: fs.PartsDiscountPercentage,
			PartsDiscount: fs.PartsDiscount, PartsTotal: fs.PartsTotal, LaborTotal: fs.LaborTotal, FeeTotal: fs.FeeTotal,
			Subtotal: fs.ChangeOrderSubtotal, Tax: fs.SalesTax, Total: fs.ChangeOrderTotal,
		},
		Recurring: d.RecurringServices, Payments: d.PaymentSchedule, Currency: fs.Currency,
	}
}

// docDate is the date a document carries: when it was last submitted to
// the client, else when it was created.
func docDate(created, submitted app.Time) app.Time {
	if !submitted.IsZero() {
		return submitted
	}
	return created
}

// heading is "Proposal 1001" or "Change order 2 to proposal 1001".
func (d *Document) heading() string {
	if d.Parent != 0 {
		return d.Title + " " + app.FormatID(d.Number) + " to proposal " + app.FormatID(d.Parent)
	}
	return d.Title + " " + app.FormatID(d.Number)
}
