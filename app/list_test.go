package app_test

import (
	"cmp"
	"math/rand"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"proposaldesk/app"
)

func TestParseListQuery(t *testing.T) {
	def := app.DefaultListQuery()
	with := func(f func(q *app.ListQuery)) app.ListQuery {
		q := app.DefaultListQuery()
		f(&q)
		return q
	}
	for _, tc := range []struct {
		name  string
		query string
		want  app.ListQuery
	}{
		{"nothing", "", def},
		{"blank values keep defaults", "PageNumber=&PageSize=%20&SortBy=&IsArchive=", def},
		{"search text", "SearchText=%20Lake%20house%20", with(func(q *app.ListQuery) { q.SearchText = "Lake house" })},
		{"search text of 200 characters", "SearchText=" + strings.Repeat("a", 200), with(func(q *app.ListQuery) { q.SearchText = strings.Repeat("a", 200) })},
		{"repeated statuses", "Statuses=Draft&Statuses=Submitted", with(func(q *app.ListQuery) { q.Statuses = []app.Status{app.StatusDraft, app.StatusSubmitted} })},
		{"comma-separated statuses in any case", "statuses=draft,%20ACCEPTED,,", with(func(q *app.ListQuery) { q.Statuses = []app.Status{app.StatusDraft, app.StatusAccepted} })},
		{"duplicate statuses once", "Statuses=Draft,draft&STATUSES=Draft", with(func(q *app.ListQuery) { q.Statuses = []app.Status{app.StatusDraft} })},
		{"contact and salesperson", "ContactId=10&salespersonid=2", with(func(q *app.ListQuery) { q.ContactID, q.SalesPersonID = 10, 2 })},
		{"modified after with offset", "ModifiedAfter=2026-01-02T03:04:05%2B02:00", with(func(q *app.ListQuery) {
			q.ModifiedAfter = app.Time{Time: time.Date(2026, 1, 2, 1, 4, 5, 0, time.UTC)}
		})},
		{"modified after a bare date", "modifiedafter=2026-01-02", with(func(q *app.ListQuery) {
			q.ModifiedAfter = app.Time{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
		})},
		{"archived", "IsArchive=true", with(func(q *app.ListQuery) { q.Archived = true })},
		{"archived in any case", "isarchive=TRUE", with(func(q *app.ListQuery) { q.Archived = true })},
		{"not archived", "IsArchive=false", def},
		{"sort by name ascending", "SortBy=Name&SortDirection=Asc", with(func(q *app.ListQuery) { q.SortBy, q.Descending = app.SortName, false })},
		{"names and values in any case", "SORTBY=clientname&sortdirection=ASC", with(func(q *app.ListQuery) { q.SortBy, q.Descending = app.SortClientName, false })},
		{"LastModifiedDate is ModifiedDate", "SortBy=LastModifiedDate&SortDirection=Asc", with(func(q *app.ListQuery) { q.Descending = false })},
		{"lastmodifieddate in any case", "sortby=lastmodifieddate", def},
		{"every sort field", "SortBy=CreatedDate", with(func(q *app.ListQuery) { q.SortBy = app.SortCreatedDate })},
		{"number", "SortBy=Number&SortDirection=Desc", with(func(q *app.ListQuery) { q.SortBy = app.SortNumber })},
		{"status", "SortBy=Status", with(func(q *app.ListQuery) { q.SortBy = app.SortStatus })},
		{"paging", "PageNumber=3&PageSize=200", with(func(q *app.ListQuery) { q.PageNumber, q.PageSize = 3, 200 })},
		{"page size 1", "pagesize=1", with(func(q *app.ListQuery) { q.PageSize = 1 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := app.ParseListQuery(values)
			if err != nil {
				t.Fatalf("ParseListQuery(%s): %v", tc.query, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseListQuery(%s)\n got  %+v\n want %+v", tc.query, got, tc.want)
			}
		})
	}
}

func TestListQueryDefaults(t *testing.T) {
	q := app.DefaultListQuery()
	if q.SortBy != app.SortModifiedDate || !q.Descending || q.PageNumber != 1 || q.PageSize != 25 || q.Archived {
		t.Errorf("defaults %+v, want Desc by ModifiedDate, page 1 of 25, not archived", q)
	}
}

func TestParseListQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  app.Kind
		field string
	}{
		{"SortBy=Price", app.KindValidationFailed, "SortBy"},
		{"SortBy=Modified", app.KindValidationFailed, "SortBy"},
		{"SortDirection=Up", app.KindValidationFailed, "SortDirection"},
		{"SortDirection=Ascending", app.KindValidationFailed, "SortDirection"},
		{"ModifiedAfter=yesterday", app.KindValidationFailed, "ModifiedAfter"},
		{"ModifiedAfter=2026-13-01", app.KindValidationFailed, "ModifiedAfter"},
		{"IsArchive=maybe", app.KindValidationFailed, "IsArchive"},
		{"IsArchive=yes", app.KindValidationFailed, "IsArchive"},
		{"Statuses=Draft,Bogus", app.KindValidationFailed, "Statuses"},
		{"ContactId=abc", app.KindValidationFailed, "ContactId"},
		{"ContactId=0", app.KindValidationFailed, "ContactId"},
		{"SalesPersonId=-2", app.KindValidationFailed, "SalesPersonId"},
		{"SearchText=" + strings.Repeat("a", 201), app.KindValidationFailed, "SearchText"},
		{"PageNumber=0", app.KindInvalidPaging, ""},
		{"PageNumber=-1", app.KindInvalidPaging, ""},
		{"PageNumber=two", app.KindInvalidPaging, ""},
		{"pagenumber=1.5", app.KindInvalidPaging, ""},
		{"PageSize=201", app.KindInvalidPaging, ""},
		{"PageSize=0", app.KindInvalidPaging, ""},
		{"PageSize=-5", app.KindInvalidPaging, ""},
		{"PAGESIZE=99999999999999999999", app.KindInvalidPaging, ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			values, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			_, err = app.ParseListQuery(values)
			if k := app.KindOf(err); k != tc.want {
				t.Fatalf("kind %s (%v), want %s", k, err, tc.want)
			}
			if tc.field != "" {
				assertNamesField(t, err, tc.field)
			}
		})
	}
}

