package syncer

import (
	"maps"
	"slices"
	"strings"

	"proposaldesk/app"
)

// The desktop stores proposals as app's model (localstore replays edits
// on them with app.Apply), but the API sends views. ProposalFromDetail
// is the inverse of app.DetailView: app.DetailView of its result is the
// detail it was given, for a reader with the ViewCosts permission. What a
// view does not carry is lost: costs hidden from a reader without
// ViewCosts (nil), an Amount discount larger than the parts subtotal
// (kept as the subtotal, which totals the same), and change orders
// beyond their summaries unless their details are supplied.

// ProposalFromDetail rebuilds the stored model of a proposal from its
// detail view. Change orders carry only what their summaries say; pass
// their details through WithChangeOrders for the full documents.
func ProposalFromDetail(d app.ProposalDetail) *app.Proposal {
	p := &app.Proposal{Archived: d.IsArchived, Version: d.Version, CopiedFrom: d.CopiedFrom}
	if len(d.FieldVersions) > 0 {
		p.FieldVersions = maps.Clone(d.FieldVersions)
	}
	fs := d.FinancialSummary
	p.Document = documentOf(&d.DocumentView, pricingView{fs.PartsDiscountType, fs.PartsDiscountPercentage,
		fs.PartsDiscount, fs.SalesTax, fs.Currency})
	p.ChangeOrders = make([]app.ChangeOrder, len(d.ChangeOrders))
	for i, s := range d.ChangeOrders {
		co := app.ChangeOrder{}
		co.ID, co.Number, co.Name, co.Status = s.ID, s.Number, s.Name, s.Status
		co.CreatedDate, co.LastModifiedDate, co.LastModifiedByUserDate = s.CreatedDate, s.LastModifiedDate, s.LastModifiedByUserDate
		if s.Customer != nil {
			co.Customer = &app.Customer{Contact: *s.Customer}
		}
		co.Currency = s.Total.Currency
		co.Areas = []app.Area{}
		co.PaymentRequests = []app.PaymentRequest{}
		p.ChangeOrders[i] = co
	}
	p.ClientLink = linkOfView(d.ClientLink)
	return p
}

// linkOfView keeps what the detail says of the client link: the laptop
// never has the token or its hash, and the URL is kept apart
// (localstore's client links), since only the send's own answer has it.
func linkOfView(v *app.ClientLinkView) *app.ClientLink {
	if v == nil {
		return nil
	}
	return &app.ClientLink{ID: v.LinkID, SentDate: v.SentDate, ExpiresOn: v.ExpiresOn, SentTo: slices.Clone(v.SentTo),
		SnapshotHash: v.SnapshotHash, Mail: v.Mail, MailNote: v.MailNote}
}

// ChangeOrderFromDetail rebuilds a change order from its detail view.
func ChangeOrderFromDetail(d app.ChangeOrderDetail) app.ChangeOrder {
	co := app.ChangeOrder{}
	fs := d.FinancialSummary
	co.Document = documentOf(&d.DocumentView, pricingView{fs.PartsDiscountType, fs.PartsDiscountPercentage,
		fs.PartsDiscount, fs.SalesTax, fs.Currency})
	return co
}

// WithChangeOrders replaces p's change orders whose IDs match with the
// full documents given.
func WithChangeOrders(p *app.Proposal, full []app.ChangeOrder) {
	for i := range p.ChangeOrders {
		for _, co := range full {
			if co.ID == p.ChangeOrders[i].ID {
				p.ChangeOrders[i] = co
			}
		}
	}
}

// pricingView is what both financial-summary shapes say about pricing,
// tax and currency.
type pricingView struct {
	discountType app.DiscountType
	discountPct  app.Rate
	discount     app.Money
	tax          app.SalesTax
	currency     app.Currency
}

// documentOf rebuilds the stored document from the part of a detail view
// that proposals and change orders share.
func documentOf(v *app.DocumentView, f pricingView) app.Document {
	d := app.Document{
		ID: v.ID, Number: v.Number, Name: v.Name, Status: v.Status,
		CreatedDate: v.CreatedDate, ClientLastDecisionDate: v.ClientLastDecisionDate,
		LastCompletedDate: v.LastCompletedDate, LastModifiedDate: v.LastModifiedDate,
		LastModifiedByUserDate: v.LastModifiedByUserDate, LastSubmittedDate: v.LastSubmittedDate,
		ClientLastOpenedDate: v.ClientLastOpenedDate,
	}
	fillDocument(&d, v, f)
	return d
}

