package app

import (
	"maps"
	"slices"
	"strings"
)

// The stored domain model. These types hold what a proposal is; the API's
// JSON views (view.go) are derived from them, with totals computed and
// costs hidden as the reader's permissions require. Nothing derivable is
// stored.

// Location is an address: a contact's site, the dealer's office, or the
// location a proposal is taxed at.
type Location struct {
	ID          int64  `json:"id"`
	Street      string `json:"street"`
	Suite       string `json:"suite"`
	City        string `json:"city"`
	PostalCode  string `json:"postalCode"`
	State       string `json:"state"`
	StateAbbrev string `json:"stateAbbrev"`
	Country     string `json:"country"`
	Phone       string `json:"phone"`
}

// ContactLocation is a location as the contact directory holds it.
type ContactLocation struct {
	Location
	ContactID int64 `json:"contactId"`
	IsPrimary bool  `json:"isPrimary"`
	IsBilling bool  `json:"isBilling"`
}

// Contact is a person or company a dealer sells to: the spec's contact
// summary.
type Contact struct {
	ID             int64       `json:"id"`
	PartyType      PartyType   `json:"partyType"`
	ContactType    ContactType `json:"contactType"`
	FirstName      string      `json:"firstName"`
	LastName       string      `json:"lastName"`
	CompanyName    string      `json:"companyName"`
	ContactEmail   string      `json:"contactEmail"`
	ContactEmailCC string      `json:"contactEmailCC"`
	ContactPhone   string      `json:"contactPhone"`
}

// DisplayName is how the contact is named in lists: the company for a
// company, else the person's name.
func (c Contact) DisplayName() string {
	if c.PartyType == PartyCompany && c.CompanyName != "" {
		return c.CompanyName
	}
	return strings.TrimSpace(c.FirstName + " " + c.LastName)
}

// Customer is the contact assigned to a proposal with the location chosen
// for it. The proposal keeps this snapshot so that its detail never
// depends on a later directory lookup.
type Customer struct {
	Contact
	Location *Location `json:"location"`
}

// Salesperson is a user of the account as a proposal names it.
type Salesperson struct {
	ID        int64  `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// User is an account member as the rules see it.
type User struct {
	ID            int64  `json:"id"`
	Email         string `json:"email"`
	FirstName     string `json:"firstName"`
	LastName      string `json:"lastName"`
	Role          Role   `json:"role"`
	EmailVerified bool   `json:"emailVerified"`
}

// Salesperson is the user as a proposal names them.
func (u User) Salesperson() Salesperson {
	return Salesperson{ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName}
}

// PersonName is a first and last name (the detail's lastModifiedUser).
type PersonName struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// DealerProfile is the selling company as its account describes it.
type DealerProfile struct {
	CompanyName    string   `json:"companyName"`
	WebSiteURL     string   `json:"webSiteUrl"`
	CompanyPhone   string   `json:"companyPhone"`
	CompanyLogoURL string   `json:"companyLogoUrl"`
	Location       Location `json:"location"`
}

// Item is one line of an option: a part, labor, a fee or a custom item.
// ParentID, when set, nests the item under another item of the same
// option; a parent with IsCombinedPrice reports an amount that already
// includes everything nested under it.
type Item struct {
	ID                 int64    `json:"id"`
	ParentID           int64    `json:"parentId,omitempty"`
	ItemType           ItemType `json:"itemType"`
	ReferencedItemID   int64    `json:"referencedItemId,omitempty"`
	CreatedDate        Time     `json:"createdDate"`
	LastModifiedDate   Time     `json:"lastModifiedDate"`
	CostUpdateDate     Time     `json:"costUpdateDate"`
	Brand              string   `json:"brand"`
	Model              string   `json:"model"`
	Description        string   `json:"description"`
	Name               string   `json:"name"`
	ShortDescription   string   `json:"shortDescription"`
	ClientNote         string   `json:"clientNote"`
	ImageURL           string   `json:"imageUrl"`
	Supplier           string   `json:"supplier"`
	MSRP               Money    `json:"msrp"`
	SellPrice          Money    `json:"sellPrice"`
	Cost               *Money   `json:"cost"` // nil: not known
	Quantity           Quantity `json:"quantity"`
	IsCombinedPrice    bool     `json:"isCombinedPrice"`
	IsTaxExempt        bool     `json:"isTaxExempt"`
	IsRecurringService bool     `json:"isRecurringService"`
}

// Option is one way of fitting out an area; a client picks one per area.
type Option struct {
	ID                   int64        `json:"id"`
	Status               OptionStatus `json:"status"`
	LastModifiedDate     Time         `json:"lastModifiedDate"`
	ClientDescription    string       `json:"clientDescription"`
	InstallerDescription string       `json:"installerDescription"`
	Items                []Item       `json:"items"`
}

// Area is a room or zone of the project.
type Area struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name"`
	Options []Option `json:"options"`
}

