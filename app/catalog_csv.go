package app

import (
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"iter"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The catalog's CSV import format. The first line is a header naming the
// columns, in any order and any letter case:
//
//	ItemType          required: Part, Labor, Fee or CustomItem (any case)
//	Name              required, 1..200 characters
//	SellPrice         required, money ≥ 0 and ≤ 10,000,000, at most 2 decimals
//	Brand, Model, PartNumber, Supplier, Category   optional, ≤ 200 characters
//	ShortDescription  optional, ≤ 1,000 characters
//	Description       optional, ≤ 100,000 characters
//	Msrp              optional money (empty is 0)
//	Cost              optional money (empty is unknown: null, not 0)
//	ImageUrl          optional http(s) URL, ≤ 2,000 characters
//	IsRecurringService optional: true/false, yes/no, 1/0 (empty is false);
//	                  a monthly service, added to proposals as recurring
//	IsDiscontinued    optional: true/false, yes/no, 1/0 (empty is false)
//	Components        optional: makes the item a package of other items,
//	                  "PART-NUMBER:QUANTITY" entries separated by ";"
//	                  (":QUANTITY" may be left out for 1), e.g.
//	                  "ARCULUS1US1BLK:1; E10G1US1BLK:2". Each names
//	                  another item of the file or, in a merge, of the
//	                  catalog by its part number (any letter case); it
//	                  must not be a package itself (CheckCatalogPackages)
//
// A column the format does not know is refused (a misspelt "SellPirce"
// would otherwise drop every price silently). An item's identity is its
// key (CatalogKeyOf): the part number when it has one, else brand, model
// and name; a second row with the key of an earlier one is refused. The
// category's ID is the server's (one per distinct name).

// CatalogColumns are the import format's column names.
var CatalogColumns = []string{"ItemType", "Brand", "Model", "Name", "ShortDescription", "Description",
	"PartNumber", "Category", "Supplier", "Msrp", "SellPrice", "Cost", "ImageUrl", "IsDiscontinued", "IsRecurringService", "Components"}

// Limits of the catalog's fields.
const (
	MaxCatalogPrice        Money = 10_000_000_00 // the contract's 10,000,000
	MaxShortDescription          = 1_000
	MaxCatalogURL                = 2_000
	catalogRequiredColumns       = "ItemType, Name, SellPrice"
)

// CatalogRow is one good row of an import file.
type CatalogRow struct {
	Line int
	// Item has no ID or CategoryID yet: the store gives them.
	Item CatalogItem
	Key  string
	// Components are a package's items as the file names them (the
	// store finds their IDs); empty for any other item.
	Components []CatalogComponentRef
}

// CatalogComponentRef is a package's component as an import file names
// it: by part number.
type CatalogComponentRef struct {
	PartNumber string
	Quantity   Quantity
}

// Key is the catalog key (CatalogKeyOf) of the item the ref names.
func (r CatalogComponentRef) Key() string {
	return "pn:" + strings.ToLower(strings.TrimSpace(r.PartNumber))
}

// CatalogRejectedRow is one refused row: its line in the file (1 is the
// header) and every reason, joined.
type CatalogRejectedRow struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// CatalogKeyOf is the item's identity in imports: "pn:" and the
// lower-cased part number, or "bmn:" and the trimmed, lower-cased brand,
// model and name, each quoted (strconv.Quote) and joined by commas.
// Stores keep keys as text: quoting keeps the three apart, one key per
// item, without a control character (PostgreSQL text cannot hold NUL)
// whatever bytes the fields hold.
func CatalogKeyOf(it *CatalogItem) string {
	if pn := strings.ToLower(strings.TrimSpace(it.PartNumber)); pn != "" {
		return "pn:" + pn
	}
	b := []byte("bmn:")
	for i, s := range []string{it.Brand, it.Model, it.Name} {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, strings.ToLower(strings.TrimSpace(s)))
	}
	return string(b)
}

// LegacyCatalogKeyOf is the key CatalogKeyOf gave before it quoted
// brand, model and name (they were joined by NUL bytes); the bbolt
// store's schema migration finds old keys by it.
func LegacyCatalogKeyOf(it *CatalogItem) string {
	if pn := strings.ToLower(strings.TrimSpace(it.PartNumber)); pn != "" {
		return "pn:" + pn
	}
	return "bmn:" + strings.ToLower(strings.TrimSpace(it.Brand)+"\x00"+strings.TrimSpace(it.Model)+"\x00"+strings.TrimSpace(it.Name))
}

