package app

import "strconv"

// The API's JSON views. They are built from the stored model on every
// read, so totals can never disagree with items, and they are the only
// place where costs are hidden from readers without the ViewCosts
// permission.

// ViewOptions say what the reader may see.
type ViewOptions struct {
	ViewCosts bool
}

// NullID is an optional reference that encodes as null when unset.
type NullID int64

func (id NullID) MarshalJSON() ([]byte, error) {
	if id == 0 {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(id), 10), nil
}

func (id *NullID) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*id = 0
		return nil
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	*id = NullID(v)
	return err
}

type ItemTotal struct {
	Amount          Money    `json:"amount"`
	Currency        Currency `json:"currency"`
	IsCombinedPrice bool     `json:"isCombinedPrice"`
}

type ItemView struct {
	ID                 int64     `json:"id"`
	ParentID           NullID    `json:"parentId"`
	ItemType           ItemType  `json:"itemType"`
	ReferencedItemID   NullID    `json:"referencedItemId"`
	CreatedDate        Time      `json:"createdDate"`
	LastModifiedDate   Time      `json:"lastModifiedDate"`
	CostUpdateDate     Time      `json:"costUpdateDate"`
	Brand              string    `json:"brand"`
	Model              string    `json:"model"`
	Description        string    `json:"description"`
	Name               string    `json:"name"`
	ShortDescription   string    `json:"shortDescription"`
	ClientNote         string    `json:"clientNote"`
	ImageURL           string    `json:"imageUrl"`
	Supplier           string    `json:"supplier"`
	MSRP               Money     `json:"msrp"`
	SellPrice          Money     `json:"sellPrice"`
	Cost               *Money    `json:"cost"`
	Quantity           Quantity  `json:"quantity"`
	Total              ItemTotal `json:"total"`
	IsTaxExempt        bool      `json:"isTaxExempt"`
	IsRecurringService bool      `json:"isRecurringService"`
	LinkedOrders       []any     `json:"linkedOrders"`
}

type OptionView struct {
	ID                    int64        `json:"id"`
	Status                OptionStatus `json:"status"`
	LastModifiedDate      Time         `json:"lastModifiedDate"`
	ClientDescription     string       `json:"clientDescription"`
	InstallerDescription  string       `json:"installerDescription"`
	Items                 []ItemView   `json:"items"`
	Total                 Money        `json:"total"`
	TotalRecurringService Money        `json:"totalRecurringService"`
}

type AreaView struct {
	ID      int64        `json:"id"`
	Name    string       `json:"name"`
	Options []OptionView `json:"options"`
}

type TaxCalculation struct {
	Method                TaxMethod `json:"method"`
	ApplyTo               []ApplyTo `json:"applyTo"`
	PartsTax              Rate      `json:"partsTax"`
	LaborTax              Rate      `json:"laborTax"`
	FeeTax                Rate      `json:"feeTax"`
	PartsTax2             Rate      `json:"partsTax2"`
	LaborTax2             Rate      `json:"laborTax2"`
	FeeTax2               Rate      `json:"feeTax2"`
	PartsTaxName          string    `json:"partsTaxName"`
	LaborTaxName          string    `json:"laborTaxName"`
	FeeTaxName            string    `json:"feeTaxName"`
	PartsTax2Name         string    `json:"partsTax2Name"`
	LaborTax2Name         string    `json:"laborTax2Name"`
	FeeTax2Name           string    `json:"feeTax2Name"`
	HasMultipleTaxSupport bool      `json:"hasMultipleTaxSupport"`
	TaxLocation           *Location `json:"taxLocation"`
	IsTaxServiceAvailable bool      `json:"isTaxServiceAvailable"`
	PartsTotalTax         Money     `json:"partsTotalTax"`
	LaborTotalTax         Money     `json:"laborTotalTax"`
	FeeTotalTax           Money     `json:"feeTotalTax"`
}

type SalesTax struct {
	TaxStatus   TaxStatus      `json:"taxStatus"`
	Total       Money          `json:"total"`
	Calculation TaxCalculation `json:"calculation"`
}