// Pricing holds the parts discount. Percentage applies DiscountPercentage
// to the parts subtotal; Amount takes DiscountAmount off it.
type Pricing struct {
	DiscountType       DiscountType `json:"discountType"`
	DiscountPercentage Rate         `json:"discountPercentage"`
	DiscountAmount     Money        `json:"discountAmount"`
}

// TaxRates are the rates and labels of one category; Second applies only
// with multiple-tax support.
type TaxRates struct {
	Rate       Rate   `json:"rate"`
	Name       string `json:"name"`
	Second     Rate   `json:"second"`
	SecondName string `json:"secondName"`
}

// TaxSettings say how a document is taxed. Status Ok means the rates are
// known and apply; any other status taxes nothing.
type TaxSettings struct {
	Status                TaxStatus `json:"status"`
	Method                TaxMethod `json:"method"`
	ApplyTo               []ApplyTo `json:"applyTo"`
	Parts                 TaxRates  `json:"parts"`
	Labor                 TaxRates  `json:"labor"`
	Fees                  TaxRates  `json:"fees"`
	HasMultipleTaxSupport bool      `json:"hasMultipleTaxSupport"`
	TaxLocation           *Location `json:"taxLocation"`
	IsTaxServiceAvailable bool      `json:"isTaxServiceAvailable"`
}

func (t *TaxSettings) rates(c Category) TaxRates {
	switch c {
	case CategoryLabor:
		return t.Labor
	case CategoryFees:
		return t.Fees
	default:
		return t.Parts
	}
}

// Applies reports whether the category is taxed.
func (t *TaxSettings) Applies(c Category) bool {
	want := [...]ApplyTo{CategoryParts: ApplyParts, CategoryLabor: ApplyLabor, CategoryFees: ApplyFees}[c]
	for _, a := range t.ApplyTo {
		if a == want {
			return true
		}
	}
	return false
}

// Payment calculations. A payment is a percentage of the document's total,
// a fixed amount, or what remains after the others.
const (
	PaymentPercent   = "Percent"
	PaymentFixed     = "Fixed"
	PaymentRemainder = "Remainder"
)

// PaymentTerm is one scheduled payment.
type PaymentTerm struct {
	Calculation string `json:"calculation"`
	Percentage  Rate   `json:"percentage"`
	Amount      Money  `json:"amount"`
	DueDate     Time   `json:"dueDate"`
	Milestone   string `json:"milestone"`
}

// PaymentSchedule is how the client pays.
type PaymentSchedule struct {
	CustomerDescription string        `json:"customerDescription"`
	Payments            []PaymentTerm `json:"payments"`
}

// PaymentRequest is a request for payment sent to the client.
type PaymentRequest struct {
	ID            int64         `json:"id"`
	Status        PaymentStatus `json:"status"`
	Amount        Money         `json:"amount"`
	DueDate       Time          `json:"dueDate"`
	Description   string        `json:"description"`
	PaymentMethod string        `json:"paymentMethod"`
}

// Document is what a proposal and a change order have in common.
type Document struct {
	ID                     int64            `json:"id"`
	Number                 int64            `json:"number"`
	Name                   string           `json:"name"`
	Status                 Status           `json:"status"`
	CreatedDate            Time             `json:"createdDate"`
	ClientLastDecisionDate Time             `json:"clientLastDecisionDate"`
	LastCompletedDate      Time             `json:"lastCompletedDate"`
	LastModifiedDate       Time             `json:"lastModifiedDate"`
	LastModifiedByUserDate Time             `json:"lastModifiedByUserDate"`
	LastSubmittedDate      Time             `json:"lastSubmittedDate"`
	ClientLastOpenedDate   Time             `json:"clientLastOpenedDate"`
	Customer               *Customer        `json:"customer"`
	SalesPerson            Salesperson      `json:"salesPerson"`
	Dealer                 DealerProfile    `json:"dealer"`
	Currency               Currency         `json:"currency"`
	CoverpageImageURL      string           `json:"coverpageImageUrl"`
	AboutUs                string           `json:"aboutUs"`
	ProjectDescription     string           `json:"projectDescription"`
	InternalNotes          string           `json:"internalNotes"`
	ProjectTerms           string           `json:"projectTerms"`
	Areas                  []Area           `json:"areas"`
	Pricing                Pricing          `json:"pricing"`
	Tax                    TaxSettings      `json:"tax"`
	PaymentSchedule        PaymentSchedule  `json:"paymentSchedule"`
	PaymentRequests        []PaymentRequest `json:"paymentRequests"`
	LastModifiedUser       PersonName       `json:"lastModifiedUser"`
}

