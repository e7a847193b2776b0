package app

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The proposal list's semantics: which proposals match a query and in
// what order. The server's indexes and the desktop's offline search both
// answer with these functions, so a search gives the same result online
// and off.

// SortField is a list sort key.
type SortField string

const (
	SortCreatedDate  SortField = "CreatedDate"
	SortModifiedDate SortField = "ModifiedDate"
	SortNumber       SortField = "Number"
	SortName         SortField = "Name"
	SortClientName   SortField = "ClientName"
	SortStatus       SortField = "Status"
)

var SortFields = []SortField{SortCreatedDate, SortModifiedDate, SortNumber, SortName, SortClientName, SortStatus}

// Paging limits of the list.
const (
	DefaultPageSize = 25
	MaxPageSize     = 200
)

// ListQuery is a parsed list request.
type ListQuery struct {
	SearchText    string
	Statuses      []Status
	ContactID     int64
	SalesPersonID int64
	ModifiedAfter Time
	Archived      bool
	SortBy        SortField
	Descending    bool
	PageNumber    int
	PageSize      int
}

// DefaultListQuery is the query with nothing set: newest-modified first,
// first page of 25, not archived.
func DefaultListQuery() ListQuery {
	return ListQuery{SortBy: SortModifiedDate, Descending: true, PageNumber: 1, PageSize: DefaultPageSize}
}

// ParseListQuery reads the list's query parameters; names match in any
// letter case. Statuses may repeat or be comma-separated.
func ParseListQuery(values url.Values) (ListQuery, error) {
	q := DefaultListQuery()
	get := func(name string) []string {
		var out []string
		for k, vs := range values {
			if strings.EqualFold(k, name) {
				out = append(out, vs...)
			}
		}
		return out
	}
	first := func(name string) (string, bool) {
		vs := get(name)
		if len(vs) == 0 || strings.TrimSpace(vs[0]) == "" {
			return "", false
		}
		return strings.TrimSpace(vs[0]), true
	}
	q.SearchText = strings.TrimSpace(strings.Join(get("SearchText"), " "))
	if n := len([]rune(q.SearchText)); n > MaxNameLength {
		return q, Invalid("SearchText", "is %d characters long; the limit is %d", n, MaxNameLength)
	}
	for _, v := range get("Statuses") {
		for _, s := range strings.Split(v, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			st, err := ParseStatus(s)
			if err != nil {
				return q, Invalid("Statuses", "%v", err)
			}
			if !slices.Contains(q.Statuses, st) {
				q.Statuses = append(q.Statuses, st)
			}
		}
	}
	var err error
	if q.ContactID, err = parseID(first("ContactId")); err != nil {
		return q, Invalid("ContactId", "%v", err)
	}
	if q.SalesPersonID, err = parseID(first("SalesPersonId")); err != nil {
		return q, Invalid("SalesPersonId", "%v", err)
	}
	if v, ok := first("ModifiedAfter"); ok {
		if q.ModifiedAfter, err = ParseTime(v); err != nil {
			return q, Invalid("ModifiedAfter", "%v", err)
		}
	}
	if v, ok := first("IsArchive"); ok {
		if q.Archived, err = strconv.ParseBool(v); err != nil {
			return q, Invalid("IsArchive", "must be true or false")
		}
	}
	if v, ok := first("SortBy"); ok {
		if strings.EqualFold(v, "LastModifiedDate") {
			v = string(SortModifiedDate)
		}
		if q.SortBy, err = parseEnum("SortBy", v, SortFields); err != nil {
			return q, Invalid("SortBy", "%v", err)
		}
	}
	if v, ok := first("SortDirection"); ok {
		switch {
		case strings.EqualFold(v, "Asc"):
			q.Descending = false
		case strings.EqualFold(v, "Desc"):
			q.Descending = true
		default:
			return q, Invalid("SortDirection", "must be Asc or Desc")
		}
	}
	err = parsePaging(first, MaxPageSize, &q.PageNumber, &q.PageSize)
	return q, err
}

// parsePaging reads PageNumber (1 or more) and PageSize (1 to max) into
// number and size, which keep their defaults when the parameter is
// absent; a bad value is InvalidPaging. The proposal list and the
// catalog page alike.
func parsePaging(first func(string) (string, bool), max int, number, size *int) error {
	if v, ok := first("PageNumber"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return InvalidPaging("PageNumber", "must be a whole number of at least 1, not %q", v)
		}
		*number = n
	}
	if v, ok := first("PageSize"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > max {
			return InvalidPaging("PageSize", "must be a whole number from 1 to %d, not %q", max, v)
		}
		*size = n
	}
	return nil
}

func parseID(s string, ok bool) (int64, error) {
	if !ok {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, Errorf(KindValidationFailed, "%q is not an ID", s)
	}
	return v, nil
}