// listProposal is a proposal for the list tests: fixtureProposal with
// Carla Client (carla@example.com) assigned, then edited by f.
func listProposal(f func(p *app.Proposal)) *app.Proposal {
	p := fixtureProposalWithContact(app.StatusDraft, contactOnePrimary, locCA)
	if f != nil {
		f(p)
	}
	return p
}

func listEntry(f func(p *app.Proposal)) app.ListEntry { return app.EntryOf(listProposal(f)) }

func TestMatches(t *testing.T) {
	modified := fixtureCreated.Time
	query := func(f func(q *app.ListQuery)) app.ListQuery {
		q := app.DefaultListQuery()
		f(&q)
		return q
	}
	search := func(s string) app.ListQuery { return query(func(q *app.ListQuery) { q.SearchText = s }) }
	plain := listEntry(nil)
	company := listEntry(func(p *app.Proposal) {
		p.Customer = &app.Customer{Contact: newFixtureDirectory().contacts[contactTwoPrimaries]}
	})
	noCustomer := listEntry(func(p *app.Proposal) { p.Customer = nil })
	archived := listEntry(func(p *app.Proposal) { p.Archived = true })
	for _, tc := range []struct {
		name  string
		q     app.ListQuery
		e     app.ListEntry
		match bool
	}{
		{"default query", app.DefaultListQuery(), plain, true},
		{"archived hidden by default", app.DefaultListQuery(), archived, false},
		{"archived query finds archived", query(func(q *app.ListQuery) { q.Archived = true }), archived, true},
		{"archived query skips the rest", query(func(q *app.ListQuery) { q.Archived = true }), plain, false},
		{"name word", search("lake"), plain, true},
		{"name words any case", search("LAKE House"), plain, true},
		{"part of a word", search("ous"), plain, true},
		{"number", search("42"), plain, true},
		{"other number", search("43"), plain, false},
		{"first name", search("carla"), plain, true},
		{"last name", search("CLIENT"), plain, true},
		{"full name", search("Carla Client"), plain, true},
		{"email", search("carla@example.com"), plain, true},
		{"email domain", search("EXAMPLE.COM"), plain, true},
		{"company", search("twice ltd"), company, true},
		{"words from different fields", search("lake carla 42"), plain, true},
		{"every word must occur", search("lake garage"), plain, false},
		{"word not anywhere", search("garage"), plain, false},
		{"customer words without a customer", search("carla"), noCustomer, false},
		{"name without a customer", search("lake"), noCustomer, true},
		{"salesperson is not searched", search("sam"), plain, false},
		{"status listed", query(func(q *app.ListQuery) { q.Statuses = []app.Status{app.StatusSubmitted, app.StatusDraft} }), plain, true},
		{"status not listed", query(func(q *app.ListQuery) { q.Statuses = []app.Status{app.StatusSubmitted} }), plain, false},
		{"contact", query(func(q *app.ListQuery) { q.ContactID = contactOnePrimary }), plain, true},
		{"other contact", query(func(q *app.ListQuery) { q.ContactID = contactNoLocation }), plain, false},
		{"contact filter without a customer", query(func(q *app.ListQuery) { q.ContactID = contactOnePrimary }), noCustomer, false},
		{"salesperson", query(func(q *app.ListQuery) { q.SalesPersonID = fixtureSales.ID }), plain, true},
		{"other salesperson", query(func(q *app.ListQuery) { q.SalesPersonID = fixtureAdmin.ID }), plain, false},
		{"modified after earlier", query(func(q *app.ListQuery) { q.ModifiedAfter = app.At(modified.Add(-time.Millisecond)) }), plain, true},
		{"modified after the same instant", query(func(q *app.ListQuery) { q.ModifiedAfter = app.At(modified) }), plain, false},
		{"modified after later", query(func(q *app.ListQuery) { q.ModifiedAfter = app.At(modified.Add(time.Millisecond)) }), plain, false},
		{"all filters", query(func(q *app.ListQuery) {
			q.SearchText, q.Statuses, q.ContactID, q.SalesPersonID = "house", []app.Status{app.StatusDraft}, contactOnePrimary, fixtureSales.ID
			q.ModifiedAfter = app.At(modified.Add(-time.Hour))
		}), plain, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.q.Matches(&tc.e); got != tc.match {
				t.Errorf("Matches = %v, want %v (entry %+v)", got, tc.match, tc.e)
			}
		})
	}
}