// ChangeOrder is a priced change to an accepted proposal. It is read-only
// through the API.
type ChangeOrder struct {
	Document
}

// Proposal is the unit a salesperson works on and the unit of sync.
// Version counts committed writes; it is the ETag clients send back in
// If-Match.
type Proposal struct {
	Document
	Archived     bool          `json:"archived"`
	Version      int64         `json:"version"`
	ChangeOrders []ChangeOrder `json:"changeOrders"`
	// FieldVersions is, for each conflict-checked field an edit wrote,
	// the Version that wrote it last: a field that changed A→B→A has a
	// new version though its value is the old one, so a merge sees that
	// it changed (see FieldChanged).
	FieldVersions map[Field]int64 `json:"fieldVersions,omitempty"`
	// ClientLink is the link the last send made (client_link.go); nil
	// before the first send.
	ClientLink *ClientLink `json:"clientLink,omitempty"`
	// EmailFailure is why the last mail with the client's link did not
	// go out (nil when none did not).
	EmailFailure *EmailFailure `json:"emailFailure,omitempty"`

	// CopiedFrom is set only on a copy as the server's answer to the
	// copy gave it (ProposalDetail.CopiedFrom): the source part each of
	// its IDs copies. It is never stored or cloned.
	CopiedFrom map[int64]int64 `json:"-"`
}

// Clone returns a deep copy, so a mutation never changes the value it was
// given (the desktop keeps the server copy and the local view side by
// side). Nil and empty slices stay as they were, so a clone encodes
// exactly like the original.
func (p *Proposal) Clone() *Proposal {
	c := *p
	c.Document = p.Document.clone()
	c.FieldVersions = maps.Clone(p.FieldVersions)
	c.ClientLink = p.ClientLink.clone()
	if p.EmailFailure != nil {
		f := *p.EmailFailure
		c.EmailFailure = &f
	}
	c.CopiedFrom = nil
	if p.ChangeOrders != nil {
		c.ChangeOrders = make([]ChangeOrder, len(p.ChangeOrders))
		for i, co := range p.ChangeOrders {
			c.ChangeOrders[i] = ChangeOrder{co.Document.clone()}
		}
	}
	return &c
}

func (d Document) clone() Document {
	c := d
	if d.Customer != nil {
		cu := *d.Customer
		cu.Location = copyLocation(cu.Location)
		c.Customer = &cu
	}
	c.Tax.TaxLocation = copyLocation(d.Tax.TaxLocation)
	c.Tax.ApplyTo = slices.Clone(d.Tax.ApplyTo)
	c.PaymentSchedule.Payments = slices.Clone(d.PaymentSchedule.Payments)
	c.PaymentRequests = slices.Clone(d.PaymentRequests)
	if d.Areas == nil {
		return c
	}
	c.Areas = make([]Area, len(d.Areas))
	for i, a := range d.Areas {
		na := a
		if a.Options != nil {
			na.Options = make([]Option, len(a.Options))
		}
		for j, o := range a.Options {
			no := o
			if o.Items != nil {
				// One spare place: a clone is made to be edited, and a
				// line added to a full slice copied all of it again
				// (replaying 500 queued lines on a 500-item proposal
				// spent a quarter of its time there; BenchmarkPushItems500).
				no.Items = make([]Item, len(o.Items), len(o.Items)+1)
			}
			for k, it := range o.Items {
				if it.Cost != nil {
					cost := *it.Cost
					it.Cost = &cost
				}
				no.Items[k] = it
			}
			na.Options[j] = no
		}
		c.Areas[i] = na
	}
	return c
}

// ChangeOrder returns the proposal's change order with the given ID, or a
// NotFound error.
func (p *Proposal) ChangeOrder(id int64) (*ChangeOrder, error) {
	for i := range p.ChangeOrders {
		if p.ChangeOrders[i].ID == id {
			return &p.ChangeOrders[i], nil
		}
	}
	return nil, Errorf(KindNotFound, "change order %d not found in proposal %d", id, p.ID)
}

// Area returns the area with the given ID.
func (d *Document) Area(id int64) (*Area, bool) {
	for i := range d.Areas {
		if d.Areas[i].ID == id {
			return &d.Areas[i], true
		}
	}
	return nil, false
}

// Option returns the option with the given ID, wherever it is.
func (d *Document) Option(id int64) (*Option, bool) {
	for i := range d.Areas {
		for j := range d.Areas[i].Options {
			if d.Areas[i].Options[j].ID == id {
				return &d.Areas[i].Options[j], true
			}
		}
	}
	return nil, false
}
