package app

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The catalog search's semantics: which items match a query and in what
// order. The server's index, the desktop's offline index and the
// reference Select below all answer with these functions, so the picker
// finds the same items online and off.

// Catalog operations (extensions of the route table; see NeedsSubscription
// and Permission in rules.go).
const (
	OpListCatalog    Operation = "ListCatalog"
	OpGetCatalogItem Operation = "GetCatalogItem"
	OpCatalogChanges Operation = "CatalogChanges"
	OpImportCatalog  Operation = "ImportCatalog"
)

// Paging limits of the catalog search (the contract's).
const (
	DefaultCatalogPageSize = 10
	MaxCatalogPageSize     = 200
)

// CatalogQuery is a parsed GET /public/catalog request.
type CatalogQuery struct {
	SearchText string
	// ItemType "" is every type.
	ItemType ItemType
	// Brands match case-insensitively and exactly; empty is every brand.
	Brands     []string
	CategoryID int64
	PageNumber int
	PageSize   int
}

// DefaultCatalogQuery is the query with nothing set: every item, first
// page of 10.
func DefaultCatalogQuery() CatalogQuery {
	return CatalogQuery{PageNumber: 1, PageSize: DefaultCatalogPageSize}
}

// ParseCatalogQuery reads the catalog's query parameters; names match in
// any letter case. Brands repeats (a brand name may hold a comma, so it
// is not split).
func ParseCatalogQuery(values url.Values) (CatalogQuery, error) {
	q := DefaultCatalogQuery()
	p := queryParams(values)
	get, first := p.all, p.first
	q.SearchText = strings.TrimSpace(strings.Join(get("SearchText"), " "))
	if n := len([]rune(q.SearchText)); n > MaxNameLength {
		return q, Invalid("SearchText", "is %d characters long; the limit is %d", n, MaxNameLength)
	}
	if v, ok := first("ItemType"); ok {
		t, err := ParseItemType(v)
		if err != nil {
			return q, Invalid("ItemType", "%v", err)
		}
		q.ItemType = t
	}
	for _, b := range get("Brands") {
		if b = strings.TrimSpace(b); b != "" && !slices.ContainsFunc(q.Brands, func(x string) bool { return strings.EqualFold(x, b) }) {
			q.Brands = append(q.Brands, b)
		}
	}
	var err error
	if q.CategoryID, err = parseID(first("CategoryId")); err != nil {
		return q, Invalid("CategoryId", "%v", err)
	}
	err = parsePaging(first, MaxCatalogPageSize, &q.PageNumber, &q.PageSize)
	return q, err
}

// Values is the query as URL parameters, for clients: ParseCatalogQuery
// of the result is q.
func (q CatalogQuery) Values() url.Values {
	v := url.Values{}
	if q.SearchText != "" {
		v.Set("SearchText", q.SearchText)
	}
	if q.ItemType != "" {
		v.Set("ItemType", string(q.ItemType))
	}
	for _, b := range q.Brands {
		v.Add("Brands", b)
	}
	if q.CategoryID != 0 {
		v.Set("CategoryId", strconv.FormatInt(q.CategoryID, 10))
	}
	if q.PageNumber > 0 {
		v.Set("PageNumber", strconv.Itoa(q.PageNumber))
	}
	if q.PageSize > 0 {
		v.Set("PageSize", strconv.Itoa(q.PageSize))
	}
	return v
}

// CatalogEntry is what the search rules read of an item: small enough
// for an in-memory index of 100,000 items.
type CatalogEntry struct {
	ID         int64
	ItemType   ItemType
	CategoryID int64
	// Brand is the brand lower-cased (filter and first sort key).
	Brand string
	// Model is the model lower-cased (second sort key).
	Model string
	// Search is the lower-cased brand, model, name and part number that
	// SearchText matches against.
	Search string
}

// CatalogEntryOf extracts an item's entry.
func CatalogEntryOf(it *CatalogItem) CatalogEntry {
	return CatalogEntry{
		ID: it.ID, ItemType: it.ItemType, CategoryID: it.CategoryID,
		Brand: strings.ToLower(it.Brand), Model: strings.ToLower(it.Model),
		Search: strings.ToLower(it.Brand + "\n" + it.Model + "\n" + it.Name + "\n" + it.PartNumber),
	}
}