type FinancialSummary struct {
	PartsSubtotal           Money        `json:"partsSubtotal"`
	PartsDiscountType       DiscountType `json:"partsDiscountType"`
	PartsDiscountPercentage Rate         `json:"partsDiscountPercentage"`
	PartsDiscount           Money        `json:"partsDiscount"`
	PartsDiscountTaxable    Money        `json:"partsDiscountTaxable"`
	PartsDiscountTaxExempt  Money        `json:"partsDiscountTaxExempt"`
	PartsTotal              Money        `json:"partsTotal"`
	LaborTotal              Money        `json:"laborTotal"`
	FeeTotal                Money        `json:"feeTotal"`
	ProposalSubtotal        Money        `json:"proposalSubtotal"`
	SalesTax                SalesTax     `json:"salesTax"`
	ProposalTotal           Money        `json:"proposalTotal"`
	Currency                Currency     `json:"currency"`
}

// ChangeOrderFinancialSummary is the change-order variant: its own
// subtotal and total names, and no split of the discount.
type ChangeOrderFinancialSummary struct {
	PartsSubtotal           Money        `json:"partsSubtotal"`
	PartsDiscountType       DiscountType `json:"partsDiscountType"`
	PartsDiscountPercentage Rate         `json:"partsDiscountPercentage"`
	PartsDiscount           Money        `json:"partsDiscount"`
	PartsTotal              Money        `json:"partsTotal"`
	LaborTotal              Money        `json:"laborTotal"`
	FeeTotal                Money        `json:"feeTotal"`
	ChangeOrderSubtotal     Money        `json:"changeOrderSubtotal"`
	SalesTax                SalesTax     `json:"salesTax"`
	ChangeOrderTotal        Money        `json:"changeOrderTotal"`
	Currency                Currency     `json:"currency"`
}

type Profit struct {
	Total              *Money `json:"total"`
	Percentage         *Rate  `json:"percentage"`
	PartTotal          *Money `json:"partTotal"`
	PartPercentage     *Rate  `json:"partPercentage"`
	LaborTotal         *Money `json:"laborTotal"`
	LaborPercentage    *Rate  `json:"laborPercentage"`
	IsProfitIncludeCos bool   `json:"isProfitIncludeCos"`
}

type RecurringServiceItem struct {
	Name      string   `json:"name"`
	SellPrice Money    `json:"sellPrice"`
	Quantity  Quantity `json:"quantity"`
	TotalSell Money    `json:"totalSell"`
}

type RecurringServices struct {
	Items                 []RecurringServiceItem `json:"items"`
	TotalRecurringService Money                  `json:"totalRecurringService"`
}

type PaymentDue struct {
	Date      Time   `json:"date"`
	Milestone string `json:"milestone"`
}

type PaymentView struct {
	Calculation string     `json:"calculation"`
	Amount      Money      `json:"amount"`
	Due         PaymentDue `json:"due"`
}

type PaymentScheduleView struct {
	CustomerDescription string        `json:"customerDescription"`
	Payments            []PaymentView `json:"payments"`
}

type Dealer struct {
	CompanyName    string      `json:"companyName"`
	WebSiteURL     string      `json:"webSiteUrl"`
	CompanyPhone   string      `json:"companyPhone"`
	CompanyLogoURL string      `json:"companyLogoUrl"`
	Location       Location    `json:"location"`
	Salesperson    Salesperson `json:"salesperson"`
}

// DocumentView holds the fields a proposal detail and a change-order
// detail share, in the spec's order. It is exported so that readers of
// both views (the desktop's sync, exports) handle the shared part once.
type DocumentView struct {
	ID                     int64               `json:"id"`
	Number                 int64               `json:"number"`
	Name                   string              `json:"name"`
	Status                 Status              `json:"status"`
	CreatedDate            Time                `json:"createdDate"`
	ClientLastDecisionDate Time                `json:"clientLastDecisionDate"`
	LastCompletedDate      Time                `json:"lastCompletedDate"`
	LastModifiedDate       Time                `json:"lastModifiedDate"`
	LastModifiedByUserDate Time                `json:"lastModifiedByUserDate"`
	LastSubmittedDate      Time                `json:"lastSubmittedDate"`
	ClientLastOpenedDate   Time                `json:"clientLastOpenedDate"`
	Customer               *Customer           `json:"customer"`
	Dealer                 Dealer              `json:"dealer"`
	CoverpageImageURL      string              `json:"coverpageImageUrl"`
	AboutUs                string              `json:"aboutUs"`
	ProjectDescription     string              `json:"projectDescription"`
	InternalNotes          string              `json:"internalNotes"`
	Areas                  []AreaView          `json:"areas"`
	Profit                 Profit              `json:"profit"`
	RecurringServices      RecurringServices   `json:"recurringServices"`
	PaymentSchedule        PaymentScheduleView `json:"paymentSchedule"`
	PaymentRequests        []PaymentRequest    `json:"paymentRequests"`
	ProjectTerms           string              `json:"projectTerms"`
	LastModifiedUser       PersonName          `json:"lastModifiedUser"`
}