// ListEntry is what the list rules read of a proposal: small enough for
// the server to keep in an index, so a page never decodes whole
// proposals.
type ListEntry struct {
	ID            int64  `json:"id"`
	Number        int64  `json:"number"`
	Name          string `json:"name"`
	Status        Status `json:"status"`
	Archived      bool   `json:"archived"`
	ContactID     int64  `json:"contactId"`
	SalesPersonID int64  `json:"salesPersonId"`
	Created       Time   `json:"created"`
	Modified      Time   `json:"modified"`
	ClientName    string `json:"clientName"`
	// Search is the lower-cased text that SearchText matches against.
	Search string `json:"search"`
}

// EntryOf extracts a proposal's list entry.
func EntryOf(p *Proposal) ListEntry {
	e := ListEntry{
		ID: p.ID, Number: p.Number, Name: p.Name, Status: p.Status, Archived: p.Archived,
		SalesPersonID: p.SalesPerson.ID, Created: p.CreatedDate, Modified: p.LastModifiedDate,
	}
	fields := []string{p.Name, strconv.FormatInt(p.Number, 10)}
	if c := p.Customer; c != nil {
		e.ContactID = c.ID
		e.ClientName = c.DisplayName()
		fields = append(fields, c.FirstName+" "+c.LastName, c.CompanyName, c.ContactEmail)
	}
	e.Search = strings.ToLower(strings.Join(fields, "\n"))
	return e
}

// Matches reports whether the entry is in the query's result. Every word
// of SearchText must occur, in any letter case, in the name, the number,
// the customer's name, company or email.
func (q *ListQuery) Matches(e *ListEntry) bool { return q.Matcher().Match(e) }

// Matcher is a query prepared to test many entries: the search text is
// split into words once, not once an entry.
type Matcher struct {
	q     *ListQuery
	words []string
}

// Matcher prepares q for matching; q must not change while it is in use.
func (q *ListQuery) Matcher() Matcher {
	return Matcher{q: q, words: strings.Fields(strings.ToLower(q.SearchText))}
}

// Match is ListQuery.Matches.
func (m Matcher) Match(e *ListEntry) bool {
	if !m.MatchFields(e) {
		return false
	}
	for _, w := range m.words {
		if !strings.Contains(e.Search, w) {
			return false
		}
	}
	return true
}

// Words are the lower-cased words of SearchText that must each occur in
// an entry's Search text.
func (m Matcher) Words() []string { return m.words }

// MatchFields is Match without the search text: the archive flag,
// statuses, contact, salesperson and modified date. An index that answers
// the words itself checks the rest with it.
func (m Matcher) MatchFields(e *ListEntry) bool {
	q := m.q
	if e.Archived != q.Archived {
		return false
	}
	if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, e.Status) {
		return false
	}
	if q.ContactID != 0 && e.ContactID != q.ContactID {
		return false
	}
	if q.SalesPersonID != 0 && e.SalesPersonID != q.SalesPersonID {
		return false
	}
	if !q.ModifiedAfter.IsZero() && !e.Modified.After(q.ModifiedAfter.Time) {
		return false
	}
	return true
}

// Compare orders two entries as the query sorts them. Ties break on ID in
// the same direction, so every order is total and paging is stable.
// Names sort case-insensitively; statuses in their lifecycle order (the
// order of Statuses).
func (q *ListQuery) Compare(a, b *ListEntry) int {
	var c int
	switch q.SortBy {
	case SortCreatedDate:
		c = a.Created.Compare(b.Created.Time)
	case SortNumber:
		c = cmp.Compare(a.Number, b.Number)
	case SortName:
		c = strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	case SortClientName:
		c = strings.Compare(strings.ToLower(a.ClientName), strings.ToLower(b.ClientName))
	case SortStatus:
		c = cmp.Compare(slices.Index(Statuses, a.Status), slices.Index(Statuses, b.Status))
	default:
		c = a.Modified.Compare(b.Modified.Time)
	}
	if c == 0 {
		c = cmp.Compare(a.ID, b.ID)
	}
	if q.Descending {
		return -c
	}
	return c
}

// Select is the whole list rule over a set of entries: the matches,
// sorted, and the requested page of them, with the count of all matches.
func (q *ListQuery) Select(entries []ListEntry) (page []ListEntry, count int) {
	var matched []ListEntry
	m := q.Matcher()
	for i := range entries {
		if m.Match(&entries[i]) {
			matched = append(matched, entries[i])
		}
	}
	slices.SortFunc(matched, func(a, b ListEntry) int { return q.Compare(&a, &b) })
	return q.Page(matched), len(matched)
}

// Page cuts the query's page out of sorted matches.
func (q *ListQuery) Page(sorted []ListEntry) []ListEntry {
	// Compare page numbers, not offsets: (PageNumber-1)*PageSize
	// overflows for a huge PageNumber and could wrap onto a real page.
	if len(sorted) == 0 || q.PageSize < 1 || q.PageNumber < 1 ||
		q.PageNumber-1 > (len(sorted)-1)/q.PageSize {
		return []ListEntry{}
	}
	start := (q.PageNumber - 1) * q.PageSize
	return sorted[start:min(start+q.PageSize, len(sorted))]
}