func TestEntryOf(t *testing.T) {
	e := listEntry(func(p *app.Proposal) { p.Archived = true })
	if e.ID != fixtureProposalID || e.Number != 42 || e.Name != "Lake house" || e.Status != app.StatusDraft || !e.Archived ||
		e.ContactID != contactOnePrimary || e.SalesPersonID != fixtureSales.ID || e.ClientName != "Carla Client" ||
		!e.Created.Equal(fixtureCreated.Time) || !e.Modified.Equal(fixtureCreated.Time) {
		t.Errorf("EntryOf = %+v", e)
	}
	c := listEntry(func(p *app.Proposal) {
		p.Customer = &app.Customer{Contact: newFixtureDirectory().contacts[contactTwoPrimaries]}
	})
	if c.ClientName != "Twice Ltd" {
		t.Errorf("company ClientName = %q, want the company name", c.ClientName)
	}
}

func TestCompare(t *testing.T) {
	day := func(d int) app.Time { return app.At(time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC)) }
	// Each case gives entries a and b (IDs 2 and 1) that differ in the
	// sort field, with a first in ascending order: so the lower ID comes
	// second, and a tie-break on ID could not pass for the field.
	for _, tc := range []struct {
		by   app.SortField
		a, b func(e *app.ListEntry)
	}{
		{app.SortCreatedDate, func(e *app.ListEntry) { e.Created = day(1) }, func(e *app.ListEntry) { e.Created = day(2) }},
		{app.SortModifiedDate, func(e *app.ListEntry) { e.Modified = day(1) }, func(e *app.ListEntry) { e.Modified = day(2) }},
		{app.SortNumber, func(e *app.ListEntry) { e.Number = 9 }, func(e *app.ListEntry) { e.Number = 10 }},
		{app.SortName, func(e *app.ListEntry) { e.Name = "apple" }, func(e *app.ListEntry) { e.Name = "Banana" }},
		{app.SortClientName, func(e *app.ListEntry) { e.ClientName = "acme" }, func(e *app.ListEntry) { e.ClientName = "Zed" }},
		{app.SortStatus, func(e *app.ListEntry) { e.Status = app.StatusDraft }, func(e *app.ListEntry) { e.Status = app.StatusCompleted }},
	} {
		t.Run(string(tc.by), func(t *testing.T) {
			a, b := app.ListEntry{ID: 2}, app.ListEntry{ID: 1}
			tc.a(&a)
			tc.b(&b)
			asc := app.ListQuery{SortBy: tc.by}
			desc := app.ListQuery{SortBy: tc.by, Descending: true}
			if asc.Compare(&a, &b) >= 0 || asc.Compare(&b, &a) <= 0 {
				t.Errorf("ascending: Compare(a, b) = %d, Compare(b, a) = %d; want a first", asc.Compare(&a, &b), asc.Compare(&b, &a))
			}
			if desc.Compare(&a, &b) <= 0 || desc.Compare(&b, &a) >= 0 {
				t.Errorf("descending: want b first")
			}
			// Same key: the ID decides, in the query's direction.
			tc.a(&b)
			if asc.Compare(&b, &a) >= 0 || desc.Compare(&a, &b) >= 0 {
				t.Errorf("tie: ascending puts ID 1 first, descending ID 2")
			}
			if asc.Compare(&a, &a) != 0 || desc.Compare(&b, &b) != 0 {
				t.Errorf("an entry does not compare equal to itself")
			}
		})
	}
}