// ProposalDetail is the full proposal as the API returns it. Version,
// IsArchived and FieldVersions are extensions: the ETag value, the
// archive flag, which the desktop needs to filter offline exactly as the
// server does, and the version that last wrote each field, which its
// merge needs to see a change that came back to the old value.
type ProposalDetail struct {
	DocumentView
	FinancialSummary FinancialSummary     `json:"financialSummary"`
	ChangeOrders     []ChangeOrderSummary `json:"changeOrders"`
	IsArchived       bool                 `json:"isArchived"`
	Version          int64                `json:"version"`
	FieldVersions    map[Field]int64      `json:"fieldVersions"`
	// EmailFailure is the proposal's (an extension; left out when nil).
	EmailFailure *EmailFailure `json:"emailFailure,omitempty"`
	// CopiedFrom is only in the answer to a copy (an extension): for
	// each ID of the new proposal, its areas, options and items, the ID
	// of the source part it copies, so a client that made the copy
	// offline can tell which of its parts became which.
	CopiedFrom map[int64]int64 `json:"copiedFrom,omitempty"`
	// ClientLink (an extension) is the link the last send made; null
	// before the first send.
	ClientLink *ClientLinkView `json:"clientLink"`
}

// ChangeOrderDetail is a change order as the API returns it.
type ChangeOrderDetail struct {
	DocumentView
	FinancialSummary ChangeOrderFinancialSummary `json:"financialSummary"`
}

type ChangeOrderTotal struct {
	ChangeOrderTotal Money    `json:"changeOrderTotal"`
	Currency         Currency `json:"currency"`
}

type ChangeOrderSummary struct {
	ID                     int64            `json:"id"`
	Number                 int64            `json:"number"`
	Name                   string           `json:"name"`
	Status                 Status           `json:"status"`
	Total                  ChangeOrderTotal `json:"total"`
	Customer               *Contact         `json:"customer"`
	CreatedDate            Time             `json:"createdDate"`
	LastModifiedDate       Time             `json:"lastModifiedDate"`
	LastModifiedByUserDate Time             `json:"lastModifiedByUserDate"`
}

type ProposalTotal struct {
	ProposalTotal Money    `json:"proposalTotal"`
	Currency      Currency `json:"currency"`
}

// ListItem is one proposal of a list page.
type ListItem struct {
	ID                     int64         `json:"id"`
	Number                 int64         `json:"number"`
	Name                   string        `json:"name"`
	Status                 Status        `json:"status"`
	Total                  ProposalTotal `json:"total"`
	CreatedDate            Time          `json:"createdDate"`
	LastModifiedDate       Time          `json:"lastModifiedDate"`
	LastModifiedByUserDate Time          `json:"lastModifiedByUserDate"`
	Customer               *Contact      `json:"customer"`
	Salesperson            Salesperson   `json:"salesperson"`
}

// ListResponse is a page of proposals; Count counts every match.
type ListResponse struct {
	Proposals []ListItem `json:"proposals"`
	Count     int        `json:"proposalCount"`
}