// CatalogCSV reads an import file a row at a time: memory stays flat
// whatever the file's length (but for 16 bytes a row to find duplicate
// keys).
type CatalogCSV struct {
	r    *csv.Reader
	cols []int // cols[i] is the CatalogColumns index of field i
	n    int
	seen map[[16]byte]int32
	// packages are the good rows that are packages (few), pkgKeys their
	// keys: CheckPackages checks what they name once the file is read.
	packages []CatalogRow
	pkgKeys  map[[16]byte]bool
}

// NewCatalogCSV reads the header. A bad header is a *CatalogRejectedRow
// error on line 1; a failed read is returned as it is.
func NewCatalogCSV(r io.Reader) (*CatalogCSV, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, &CatalogRejectedRow{Line: 1, Reason: "the file is empty; the first line must name the columns"}
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, &CatalogRejectedRow{Line: 1, Reason: csvReason(err)}
	}
	if err != nil {
		return nil, fmt.Errorf("read catalog CSV header: %w", err)
	}
	c := &CatalogCSV{r: cr, seen: map[[16]byte]int32{}, pkgKeys: map[[16]byte]bool{}}
	var problems []string
	have := map[int]bool{}
	for i, name := range header {
		if i == 0 {
			name = strings.TrimPrefix(name, "\ufeff") // spreadsheet byte-order mark
		}
		col := slices.IndexFunc(CatalogColumns, func(s string) bool { return strings.EqualFold(s, strings.TrimSpace(name)) })
		switch {
		case col < 0:
			problems = append(problems, fmt.Sprintf("unknown column %q", name))
		case have[col]:
			problems = append(problems, fmt.Sprintf("column %s appears twice", CatalogColumns[col]))
		}
		have[col] = true
		c.cols = append(c.cols, col)
	}
	for _, req := range []int{0, 3, 10} {
		if !have[req] {
			problems = append(problems, fmt.Sprintf("column %s is missing", CatalogColumns[req]))
		}
	}
	if len(problems) > 0 {
		return nil, &CatalogRejectedRow{Line: 1, Reason: strings.Join(problems, "; ") +
			" (the columns are " + strings.Join(CatalogColumns, ", ") + "; required: " + catalogRequiredColumns + ")"}
	}
	c.n = len(header)
	return c, nil
}

func (r *CatalogRejectedRow) Error() string { return fmt.Sprintf("line %d: %s", r.Line, r.Reason) }

// Next returns the next row: a good one, or a rejected one (rej.Line is
// then not 0), or io.EOF at the end. Blank lines are skipped
// (encoding/csv's rule).
func (c *CatalogCSV) Next() (row CatalogRow, rej CatalogRejectedRow, err error) {
	rec, err := c.r.Read()
	if errors.Is(err, io.EOF) {
		return row, rej, io.EOF
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return row, rej, fmt.Errorf("read catalog CSV: %w", err)
		}
		return row, CatalogRejectedRow{Line: pe.StartLine, Reason: csvReason(err)}, nil
	}
	line, _ := c.r.FieldPos(0)
	if len(rec) != c.n {
		return row, CatalogRejectedRow{Line: line, Reason: fmt.Sprintf("has %d fields; the header has %d", len(rec), c.n)}, nil
	}
	it, refs, problems := catalogItemOf(rec, c.cols)
	row = CatalogRow{Line: line, Item: it, Key: CatalogKeyOf(&it), Components: refs}
	if len(problems) == 0 {
		sum := keySum(row.Key)
		if first, dup := c.seen[sum]; dup {
			problems = append(problems, fmt.Sprintf("the same item as line %d (%s)", first, keyText(row.Key)))
		} else {
			c.seen[sum] = int32(line)
			if len(row.Components) > 0 {
				c.pkgKeys[sum] = true
				c.packages = append(c.packages, CatalogRow{Line: line, Key: row.Key, Components: row.Components})
			}
		}
	}
	if len(problems) > 0 {
		return CatalogRow{}, CatalogRejectedRow{Line: line, Reason: strings.Join(problems, "; ")}, nil
	}
	return row, CatalogRejectedRow{}, nil
}

func keySum(key string) [16]byte {
	h := fnv.New128a()
	h.Write([]byte(key))
	var sum [16]byte
	h.Sum(sum[:0])
	return sum
}

// CatalogLookup finds an item of the catalog by key (CatalogKeyOf) for
// CheckPackages: whether it is there and is a package.
type CatalogLookup func(key string) (found, isPackage bool, err error)