func fillDocument(d *app.Document, v *app.DocumentView, f pricingView) {
	if v.Customer != nil {
		c := *v.Customer
		c.Location = copyLoc(v.Customer.Location)
		d.Customer = &c
	}
	d.SalesPerson = v.Dealer.Salesperson
	d.Dealer = app.DealerProfile{CompanyName: v.Dealer.CompanyName, WebSiteURL: v.Dealer.WebSiteURL,
		CompanyPhone: v.Dealer.CompanyPhone, CompanyLogoURL: v.Dealer.CompanyLogoURL, Location: v.Dealer.Location}
	d.Currency = f.currency
	d.CoverpageImageURL, d.AboutUs, d.ProjectDescription = v.CoverpageImageURL, v.AboutUs, v.ProjectDescription
	d.InternalNotes, d.ProjectTerms, d.LastModifiedUser = v.InternalNotes, v.ProjectTerms, v.LastModifiedUser
	d.PaymentRequests = append([]app.PaymentRequest{}, v.PaymentRequests...)

	d.Pricing = app.Pricing{DiscountType: f.discountType}
	if f.discountType == app.DiscountAmount {
		d.Pricing.DiscountAmount = f.discount
	} else {
		d.Pricing.DiscountPercentage = f.discountPct
	}

	c := f.tax.Calculation
	applyTo := make([]app.ApplyTo, 0, len(c.ApplyTo))
	for _, a := range c.ApplyTo {
		if a != app.ApplyNone {
			applyTo = append(applyTo, a)
		}
	}
	d.Tax = app.TaxSettings{
		Status: f.tax.TaxStatus, Method: c.Method, ApplyTo: applyTo,
		Parts:                 app.TaxRates{Rate: c.PartsTax, Name: c.PartsTaxName, Second: c.PartsTax2, SecondName: c.PartsTax2Name},
		Labor:                 app.TaxRates{Rate: c.LaborTax, Name: c.LaborTaxName, Second: c.LaborTax2, SecondName: c.LaborTax2Name},
		Fees:                  app.TaxRates{Rate: c.FeeTax, Name: c.FeeTaxName, Second: c.FeeTax2, SecondName: c.FeeTax2Name},
		HasMultipleTaxSupport: c.HasMultipleTaxSupport,
		TaxLocation:           copyLoc(c.TaxLocation),
		IsTaxServiceAvailable: c.IsTaxServiceAvailable,
	}

	d.PaymentSchedule = app.PaymentSchedule{CustomerDescription: v.PaymentSchedule.CustomerDescription}
	for _, pv := range v.PaymentSchedule.Payments {
		t := app.PaymentTerm{DueDate: pv.Due.Date, Milestone: pv.Due.Milestone}
		switch {
		case pv.Calculation == app.PaymentFixed:
			t.Calculation, t.Amount = app.PaymentFixed, pv.Amount
		case strings.HasSuffix(pv.Calculation, "%"):
			if r, err := app.ParseRate(strings.TrimSuffix(pv.Calculation, "%")); err == nil {
				t.Calculation, t.Percentage = app.PaymentPercent, r
			} else {
				t.Calculation = app.PaymentRemainder
			}
		default:
			t.Calculation = app.PaymentRemainder
		}
		d.PaymentSchedule.Payments = append(d.PaymentSchedule.Payments, t)
	}

	d.Areas = make([]app.Area, len(v.Areas))
	for i, av := range v.Areas {
		a := app.Area{ID: av.ID, Name: av.Name, Options: make([]app.Option, len(av.Options))}
		for j, ov := range av.Options {
			o := app.Option{ID: ov.ID, Status: ov.Status, LastModifiedDate: ov.LastModifiedDate,
				ClientDescription: ov.ClientDescription, InstallerDescription: ov.InstallerDescription,
				Items: make([]app.Item, len(ov.Items))}
			for k, iv := range ov.Items {
				it := app.Item{
					ID: iv.ID, ParentID: int64(iv.ParentID), ItemType: iv.ItemType,
					ReferencedItemID: int64(iv.ReferencedItemID), CreatedDate: iv.CreatedDate,
					LastModifiedDate: iv.LastModifiedDate, CostUpdateDate: iv.CostUpdateDate,
					Brand: iv.Brand, Model: iv.Model, Description: iv.Description, Name: iv.Name,
					ShortDescription: iv.ShortDescription, ClientNote: iv.ClientNote, ImageURL: iv.ImageURL,
					Supplier: iv.Supplier, MSRP: iv.MSRP, SellPrice: iv.SellPrice, Quantity: iv.Quantity,
					IsCombinedPrice: iv.Total.IsCombinedPrice, IsTaxExempt: iv.IsTaxExempt,
					IsRecurringService: iv.IsRecurringService,
				}
				if iv.Cost != nil {
					cost := *iv.Cost
					it.Cost = &cost
				}
				o.Items[k] = it
			}
			a.Options[j] = o
		}
		d.Areas[i] = a
	}
}

func copyLoc(l *app.Location) *app.Location {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}

// PulledCopy is the copy of p, a proposal as GET /public/sync/proposals
// sends it (the stored model, costs already hidden from a user without
// ViewCosts), that the detail GETs would have given the sync engine:
// ProposalFromDetail of its detail, with every change order from its own
// detail. So a pulled copy is the same whichever route it came through.
func PulledCopy(p *app.Proposal) *app.Proposal {
	// The server has hidden what this user may not see.
	opts := app.ViewOptions{ViewCosts: true}
	sp := ProposalFromDetail(app.DetailView(p, opts))
	full := make([]app.ChangeOrder, len(p.ChangeOrders))
	for i := range p.ChangeOrders {
		full[i] = ChangeOrderFromDetail(app.ChangeOrderDetailView(&p.ChangeOrders[i], opts))
	}
	WithChangeOrders(sp, full)
	return sp
}