// DetailView builds the proposal detail a reader sees.
func DetailView(p *Proposal, opts ViewOptions) ProposalDetail {
	s := Summarize(&p.Document)
	v := ProposalDetail{
		DocumentView: documentViewOf(&p.Document, &s, opts),
		FinancialSummary: FinancialSummary{
			PartsSubtotal:           s.PartsSubtotal,
			PartsDiscountType:       discountType(p.Pricing),
			PartsDiscountPercentage: discountPercentage(p.Pricing, &s),
			PartsDiscount:           s.PartsDiscount,
			PartsDiscountTaxable:    s.PartsDiscountTaxable,
			PartsDiscountTaxExempt:  s.PartsDiscountTaxExempt,
			PartsTotal:              s.PartsTotal,
			LaborTotal:              s.LaborTotal,
			FeeTotal:                s.FeeTotal,
			ProposalSubtotal:        s.Subtotal,
			SalesTax:                salesTaxView(&p.Tax, &s),
			ProposalTotal:           s.Total,
			Currency:                currencyOf(&p.Document),
		},
		ChangeOrders:  make([]ChangeOrderSummary, len(p.ChangeOrders)),
		IsArchived:    p.Archived,
		Version:       p.Version,
		FieldVersions: p.FieldVersions,
		ClientLink:    ClientLinkViewOf(p.ClientLink),
		EmailFailure:  p.EmailFailure,
	}
	if v.FieldVersions == nil {
		v.FieldVersions = map[Field]int64{}
	}
	for i := range p.ChangeOrders {
		v.ChangeOrders[i] = ChangeOrderSummaryView(&p.ChangeOrders[i])
	}
	return v
}

// ChangeOrderDetailView builds the change-order detail a reader sees.
func ChangeOrderDetailView(co *ChangeOrder, opts ViewOptions) ChangeOrderDetail {
	s := Summarize(&co.Document)
	return ChangeOrderDetail{
		DocumentView: documentViewOf(&co.Document, &s, opts),
		FinancialSummary: ChangeOrderFinancialSummary{
			PartsSubtotal:           s.PartsSubtotal,
			PartsDiscountType:       discountType(co.Pricing),
			PartsDiscountPercentage: discountPercentage(co.Pricing, &s),
			PartsDiscount:           s.PartsDiscount,
			PartsTotal:              s.PartsTotal,
			LaborTotal:              s.LaborTotal,
			FeeTotal:                s.FeeTotal,
			ChangeOrderSubtotal:     s.Subtotal,
			SalesTax:                salesTaxView(&co.Tax, &s),
			ChangeOrderTotal:        s.Total,
			Currency:                currencyOf(&co.Document),
		},
	}
}

// ChangeOrderSummaryView is a change order as a list shows it.
func ChangeOrderSummaryView(co *ChangeOrder) ChangeOrderSummary {
	s := Summarize(&co.Document)
	return ChangeOrderSummary{
		ID: co.ID, Number: co.Number, Name: co.Name, Status: statusOrUndefined(co.Status),
		Total:    ChangeOrderTotal{ChangeOrderTotal: s.Total, Currency: currencyOf(&co.Document)},
		Customer: contactOf(co.Customer), CreatedDate: co.CreatedDate,
		LastModifiedDate: co.LastModifiedDate, LastModifiedByUserDate: co.LastModifiedByUserDate,
	}
}

// ListItemView is a proposal as a list page shows it.
func ListItemView(p *Proposal) ListItem {
	s := Summarize(&p.Document)
	return ListItem{
		ID: p.ID, Number: p.Number, Name: p.Name, Status: statusOrUndefined(p.Status),
		Total:       ProposalTotal{ProposalTotal: s.Total, Currency: currencyOf(&p.Document)},
		CreatedDate: p.CreatedDate, LastModifiedDate: p.LastModifiedDate,
		LastModifiedByUserDate: p.LastModifiedByUserDate,
		Customer:               contactOf(p.Customer), Salesperson: p.SalesPerson,
	}
}

// Views never share memory with the stored model: a caller may change a
// view without touching the proposal it came from.
func copyCustomer(c *Customer) *Customer {
	if c == nil {
		return nil
	}
	cu := *c
	cu.Location = copyLocation(c.Location)
	return &cu
}

func statusOrUndefined(s Status) Status {
	if s == "" {
		return StatusUndefined
	}
	return s
}

func contactOf(c *Customer) *Contact {
	if c == nil {
		return nil
	}
	contact := c.Contact
	return &contact
}

func currencyOf(d *Document) Currency {
	if d.Currency.Code == "" {
		return USD
	}
	return d.Currency
}

