package app

import (
	"cmp"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// NewContact is the input of "create person": the rules a contact must
// meet, checked the same way by the server and by the desktop offline.
type NewContact struct {
	PartyType    PartyType   `json:"partyType"`
	ContactType  ContactType `json:"contactType"`
	FirstName    string      `json:"firstName"`
	LastName     string      `json:"lastName"`
	CompanyName  string      `json:"companyName"`
	ContactEmail string      `json:"contactEmail"`
	ContactPhone string      `json:"contactPhone"`
}

// Params are the request values of "create person", with the limits
// the server, the desktop and the API document share.
func (n *NewContact) Params() []Param {
	return []Param{
		BodyEnum("PartyType", &n.PartyType, []PartyType{PartyPerson, PartyCompany}, "Person or Company, in any letter case.").Require(),
		BodyEnum("ContactType", &n.ContactType, []ContactType{ContactClient, ContactEmployee, ContactContractor, ContactOther}, "In any letter case.").Require(),
		BodyText("FirstName", &n.FirstName, "").Max(MaxNameLength).NonBlank().Require(),
		BodyText("LastName", &n.LastName, "").Max(MaxNameLength),
		BodyText("CompanyName", &n.CompanyName, "Required when PartyType is Company.").Max(MaxNameLength),
		BodyText("ContactEmail", &n.ContactEmail, "An email address; empty for none.").Max(MaxNameLength).As("email"),
		BodyText("ContactPhone", &n.ContactPhone, "").Max(MaxNameLength),
	}
}

// Contact validates the input and returns the contact it describes, with
// the given ID.
func (n NewContact) Contact(id int64) (Contact, error) {
	if err := CheckParams(n.Params()); err != nil {
		return Contact{}, err
	}
	pt, err := ParsePartyType(string(n.PartyType))
	if err != nil || pt == PartyUndefined {
		return Contact{}, Invalid("PartyType", "must be Person or Company")
	}
	ct, err := ParseContactType(string(n.ContactType))
	if err != nil || ct == ContactUndefined {
		return Contact{}, Invalid("ContactType", "must be Client, Employee, Contractor or Other")
	}
	if err := CheckName("FirstName", n.FirstName); err != nil {
		return Contact{}, err
	}
	if pt == PartyCompany {
		if err := CheckName("CompanyName", n.CompanyName); err != nil {
			return Contact{}, err
		}
	}
	if n.ContactEmail != "" {
		if _, err := mail.ParseAddress(n.ContactEmail); err != nil {
			return Contact{}, Invalid("ContactEmail", "is not an email address")
		}
	}
	return Contact{ID: id, PartyType: pt, ContactType: ct, FirstName: n.FirstName, LastName: n.LastName,
		CompanyName: n.CompanyName, ContactEmail: n.ContactEmail, ContactPhone: n.ContactPhone}, nil
}

// NewLocation is the input of "create location" for a contact.
type NewLocation struct {
	Street     string `json:"street"`
	Suite      string `json:"suite"`
	City       string `json:"city"`
	PostalCode string `json:"postalCode"`
	State      string `json:"state"`
	Country    string `json:"country"`
	Phone      string `json:"phone"`
	IsPrimary  bool   `json:"isPrimary"`
	IsBilling  bool   `json:"isBilling"`
}

// Params are the request values of "create location", with their
// limits.
func (n *NewLocation) Params() []Param {
	text := func(name string, dst *string) Param { return BodyText(name, dst, "").Max(MaxNameLength) }
	return []Param{
		text("Street", &n.Street).NonBlank().Require(),
		text("Suite", &n.Suite), text("City", &n.City), text("PostalCode", &n.PostalCode),
		text("State", &n.State), text("Country", &n.Country), text("Phone", &n.Phone),
		BodyBool("IsPrimary", &n.IsPrimary, "Make this the contact's primary location."),
		BodyBool("IsBilling", &n.IsBilling, ""),
	}
}

// Location validates the input and returns the location it describes. A
// two-letter state is taken as the abbreviation; a state name the tax
// table knows gets its abbreviation filled in.
func (n NewLocation) Location(id, contactID int64) (ContactLocation, error) {
	if err := CheckParams(n.Params()); err != nil {
		return ContactLocation{}, err
	}
	if IsUSCountry(n.Country) && n.PostalCode != "" && !usZIP.MatchString(n.PostalCode) {
		return ContactLocation{}, Invalid("PostalCode", "must be a US ZIP code: 5 digits, or 5+4 (12345-6789)")
	}
	loc := Location{ID: id, Street: n.Street, Suite: n.Suite, City: n.City, PostalCode: n.PostalCode,
		State: n.State, Country: n.Country, Phone: n.Phone}
	if _, abbrev, ok := USTaxTable().Lookup(Location{State: n.State}); ok {
		loc.StateAbbrev = abbrev
	}
	return ContactLocation{Location: loc, ContactID: contactID, IsPrimary: n.IsPrimary, IsBilling: n.IsBilling}, nil
}

// usZIP is a US ZIP code: five digits, or ZIP+4.
var usZIP = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)