// CheckPackages checks, once every row was read, what the file's
// packages name: each component must be a good row of the file or, in
// a merge, an item of the catalog (inCatalog), and not a package
// itself. It returns the package rows refused, with every reason.
func (c *CatalogCSV) CheckPackages(mode CatalogImportMode, inCatalog CatalogLookup) ([]CatalogRejectedRow, error) {
	var out []CatalogRejectedRow
	for _, row := range c.packages {
		var problems []string
		for _, r := range row.Components {
			sum := keySum(r.Key())
			if _, inFile := c.seen[sum]; inFile {
				if c.pkgKeys[sum] {
					problems = append(problems, fmt.Sprintf("Components: %q is a package itself; packages do not nest", r.PartNumber))
				}
				continue
			}
			if mode == CatalogReplace {
				problems = append(problems, fmt.Sprintf("Components: %q is not a part number of the file (a replace keeps only the file's items)", r.PartNumber))
				continue
			}
			found, isPkg := false, false
			if inCatalog != nil {
				var err error
				if found, isPkg, err = inCatalog(r.Key()); err != nil {
					return nil, fmt.Errorf("line %d: component %q: %w", row.Line, r.PartNumber, err)
				}
			}
			switch {
			case !found:
				problems = append(problems, fmt.Sprintf("Components: %q is not a part number of the file or the catalog", r.PartNumber))
			case isPkg:
				problems = append(problems, fmt.Sprintf("Components: %q is a package itself; packages do not nest", r.PartNumber))
			}
		}
		if len(problems) > 0 {
			out = append(out, CatalogRejectedRow{Line: row.Line, Reason: strings.Join(problems, "; ")})
		}
	}
	return out, nil
}

func keyText(key string) string {
	if pn, ok := strings.CutPrefix(key, "pn:"); ok {
		return "part number " + strconv.Quote(pn)
	}
	return "same brand, model and name"
}

func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return "not valid CSV: " + pe.Err.Error()
	}
	return err.Error()
}

// catalogItemOf checks one record's fields; problems name each bad one.
func catalogItemOf(rec []string, cols []int) (it CatalogItem, refs []CatalogComponentRef, problems []string) {
	bad := func(col int, format string, args ...any) {
		problems = append(problems, CatalogColumns[col]+" "+fmt.Sprintf(format, args...))
	}
	text := func(col int, s string, limit int, required bool) string {
		if p := charsProblem(s); p != "" {
			bad(col, "%s", p)
			return s
		}
		switch n := utf8.RuneCountInString(s); {
		case required && strings.TrimSpace(s) == "":
			bad(col, "is required")
		case n > limit:
			bad(col, "is %d characters long; the limit is %d", n, limit)
		}
		return s
	}
	money := func(col int, s string) (Money, bool) {
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, false
		}
		m, err := ParseMoney(s)
		switch {
		case err != nil:
			bad(col, "%q is not an amount with at most 2 decimals", s)
		case m < 0 || m > MaxCatalogPrice:
			bad(col, "%s must be from 0 to %s", s, MaxCatalogPrice)
		}
		return m, err == nil
	}
	flag := func(col int, s string) bool {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "", "false", "no", "0":
			return false
		case "true", "yes", "1":
			return true
		}
		bad(col, "%q must be true or false", s)
		return false
	}
	for i, col := range cols {
		v := rec[i]
		switch CatalogColumns[col] {
		case "ItemType":
			t, err := ParseItemType(v)
			if err != nil {
				bad(col, "%v", err)
			}
			it.ItemType = t
		case "Brand":
			it.Brand = text(col, v, MaxNameLength, false)
		case "Model":
			it.Model = text(col, v, MaxNameLength, false)
		case "Name":
			it.Name = text(col, v, MaxNameLength, true)
		case "ShortDescription":
			it.ShortDescription = text(col, v, MaxShortDescription, false)
		case "Description":
			it.Description = text(col, v, MaxTextLength, false)
		case "PartNumber":
			it.PartNumber = text(col, v, MaxNameLength, false)
		case "Category":
			it.CategoryName = text(col, v, MaxNameLength, false)
		case "Supplier":
			it.Supplier = text(col, v, MaxNameLength, false)
		case "Msrp":
			it.MSRP, _ = money(col, v)
		case "SellPrice":
			if strings.TrimSpace(v) == "" {
				bad(col, "is required")
			}
			it.SellPrice, _ = money(col, v)
		case "Cost":
			if m, ok := money(col, v); ok {
				it.Cost = &m
			}
		case "ImageUrl":
			it.ImageURL = strings.TrimSpace(text(col, v, MaxCatalogURL, false))
			if it.ImageURL != "" {
				u, err := url.Parse(it.ImageURL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					bad(col, "%q is not an http or https address", it.ImageURL)
				}
			}
		case "IsDiscontinued":
			it.IsDiscontinued = flag(col, v)
		case "IsRecurringService":
			it.IsRecurringService = flag(col, v)
		case "Components":
			var p []string
			refs, p = ParseComponentRefs(v)
			for _, x := range p {
				bad(col, "%s", x)
			}
		}
	}
	if pn := strings.ToLower(strings.TrimSpace(it.PartNumber)); pn != "" {
		for _, r := range refs {
			if r.Key() == "pn:"+pn {
				problems = append(problems, "Components lists the item itself; a package cannot contain itself")
				break
			}
		}
	}
	return it, refs, problems
}