func discountType(p Pricing) DiscountType {
	if p.DiscountType == "" {
		return DiscountPercentage
	}
	return p.DiscountType
}

// discountPercentage is the configured percentage, or for an amount
// discount the percentage of the parts subtotal that it works out to.
func discountPercentage(p Pricing, s *Summary) Rate {
	if p.DiscountType == DiscountAmount {
		return RateOf(s.PartsDiscount, s.PartsSubtotal)
	}
	return p.DiscountPercentage
}

func salesTaxView(t *TaxSettings, s *Summary) SalesTax {
	status := t.Status
	if status == "" {
		status = TaxUndefined
	}
	method := t.Method
	if method == "" {
		method = TaxClientLocation
	}
	applyTo := append([]ApplyTo(nil), t.ApplyTo...)
	if len(applyTo) == 0 {
		applyTo = []ApplyTo{ApplyNone}
	}
	return SalesTax{
		TaxStatus: status,
		Total:     s.TaxTotal,
		Calculation: TaxCalculation{
			Method: method, ApplyTo: applyTo,
			PartsTax: t.Parts.Rate, LaborTax: t.Labor.Rate, FeeTax: t.Fees.Rate,
			PartsTax2: t.Parts.Second, LaborTax2: t.Labor.Second, FeeTax2: t.Fees.Second,
			PartsTaxName: t.Parts.Name, LaborTaxName: t.Labor.Name, FeeTaxName: t.Fees.Name,
			PartsTax2Name: t.Parts.SecondName, LaborTax2Name: t.Labor.SecondName, FeeTax2Name: t.Fees.SecondName,
			HasMultipleTaxSupport: t.HasMultipleTaxSupport,
			TaxLocation:           copyLocation(t.TaxLocation),
			IsTaxServiceAvailable: t.IsTaxServiceAvailable,
			PartsTotalTax:         s.Tax[CategoryParts].Total(),
			LaborTotalTax:         s.Tax[CategoryLabor].Total(),
			FeeTotalTax:           s.Tax[CategoryFees].Total(),
		},
	}
}

func documentViewOf(d *Document, s *Summary, opts ViewOptions) DocumentView {
	cur := currencyOf(d)
	v := DocumentView{
		ID: d.ID, Number: d.Number, Name: d.Name, Status: statusOrUndefined(d.Status),
		CreatedDate: d.CreatedDate, ClientLastDecisionDate: d.ClientLastDecisionDate,
		LastCompletedDate: d.LastCompletedDate, LastModifiedDate: d.LastModifiedDate,
		LastModifiedByUserDate: d.LastModifiedByUserDate, LastSubmittedDate: d.LastSubmittedDate,
		ClientLastOpenedDate: d.ClientLastOpenedDate,
		Customer:             copyCustomer(d.Customer),
		Dealer: Dealer{
			CompanyName: d.Dealer.CompanyName, WebSiteURL: d.Dealer.WebSiteURL,
			CompanyPhone: d.Dealer.CompanyPhone, CompanyLogoURL: d.Dealer.CompanyLogoURL,
			Location: d.Dealer.Location, Salesperson: d.SalesPerson,
		},
		CoverpageImageURL:  d.CoverpageImageURL,
		AboutUs:            d.AboutUs,
		ProjectDescription: d.ProjectDescription,
		InternalNotes:      d.InternalNotes,
		Areas:              make([]AreaView, len(d.Areas)),
		ProjectTerms:       d.ProjectTerms,
		LastModifiedUser:   d.LastModifiedUser,
		PaymentRequests:    append([]PaymentRequest{}, d.PaymentRequests...),
		RecurringServices: RecurringServices{
			Items:                 make([]RecurringServiceItem, len(s.Recurring)),
			TotalRecurringService: s.TotalRecurring,
		},
		PaymentSchedule: PaymentScheduleView{
			CustomerDescription: d.PaymentSchedule.CustomerDescription,
			Payments:            make([]PaymentView, len(d.PaymentSchedule.Payments)),
		},
	}
	for i, r := range s.Recurring {
		v.RecurringServices.Items[i] = RecurringServiceItem(r)
	}
	amounts := PaymentAmounts(d.PaymentSchedule, s.Total)
	for i, p := range d.PaymentSchedule.Payments {
		v.PaymentSchedule.Payments[i] = PaymentView{
			Calculation: paymentCalculation(p), Amount: amounts[i],
			Due: PaymentDue{Date: p.DueDate, Milestone: p.Milestone},
		}
	}
	if opts.ViewCosts {
		pr := s.Profit
		v.Profit = Profit{Total: &pr.Total, Percentage: &pr.Percentage, PartTotal: &pr.PartTotal,
			PartPercentage: &pr.PartPercentage, LaborTotal: &pr.LaborTotal, LaborPercentage: &pr.LaborPercentage}
	}
	for i := range d.Areas {
		v.Areas[i] = areaView(&d.Areas[i], cur, opts)
	}
	return v
}

