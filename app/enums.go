package app

import (
	"fmt"
	"strings"
)

// The contract's enumerations. Each is a string type with its full list of
// values; Parse functions match case-insensitively (names arrive from forms
// and query strings in any case) and return the canonical spelling.

type Status string

const (
	StatusUndefined      Status = "Undefined"
	StatusDraft          Status = "Draft"
	StatusSubmitted      Status = "Submitted"
	StatusViewedByClient Status = "ViewedByClient"
	StatusAccepted       Status = "Accepted"
	StatusDeclined       Status = "Declined"
	StatusDelayed        Status = "Delayed"
	StatusCompleted      Status = "Completed"
	StatusEmailFailed    Status = "EmailFailed"
	StatusExpired        Status = "Expired"
)

// Statuses lists every proposal and change-order status.
var Statuses = []Status{StatusUndefined, StatusDraft, StatusSubmitted, StatusViewedByClient,
	StatusAccepted, StatusDeclined, StatusDelayed, StatusCompleted, StatusEmailFailed, StatusExpired}

type OptionStatus string

const (
	OptionDraft    OptionStatus = "Draft"
	OptionSelected OptionStatus = "Selected"
	OptionDeclined OptionStatus = "Declined"
)

var OptionStatuses = []OptionStatus{OptionDraft, OptionSelected, OptionDeclined}

type PartyType string

const (
	PartyUndefined PartyType = "Undefined"
	PartyPerson    PartyType = "Person"
	PartyCompany   PartyType = "Company"
)

var PartyTypes = []PartyType{PartyUndefined, PartyPerson, PartyCompany}

type ContactType string

const (
	ContactUndefined  ContactType = "Undefined"
	ContactClient     ContactType = "Client"
	ContactEmployee   ContactType = "Employee"
	ContactContractor ContactType = "Contractor"
	ContactOther      ContactType = "Other"
)

var ContactTypes = []ContactType{ContactUndefined, ContactClient, ContactEmployee, ContactContractor, ContactOther}

type ItemType string

const (
	ItemPart       ItemType = "Part"
	ItemLabor      ItemType = "Labor"
	ItemFee        ItemType = "Fee"
	ItemCustomItem ItemType = "CustomItem"
)

var ItemTypes = []ItemType{ItemPart, ItemLabor, ItemFee, ItemCustomItem}

// Category is the summary bucket an item counts in: CustomItem counts as
// a part.
func (t ItemType) Category() Category {
	switch t {
	case ItemLabor:
		return CategoryLabor
	case ItemFee:
		return CategoryFees
	default:
		return CategoryParts
	}
}

// Category is one of the three buckets of the financial summary.
type Category int

const (
	CategoryParts Category = iota
	CategoryLabor
	CategoryFees
	numCategories
)

type DiscountType string

const (
	DiscountPercentage DiscountType = "Percentage"
	DiscountAmount     DiscountType = "Amount"
)

var DiscountTypes = []DiscountType{DiscountPercentage, DiscountAmount}

type TaxStatus string

const (
	TaxUndefined   TaxStatus = "Undefined"
	TaxOK          TaxStatus = "Ok"
	TaxExempt      TaxStatus = "Exempt"
	TaxUnavailable TaxStatus = "Unavailable"
)

var TaxStatuses = []TaxStatus{TaxUndefined, TaxOK, TaxExempt, TaxUnavailable}

type TaxMethod string

const (
	TaxClientLocation TaxMethod = "ClientLocation"
	TaxDealerLocation TaxMethod = "DealerLocation"
	TaxManual         TaxMethod = "Manual"
)

var TaxMethods = []TaxMethod{TaxClientLocation, TaxDealerLocation, TaxManual}

type ApplyTo string

const (
	ApplyNone  ApplyTo = "None"
	ApplyParts ApplyTo = "Parts"
	ApplyLabor ApplyTo = "Labor"
	ApplyFees  ApplyTo = "Fees"
)

var ApplyTos = []ApplyTo{ApplyNone, ApplyParts, ApplyLabor, ApplyFees}

type PaymentStatus string

const (
	PaymentUndefined PaymentStatus = "Undefined"
	PaymentDraft     PaymentStatus = "Draft"
	PaymentSubmitted PaymentStatus = "Submitted"
	PaymentViewed    PaymentStatus = "Viewed"
	PaymentPaid      PaymentStatus = "Paid"
	PaymentDeclined  PaymentStatus = "Declined"
	PaymentRefunded  PaymentStatus = "Refunded"
)

var PaymentStatuses = []PaymentStatus{PaymentUndefined, PaymentDraft, PaymentSubmitted,
	PaymentViewed, PaymentPaid, PaymentDeclined, PaymentRefunded}

type Role string

const (
	RoleAdmin  Role = "Admin"
	RoleSales  Role = "Sales"
	RoleViewer Role = "Viewer"
)

var Roles = []Role{RoleAdmin, RoleSales, RoleViewer}

// parseEnum finds s among values, ignoring case and surrounding spaces.
func parseEnum[T ~string](what, s string, values []T) (T, error) {
	s = strings.TrimSpace(s)
	for _, v := range values {
		if strings.EqualFold(string(v), s) {
			return v, nil
		}
	}
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	var zero T
	return zero, fmt.Errorf("%q is not a valid %s (one of %s)", s, what, strings.Join(names, ", "))
}

func ParseStatus(s string) (Status, error)       { return parseEnum("status", s, Statuses) }
func ParsePartyType(s string) (PartyType, error) { return parseEnum("partyType", s, PartyTypes) }
func ParseContactType(s string) (ContactType, error) {
	return parseEnum("contactType", s, ContactTypes)
}
func ParseOptionStatus(s string) (OptionStatus, error) {
	return parseEnum("option status", s, OptionStatuses)
}
func ParseItemType(s string) (ItemType, error) { return parseEnum("itemType", s, ItemTypes) }
func ParseRole(s string) (Role, error)         { return parseEnum("role", s, Roles) }
func ParseDiscountType(s string) (DiscountType, error) {
	return parseEnum("partsDiscountType", s, DiscountTypes)
}