// ParseComponentRefs reads a Components cell: "PN:QTY" entries
// separated by ";", QTY 1 when left out; problems say what is wrong
// with each bad entry.
func ParseComponentRefs(cell string) (refs []CatalogComponentRef, problems []string) {
	if strings.TrimSpace(cell) == "" {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, entry := range strings.Split(cell, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		pn, qty := entry, OneUnit
		if i := strings.LastIndex(entry, ":"); i >= 0 {
			pn = strings.TrimSpace(entry[:i])
			q, err := ParseQuantity(strings.TrimSpace(entry[i+1:]))
			if err != nil || q <= 0 || q > MaxItemQuantity {
				problems = append(problems, fmt.Sprintf("%q: the quantity after the colon must be above 0 and at most %s with at most 4 decimals", entry, MaxItemQuantity))
				continue
			}
			qty = q
		}
		r := CatalogComponentRef{PartNumber: pn, Quantity: qty}
		switch {
		case pn == "":
			problems = append(problems, fmt.Sprintf("%q names no part number", entry))
			continue
		case seen[r.Key()]:
			problems = append(problems, fmt.Sprintf("%q is listed twice; give it one quantity", pn))
			continue
		}
		seen[r.Key()] = true
		refs = append(refs, r)
	}
	if len(refs) > MaxPackageComponents {
		problems = append(problems, fmt.Sprintf("lists %d items; a package holds at most %d", len(refs), MaxPackageComponents))
	}
	return refs, problems
}

// CatalogImportMode says what happens to items the file does not name.
type CatalogImportMode string

const (
	// CatalogMerge adds the file's new items and updates the ones it
	// names; the rest stay.
	CatalogMerge CatalogImportMode = "Merge"
	// CatalogReplace makes the catalog exactly the file: items it does
	// not name are removed (items it names keep their IDs).
	CatalogReplace CatalogImportMode = "Replace"
)

// ParseCatalogImportMode reads Mode (empty is Merge).
func ParseCatalogImportMode(s string) (CatalogImportMode, error) {
	if strings.TrimSpace(s) == "" {
		return CatalogMerge, nil
	}
	m, err := parseEnum("mode", s, []CatalogImportMode{CatalogMerge, CatalogReplace})
	if err != nil {
		return "", Invalid("Mode", "%v", err)
	}
	return m, nil
}

// ParseConfirmRemoval reads ConfirmRemoval: true or false, any letter
// case (empty is false).
func ParseConfirmRemoval(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, Invalid("ConfirmRemoval", "%q must be true or false", s)
}

// CatalogImportReport is what an import did, or why it did nothing.
type CatalogImportReport struct {
	Mode    CatalogImportMode `json:"mode"`
	Applied bool              `json:"applied"`
	// ConfirmRemoval is the request's: a Replace may remove more than
	// MaxUnconfirmedRemovalPercent of the catalog (CheckCatalogRemoval).
	ConfirmRemoval bool `json:"confirmRemoval"`
	// Rows counts the data rows read (good and rejected).
	Rows      int `json:"rows"`
	Added     int `json:"added"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Deleted   int `json:"deleted"`
	// Removed is the first MaxReportedRows of the Deleted items, as they
	// were.
	Removed []CatalogRemovedItem `json:"removed"`
	// Rejected is the first MaxReportedRows refused rows; any refused
	// row makes the import apply nothing. RejectedCount counts them all.
	Rejected      []CatalogRejectedRow `json:"rejected"`
	RejectedCount int                  `json:"rejectedCount"`
}

// MaxReportedRows bounds the rows an import report lists (refused rows,
// removed items): a report says what happened, a file of errors would
// be a second copy of the file. The counts are complete.
const MaxReportedRows = 100

// Reject records a refused row: listed while the list is short, always
// counted.
func (r *CatalogImportReport) Reject(row CatalogRejectedRow) {
	r.RejectedCount++
	if len(r.Rejected) < MaxReportedRows {
		r.Rejected = append(r.Rejected, row)
	}
}

// CatalogRemovedItem names an item a Replace removed.
type CatalogRemovedItem struct {
	ID         int64  `json:"id"`
	Brand      string `json:"brand"`
	Model      string `json:"model"`
	Name       string `json:"name"`
	PartNumber string `json:"partNumber"`
}

// NoteRemoved records an item a Replace removed: counted, and listed
// while the list is short.
func (r *CatalogImportReport) NoteRemoved(it *CatalogItem) {
	r.Deleted++
	if len(r.Removed) < MaxReportedRows {
		r.Removed = append(r.Removed, CatalogRemovedItem{ID: it.ID, Brand: it.Brand, Model: it.Model, Name: it.Name, PartNumber: it.PartNumber})
	}
}

// MaxUnconfirmedRemovalPercent is the share of a catalog a Replace may
// remove without ConfirmRemoval. A file that names few of the items
// (a header-only file, the wrong file, a filtered export) would
// otherwise empty the catalog every proposal picks from.
const MaxUnconfirmedRemovalPercent = 50

// CheckCatalogRemoval decides whether a Replace that would remove
// removing of the present items (the catalog before the import) may go
// on: it may when the request confirmed removal, or when it removes at
// most MaxUnconfirmedRemovalPercent of the items and not every one.
func CheckCatalogRemoval(confirmed bool, present, removing int) error {
	if confirmed || removing == 0 || removing*100 <= present*MaxUnconfirmedRemovalPercent && removing < present {
		return nil
	}
	return &Error{Kind: KindValidationFailed,
		Message: fmt.Sprintf("This replace would remove %d of the catalog's %d items; nothing was imported. "+
			"A replace that removes more than %d%% of the catalog needs ConfirmRemoval=true.", removing, present, MaxUnconfirmedRemovalPercent),
		Fields: []FieldError{{Field: "ConfirmRemoval", Message: fmt.Sprintf(
			"must be true to remove %d of %d items (more than %d%%)", removing, present, MaxUnconfirmedRemovalPercent)}}}
}

// SameCatalogContent reports whether b would change nothing of a's
// content (IDs, category IDs and dates aside).
func SameCatalogContent(a, b *CatalogItem) bool {
	x, y := *a, *b
	x.ID, y.ID, x.CategoryID, y.CategoryID = 0, 0, 0, 0
	x.LastModifiedDate, y.LastModifiedDate = Time{}, Time{}
	if (x.Cost == nil) != (y.Cost == nil) || (x.Cost != nil && *x.Cost != *y.Cost) {
		return false
	}
	x.Cost, y.Cost = nil, nil
	if !slices.Equal(x.Components, y.Components) {
		return false
	}
	x.Components, y.Components = nil, nil
	return reflect.DeepEqual(x, y)
}

// CatalogRowsOf makes import rows of items (the demo seed, tests), as if
// they were lines 2, 3, … of a file. A package's components name items
// of the list by position: CatalogItemID is the component's index in
// items plus 1 (the store gives the real IDs).
func CatalogRowsOf(items []CatalogItem) iter.Seq2[CatalogRow, error] {
	return func(yield func(CatalogRow, error) bool) {
		for i := range items {
			if !yield(CatalogRow{Line: i + 2, Item: items[i], Key: CatalogKeyOf(&items[i]), Components: refsOf(items[i].Components, items)}, nil) {
				return
			}
		}
	}
}

// refsOf names a package's components by the part numbers of items (a
// component's CatalogItemID is its index in items + 1, as the store has
// not given IDs yet).
func refsOf(comps []CatalogComponent, items []CatalogItem) []CatalogComponentRef {
	var out []CatalogComponentRef
	for _, c := range comps {
		if i := int(c.CatalogItemID) - 1; i >= 0 && i < len(items) {
			out = append(out, CatalogComponentRef{PartNumber: items[i].PartNumber, Quantity: c.Quantity})
		}
	}
	return out
}