// paymentCalculation is the payment's calculation as the API shows it:
// "50%", "Fixed" or "Remainder".
func paymentCalculation(p PaymentTerm) string {
	switch p.Calculation {
	case PaymentPercent:
		return p.Percentage.String() + "%"
	case PaymentFixed:
		return PaymentFixed
	default:
		return PaymentRemainder
	}
}

func areaView(a *Area, cur Currency, opts ViewOptions) AreaView {
	av := AreaView{ID: a.ID, Name: a.Name, Options: make([]OptionView, len(a.Options))}
	for j := range a.Options {
		o := &a.Options[j]
		total, recurring := OptionTotals(o)
		ov := OptionView{
			ID: o.ID, Status: o.Status, LastModifiedDate: o.LastModifiedDate,
			ClientDescription: o.ClientDescription, InstallerDescription: o.InstallerDescription,
			Items: make([]ItemView, len(o.Items)), Total: total, TotalRecurringService: recurring,
		}
		amounts := ItemAmounts(o.Items)
		// One slab for the option's cost copies instead of one
		// allocation an item: the view is built on every read.
		costs := make([]Money, len(o.Items))
		for k := range o.Items {
			ov.Items[k] = itemView(&o.Items[k], amounts[k], cur, opts, &costs[k])
		}
		av.Options[j] = ov
	}
	return av
}

func itemView(it *Item, amount Money, cur Currency, opts ViewOptions, costSlot *Money) ItemView {
	v := ItemView{
		ID: it.ID, ParentID: NullID(it.ParentID), ItemType: it.ItemType,
		ReferencedItemID: NullID(it.ReferencedItemID), CreatedDate: it.CreatedDate,
		LastModifiedDate: it.LastModifiedDate, CostUpdateDate: it.CostUpdateDate,
		Brand: it.Brand, Model: it.Model, Description: it.Description, Name: it.Name,
		ShortDescription: it.ShortDescription, ClientNote: it.ClientNote, ImageURL: it.ImageURL,
		Supplier: it.Supplier, MSRP: it.MSRP, SellPrice: it.SellPrice, Quantity: it.Quantity,
		Total:       ItemTotal{Amount: amount, Currency: cur, IsCombinedPrice: it.IsCombinedPrice},
		IsTaxExempt: it.IsTaxExempt, IsRecurringService: it.IsRecurringService,
		LinkedOrders: []any{},
	}
	if opts.ViewCosts && it.Cost != nil {
		*costSlot = *it.Cost
		v.Cost = costSlot
	}
	return v
}

// PlacedItemView is an item of GET /public/proposals/{id}/items: the
// item as the detail shows it, with the area and option it is in.
type PlacedItemView struct {
	AreaID       int64 `json:"areaId"`
	AreaOptionID int64 `json:"areaOptionId"`
	ItemView
}

// ItemsView is every item of the proposal, area by area and option by
// option, in their order.
func ItemsView(p *Proposal, opts ViewOptions) []PlacedItemView {
	out := []PlacedItemView{}
	for i := range p.Areas {
		a := &p.Areas[i]
		for j := range a.Options {
			o := &a.Options[j]
			amounts := ItemAmounts(o.Items)
			costs := make([]Money, len(o.Items))
			for k := range o.Items {
				out = append(out, PlacedItemView{AreaID: a.ID, AreaOptionID: o.ID,
					ItemView: itemView(&o.Items[k], amounts[k], p.Currency, opts, &costs[k])})
			}
		}
	}
	return out
}