func TestCompareNamesIgnoreCase(t *testing.T) {
	q := app.ListQuery{SortBy: app.SortName}
	a, b := app.ListEntry{ID: 1, Name: "kitchen"}, app.ListEntry{ID: 2, Name: "KITCHEN"}
	if q.Compare(&a, &b) >= 0 {
		t.Error("names equal but for case are not ordered by ID")
	}
}

// listSet is the fixed entry set of TestSelect: ten not-archived Draft
// entries numbered 1..10 (IDs 101..110), one archived, one Submitted.
func listSet() []app.ListEntry {
	var out []app.ListEntry
	for i := 1; i <= 12; i++ {
		out = append(out, listEntry(func(p *app.Proposal) {
			p.ID, p.Number = int64(100+i), int64(i)
			p.LastModifiedDate = app.At(fixtureCreated.Add(time.Duration(i) * time.Hour))
			switch i {
			case 11:
				p.Archived = true
			case 12:
				p.Status = app.StatusSubmitted
			}
		}))
	}
	rand.New(rand.NewSource(1)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func TestSelect(t *testing.T) {
	entries := listSet()
	numbers := func(es []app.ListEntry) []int64 {
		out := []int64{}
		for _, e := range es {
			out = append(out, e.Number)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		query     string
		wantPage  []int64
		wantCount int
	}{
		{"default: newest modified first", "", []int64{12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 11},
		{"drafts by number, page 2 of 3", "Statuses=Draft&SortBy=Number&SortDirection=Asc&PageSize=3&PageNumber=2", []int64{4, 5, 6}, 10},
		{"last partial page", "Statuses=Draft&SortBy=Number&SortDirection=Asc&PageSize=3&PageNumber=4", []int64{10}, 10},
		{"past the end", "Statuses=Draft&PageSize=3&PageNumber=5", []int64{}, 10},
		{"far past the end", "PageSize=64&PageNumber=288230376151711745", []int64{}, 11},
		{"archived", "IsArchive=true", []int64{11}, 1},
		{"number search", "SearchText=1&SortBy=Number&SortDirection=Asc", []int64{1, 10, 12}, 3},
		{"nothing matches", "SearchText=garage", []int64{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values, _ := url.ParseQuery(tc.query)
			q, err := app.ParseListQuery(values)
			if err != nil {
				t.Fatal(err)
			}
			before := fixtureJSON(t, entries)
			page, count := q.Select(entries)
			if count != tc.wantCount {
				t.Errorf("count %d, want %d", count, tc.wantCount)
			}
			if got := numbers(page); !slices.Equal(got, tc.wantPage) {
				t.Errorf("page %v, want %v", got, tc.wantPage)
			}
			if page == nil {
				t.Error("nil page: it must encode as [] not null")
			}
			if fixtureJSON(t, entries) != before {
				t.Error("Select reordered or changed its input")
			}
		})
	}
}

// The property test: random entries and queries, checked against a
// brute-force filter and an independent ordering.

// listRow is one random proposal, in the raw fields the brute force reads.
type listRow struct {
	id, number       int64
	name             string
	status           app.Status
	archived         bool
	contact          *app.Contact
	salesPerson      int64
	created, updated app.Time
}

type listScenario struct {
	rows  []listRow
	query app.ListQuery
}

var (
	randNames    = []string{"Lake House", "lake cabin", "Office", "Smith Residence", "Café Noir", "CAFÉ annex", "Theater 2", ""}
	randContacts = []app.Contact{
		{ID: 1, PartyType: app.PartyPerson, FirstName: "Ann", LastName: "Smith", ContactEmail: "ann@acme.com"},
		{ID: 2, PartyType: app.PartyCompany, FirstName: "Bob", LastName: "Smithers", CompanyName: "Acme", ContactEmail: "bob@acme.com"},
		{ID: 3, PartyType: app.PartyPerson, FirstName: "anna", LastName: "Lake"},
		{ID: 4, PartyType: app.PartyCompany, FirstName: "Cy", CompanyName: "Zed & Co"},
	}
	randWords = []string{"lake", "LAKE", "ann", "smith", "acme", "1", "2", "café", "CAFÉ", "house", "zzz", "@acme", "o", "&"}
	randTimes = []app.Time{
		app.At(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		app.At(time.Date(2026, 1, 1, 0, 0, 0, 1_000_000, time.UTC)),
		app.At(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)),
		app.At(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)),
	}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.Intn(len(xs))] }

func (listScenario) Generate(r *rand.Rand, size int) reflect.Value {
	n := r.Intn(min(size, 40) + 1)
	ids := r.Perm(n)
	s := listScenario{}
	for i := range n {
		row := listRow{
			id: int64(ids[i] + 1), number: int64(r.Intn(25) + 1), name: pick(r, randNames),
			status: pick(r, app.Statuses), archived: r.Intn(5) == 0, salesPerson: int64(r.Intn(3) + 1),
			created: pick(r, randTimes), updated: pick(r, randTimes),
		}
		if r.Intn(4) > 0 {
			c := pick(r, randContacts)
			row.contact = &c
		}
		s.rows = append(s.rows, row)
	}
	q := app.DefaultListQuery()
	for range r.Intn(3) {
		if st := pick(r, app.Statuses); !slices.Contains(q.Statuses, st) {
			q.Statuses = append(q.Statuses, st)
		}
	}
	if r.Intn(3) == 0 {
		q.ContactID = int64(r.Intn(5)) // 0: no filter
	}
	if r.Intn(3) == 0 {
		q.SalesPersonID = int64(r.Intn(4))
	}
	if r.Intn(3) == 0 {
		q.ModifiedAfter = pick(r, randTimes)
	}
	q.Archived = r.Intn(4) == 0
	var words []string
	for range r.Intn(3) {
		words = append(words, pick(r, randWords))
	}
	q.SearchText = strings.Join(words, " ")
	q.SortBy = pick(r, app.SortFields)
	q.Descending = r.Intn(2) == 0
	q.PageSize = r.Intn(7) + 1
	s.query = q
	return reflect.ValueOf(s)
}

func (row listRow) proposal() *app.Proposal {
	p := fixtureProposal(row.status)
	p.ID, p.Number, p.Name, p.Archived = row.id, row.number, row.name, row.archived
	p.SalesPerson = app.Salesperson{ID: row.salesPerson}
	p.CreatedDate, p.LastModifiedDate = row.created, row.updated
	if row.contact != nil {
		p.Customer = &app.Customer{Contact: *row.contact}
	}
	return p
}

// bruteMatch is the contract's filter written out directly over the raw
// fields.
func bruteMatch(q app.ListQuery, row listRow) bool {
	if row.archived != q.Archived {
		return false
	}
	if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, row.status) {
		return false
	}
	if q.ContactID != 0 && (row.contact == nil || row.contact.ID != q.ContactID) {
		return false
	}
	if q.SalesPersonID != 0 && row.salesPerson != q.SalesPersonID {
		return false
	}
	if !q.ModifiedAfter.IsZero() && !row.updated.After(q.ModifiedAfter.Time) {
		return false
	}
	fields := []string{row.name, strconv.FormatInt(row.number, 10)}
	if c := row.contact; c != nil {
		fields = append(fields, c.FirstName, c.LastName, c.CompanyName, c.ContactEmail)
	}
	for _, w := range strings.Fields(q.SearchText) {
		found := false
		for _, f := range fields {
			if strings.Contains(strings.ToLower(f), strings.ToLower(w)) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// bruteCompare orders rows by the query's sort key, then ID.
func bruteCompare(q app.ListQuery, a, b listRow) int {
	client := func(r listRow) string {
		if r.contact == nil {
			return ""
		}
		if r.contact.PartyType == app.PartyCompany && r.contact.CompanyName != "" {
			return strings.ToLower(r.contact.CompanyName)
		}
		return strings.ToLower(strings.TrimSpace(r.contact.FirstName + " " + r.contact.LastName))
	}
	var c int
	switch q.SortBy {
	case app.SortCreatedDate:
		c = a.created.Compare(b.created.Time)
	case app.SortModifiedDate:
		c = a.updated.Compare(b.updated.Time)
	case app.SortNumber:
		c = cmp.Compare(a.number, b.number)
	case app.SortName:
		c = cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	case app.SortClientName:
		c = cmp.Compare(client(a), client(b))
	case app.SortStatus:
		c = cmp.Compare(slices.Index(allStatuses, a.status), slices.Index(allStatuses, b.status))
	}
	c = cmp.Or(c, cmp.Compare(a.id, b.id))
	if q.Descending {
		c = -c
	}
	return c
}

func TestSelectProperty(t *testing.T) {
	property := func(s listScenario) bool {
		entries := make([]app.ListEntry, len(s.rows))
		var want []listRow
		for i, row := range s.rows {
			entries[i] = app.EntryOf(row.proposal())
			if bruteMatch(s.query, row) {
				want = append(want, row)
			}
		}
		slices.SortFunc(want, func(a, b listRow) int { return bruteCompare(s.query, a, b) })

		// Select's pages, concatenated, are the sorted matches.
		var all []int64
		q := s.query
		for q.PageNumber = 1; ; q.PageNumber++ {
			page, count := q.Select(entries)
			if count != len(want) {
				t.Logf("page %d: count %d, want %d", q.PageNumber, count, len(want))
				return false
			}
			if len(page) > q.PageSize {
				t.Logf("page of %d, size %d", len(page), q.PageSize)
				return false
			}
			if len(page) == 0 {
				break
			}
			for _, e := range page {
				all = append(all, e.ID)
			}
		}
		var wantIDs []int64
		for _, row := range want {
			wantIDs = append(wantIDs, row.id)
		}
		if !slices.Equal(all, wantIDs) {
			t.Logf("query %+v\n got  %v\n want %v", s.query, all, wantIDs)
			return false
		}
		// Compare is a total order: reflexive zero, antisymmetric, and zero
		// only for the same ID.
		for i := range entries {
			for j := range entries {
				c, r := s.query.Compare(&entries[i], &entries[j]), s.query.Compare(&entries[j], &entries[i])
				if (c == 0) != (entries[i].ID == entries[j].ID) || cmp.Compare(c, 0) != -cmp.Compare(r, 0) {
					t.Logf("Compare(%d, %d) = %d, reverse %d", entries[i].ID, entries[j].ID, c, r)
					return false
				}
			}
		}
		return true
	}
	if err := quick.Check(property, &quick.Config{MaxCount: 500, Rand: rand.New(rand.NewSource(20261122))}); err != nil {
		t.Error(err)
	}
}

// TestPageBounds: pages of seven entries; out-of-range pages are empty,
// including page numbers whose offset overflows int.
func TestPageBounds(t *testing.T) {
	sorted := make([]app.ListEntry, 7)
	for i := range sorted {
		sorted[i].ID = int64(i + 1)
	}
	const huge = 1<<58 + 1 // (huge-1)*64 wraps to 0
	for _, tc := range []struct {
		number, size int
		want         []int64
	}{
		{1, 3, []int64{1, 2, 3}},
		{3, 3, []int64{7}},
		{4, 3, []int64{}},
		{1, 7, []int64{1, 2, 3, 4, 5, 6, 7}},
		{2, 7, []int64{}},
		{1, 200, []int64{1, 2, 3, 4, 5, 6, 7}},
		{huge, 64, []int64{}},
		{huge, 1, []int64{}},
		{0, 3, []int64{}},
		{-1, 3, []int64{}},
		{1, 0, []int64{}},
	} {
		q := app.ListQuery{PageNumber: tc.number, PageSize: tc.size}
		got := []int64{}
		for _, e := range q.Page(sorted) {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("page %d of size %d = %v, want %v", tc.number, tc.size, got, tc.want)
		}
	}
	if got := (&app.ListQuery{PageNumber: 1, PageSize: 5}).Page(nil); got == nil || len(got) != 0 {
		t.Errorf("page of nothing = %#v, want empty non-nil", got)
	}
}