// SearchWords are the lower-cased words of the search text: an item
// matches when each occurs somewhere in its entry's Search.
func (q *CatalogQuery) SearchWords() []string { return strings.Fields(strings.ToLower(q.SearchText)) }

// MatchesFilters reports whether e passes the type, brand and category
// filters (everything but the search text).
func (q *CatalogQuery) MatchesFilters(e *CatalogEntry) bool {
	if q.ItemType != "" && e.ItemType != q.ItemType {
		return false
	}
	if q.CategoryID != 0 && e.CategoryID != q.CategoryID {
		return false
	}
	if len(q.Brands) > 0 && !slices.ContainsFunc(q.Brands, func(b string) bool { return strings.EqualFold(b, e.Brand) }) {
		return false
	}
	return true
}

// Matches reports whether e is in the query's result: it passes the
// filters and every word of SearchText occurs, in any letter case and in
// any order, in its brand, model, name or part number.
func (q *CatalogQuery) Matches(e *CatalogEntry) bool {
	if !q.MatchesFilters(e) {
		return false
	}
	for _, w := range q.SearchWords() {
		if !strings.Contains(e.Search, w) {
			return false
		}
	}
	return true
}

// CompareCatalog is the catalog's one order, whatever the query: brand,
// then model (both case-insensitive), then ID. Items without a brand
// (most labor and fees) come first. The order is total, so paging is
// stable.
func CompareCatalog(a, b *CatalogEntry) int {
	if c := strings.Compare(a.Brand, b.Brand); c != 0 {
		return c
	}
	if c := strings.Compare(a.Model, b.Model); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// Select is the whole rule over a set of entries, the reference the
// indexes are tested against: the matches in catalog order, the page
// asked for, and the count of all matches.
func (q *CatalogQuery) Select(entries []CatalogEntry) (page []CatalogEntry, count int) {
	var matched []CatalogEntry
	for i := range entries {
		if q.Matches(&entries[i]) {
			matched = append(matched, entries[i])
		}
	}
	slices.SortFunc(matched, func(a, b CatalogEntry) int { return CompareCatalog(&a, &b) })
	lo, hi := q.PageBounds(len(matched))
	return matched[lo:hi], len(matched)
}

// PageBounds is the slice [lo:hi] of count sorted matches that the
// query's page holds (empty past the end).
func (q *CatalogQuery) PageBounds(count int) (lo, hi int) {
	// Compare page numbers, not offsets, as ListQuery.Page does: a huge
	// PageNumber must not overflow onto a real page.
	if count == 0 || q.PageSize < 1 || q.PageNumber < 1 || q.PageNumber-1 > (count-1)/q.PageSize {
		return 0, 0
	}
	lo = (q.PageNumber - 1) * q.PageSize
	return lo, min(lo+q.PageSize, count)
}

// CatalogView is the item as the role sees it: cost null without
// ViewCosts.
func CatalogView(it CatalogItem, opts ViewOptions) CatalogItem {
	if !opts.ViewCosts {
		it.Cost = nil
	} else if it.Cost != nil {
		c := *it.Cost
		it.Cost = &c
	}
	return it
}

// CatalogResponse is GET /public/catalog's body.
type CatalogResponse struct {
	Items []CatalogItem `json:"items"`
	Count int           `json:"itemCount"`
}

// CatalogChanges is GET /public/catalog/changes' body: the items added
// or changed after the cursor and the IDs removed, oldest change first.
// HasMore says another page follows at Cursor; ItemCount is the
// catalog's size, for a first download's progress.
type CatalogChanges struct {
	StoreID    string        `json:"storeId"`
	Cursor     string        `json:"cursor"`
	Items      []CatalogItem `json:"items"`
	DeletedIDs []int64       `json:"deletedIds"`
	HasMore    bool          `json:"hasMore"`
	ItemCount  int           `json:"itemCount"`
}