// IsUSCountry reports whether a location's country is the United States
// (or not given: the contract's locations are US by default).
func IsUSCountry(country string) bool {
	switch strings.ToUpper(strings.TrimSpace(country)) {
	case "", "US", "USA", "U.S.", "U.S.A.", "UNITED STATES", "UNITED STATES OF AMERICA":
		return true
	}
	return false
}

// SetPrimary marks one location of a contact primary and clears the flag
// on the others, keeping the rule that a contact has at most one.
func SetPrimary(locs []ContactLocation, id int64) {
	for i := range locs {
		locs[i].IsPrimary = locs[i].ID == id
	}
}

// ContactQuery is the people list's query.
type ContactQuery struct {
	SearchText   string
	ContactTypes []ContactType
	SortBy       string // FirstName, LastName, CompanyName
	Descending   bool
	PageNumber   int
	PageSize     int
}

var contactSortFields = []string{"FirstName", "LastName", "CompanyName"}

// ParseContactQuery reads the people list's query parameters (names in
// any case): SearchText, ContactTypes, SortBy, SortDirection, PageNumber,
// PageSize, with the proposal list's paging limits.
func ParseContactQuery(values url.Values) (ContactQuery, error) {
	q := ContactQuery{SortBy: "LastName", PageNumber: 1, PageSize: DefaultPageSize}
	lq, err := ParseListQuery(url.Values{
		"SearchText": lookupAll(values, "SearchText"), "PageNumber": lookupAll(values, "PageNumber"),
		"PageSize": lookupAll(values, "PageSize"), "SortDirection": lookupAll(values, "SortDirection"),
	})
	if err != nil {
		return q, err
	}
	q.SearchText, q.PageNumber, q.PageSize = lq.SearchText, lq.PageNumber, lq.PageSize
	q.Descending = len(lookupAll(values, "SortDirection")) > 0 && lq.Descending
	for _, v := range lookupAll(values, "ContactTypes") {
		for _, s := range strings.Split(v, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			ct, err := ParseContactType(s)
			if err != nil {
				return q, Invalid("ContactTypes", "%v", err)
			}
			q.ContactTypes = append(q.ContactTypes, ct)
		}
	}
	if vs := lookupAll(values, "SortBy"); len(vs) > 0 && strings.TrimSpace(vs[0]) != "" {
		f, err := parseEnum("SortBy", vs[0], contactSortFields)
		if err != nil {
			return q, Invalid("SortBy", "%v", err)
		}
		q.SortBy = f
	}
	return q, nil
}

func lookupAll(values url.Values, name string) []string {
	var out []string
	for k, vs := range values {
		if strings.EqualFold(k, name) {
			out = append(out, vs...)
		}
	}
	return out
}

// Matches reports whether the contact is in the query's result: every
// search word in its names, company, email or phone; its type among
// ContactTypes when given.
func (q *ContactQuery) Matches(c *Contact) bool {
	if len(q.ContactTypes) > 0 && !slices.Contains(q.ContactTypes, c.ContactType) {
		return false
	}
	text := strings.ToLower(strings.Join([]string{c.FirstName, c.LastName, c.CompanyName, c.ContactEmail, c.ContactPhone}, "\n"))
	for _, w := range strings.Fields(strings.ToLower(q.SearchText)) {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Compare orders contacts by the sort field, case-insensitively, then by ID.
func (q *ContactQuery) Compare(a, b *Contact) int {
	key := func(c *Contact) string {
		switch q.SortBy {
		case "FirstName":
			return strings.ToLower(c.FirstName + " " + c.LastName)
		case "CompanyName":
			return strings.ToLower(c.CompanyName)
		default:
			return strings.ToLower(c.LastName + " " + c.FirstName)
		}
	}
	r := cmp.Or(strings.Compare(key(a), key(b)), cmp.Compare(a.ID, b.ID))
	if q.Descending {
		return -r
	}
	return r
}

// Select filters, sorts and pages contacts; count is all matches.
func (q *ContactQuery) Select(all []Contact) (page []Contact, count int) {
	var matched []Contact
	for i := range all {
		if q.Matches(&all[i]) {
			matched = append(matched, all[i])
		}
	}
	slices.SortFunc(matched, func(a, b Contact) int { return q.Compare(&a, &b) })
	start := (q.PageNumber - 1) * q.PageSize
	if start < 0 || start >= len(matched) {
		return []Contact{}, len(matched)
	}
	return matched[start:min(start+q.PageSize, len(matched))], len(matched)
}

// FormatID writes an ID as the API's paths carry it.
func FormatID(id int64) string { return strconv.FormatInt(id, 10) }
