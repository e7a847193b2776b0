package app_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"proposaldesk/app"
)

// readCatalogCSV reads a whole import file: the good rows and the
// report's lines ("line: reason").
func readCatalogCSV(t *testing.T, text string) (rows []app.CatalogRow, rejected []string, headerErr error) {
	t.Helper()
	r, err := app.NewCatalogCSV(strings.NewReader(text))
	if err != nil {
		return nil, nil, err
	}
	for {
		row, rej, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows, rejected, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		if rej.Line != 0 {
			rejected = append(rejected, fmt.Sprintf("%d: %s", rej.Line, rej.Reason))
			continue
		}
		rows = append(rows, row)
	}
}

func TestCatalogCSVHeader(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         string // "" accepted; else a piece of the line-1 reason
	}{
		{"required only, any case and order", "sellprice,NAME,itemtype", ""},
		{"every column", strings.Join(app.CatalogColumns, ","), ""},
		{"byte-order mark", "\ufeffItemType,Name,SellPrice", ""},
		{"empty file", "", "file is empty"},
		{"unknown column", "ItemType,Name,SellPirce", `unknown column "SellPirce"`},
		{"missing SellPrice", "ItemType,Name", "column SellPrice is missing"},
		{"twice", "ItemType,Name,SellPrice,name", "column Name appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readCatalogCSV(t, tc.header)
			var rej *app.CatalogRejectedRow
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (!errors.As(err, &rej) || rej.Line != 1 || !strings.Contains(rej.Reason, tc.want)):
				t.Fatalf("got %v, want line 1 with %q", err, tc.want)
			}
		})
	}
}

func TestCatalogCSVRows(t *testing.T) {
	const header = "ItemType,Name,SellPrice,Cost,Msrp,ImageUrl,Description\n"
	cost := app.MustMoney("4.50")
	for _, tc := range []struct {
		name, row string
		want      app.CatalogItem
		reason    string
	}{
		{"part with cost", "part,Widget,10.5,4.5,12,,", app.CatalogItem{ItemType: app.ItemPart, Name: "Widget", SellPrice: 1050, Cost: &cost, MSRP: 1200}, ""},
		{"empty cost is unknown, empty msrp 0", "Fee,Trip,75,,,,", app.CatalogItem{ItemType: app.ItemFee, Name: "Trip", SellPrice: 7500}, ""},
		{"zero cost is zero", "Labor,Hour,95,0,,,", app.CatalogItem{ItemType: app.ItemLabor, Name: "Hour", SellPrice: 9500, Cost: new(app.Money)}, ""},
		{"image URL", "Part,W,1,,,https://img.example.com/w.jpg,", app.CatalogItem{ItemType: app.ItemPart, Name: "W", SellPrice: 100, ImageURL: "https://img.example.com/w.jpg"}, ""},
		{"maximum price", "Part,W,10000000,,,,", app.CatalogItem{ItemType: app.ItemPart, Name: "W", SellPrice: app.MaxCatalogPrice}, ""},
		{"above maximum", "Part,W,10000000.01,,,,", app.CatalogItem{}, "SellPrice 10000000.01 must be from 0"},
		{"three decimals", "Part,W,1.005,,,,", app.CatalogItem{}, `SellPrice "1.005" is not an amount`},
		{"currency sign", "Part,W,$5,,,,", app.CatalogItem{}, `SellPrice "$5"`},
		{"negative cost", "Part,W,5,-1,,,", app.CatalogItem{}, "Cost -1 must be from 0"},
		{"missing sell price", "Part,W,,,,,", app.CatalogItem{}, "SellPrice is required"},
		{"blank name", "Part,  ,5,,,,", app.CatalogItem{}, "Name is required"},
		{"long name", "Part," + strings.Repeat("n", 201) + ",5,,,,", app.CatalogItem{}, "Name is 201 characters long"},
		{"long description", "Part,W,5,,,," + strings.Repeat("d", 100_001), app.CatalogItem{}, "Description is 100001 characters long"},
		{"not a URL", "Part,W,5,,,ftp://x/y,", app.CatalogItem{}, `ImageUrl "ftp://x/y" is not an http`},
		{"bad type", "Gadget,W,5,,,,", app.CatalogItem{}, `ItemType "Gadget" is not a valid itemType`},
		{"invalid UTF-8", "Part,W\xff,5,,,,", app.CatalogItem{}, "Name must be valid UTF-8"},
		// The same character rule as every other way text enters.
		{"ESC and BEL in a name", "Part,esc\x1b[31mred\x07,5,,,,", app.CatalogItem{}, "Name contains the control character U+001B at character 4"},
		{"NUL in a description", "Part,W,5,,,,a\x00b", app.CatalogItem{}, "Description contains the control character U+0000"},
		// (encoding/csv reads a quoted CRLF as LF)
		{"CRLF and tab in a description", "Part,W,5,,,,\"a\r\n\tb\"", app.CatalogItem{ItemType: app.ItemPart, Name: "W", SellPrice: 500, Description: "a\n\tb"}, ""},
		{"every problem at once", "Gadget,,x,y,,,", app.CatalogItem{}, `ItemType "Gadget" is not a valid itemType (one of Part, Labor, Fee, CustomItem); Name is required; SellPrice "x" is not an amount with at most 2 decimals; Cost "y"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, rejected, err := readCatalogCSV(t, header+tc.row+"\n")
			if err != nil {
				t.Fatal(err)
			}
			if tc.reason != "" {
				if len(rows) != 0 || len(rejected) != 1 || !strings.HasPrefix(rejected[0], "2: ") || !strings.Contains(rejected[0], tc.reason) {
					t.Fatalf("rows %v rejected %q, want line 2 refused with %q", rows, rejected, tc.reason)
				}
				return
			}
			if len(rejected) != 0 || len(rows) != 1 {
				t.Fatalf("rejected %q", rejected)
			}
			if got := rows[0]; got.Line != 2 || !app.SameCatalogContent(&got.Item, &tc.want) {
				t.Errorf("line %d item %+v, want %+v", got.Line, got.Item, tc.want)
			}
		})
	}
}

// TestCatalogCSVFileReport reads a file with good and bad rows (bad
// types, prices, a duplicate part number in another case, a short row,
// broken quoting, a quoted field over two lines) and compares the report
// with the golden one: every bad row, by its first line in the file.
func TestCatalogCSVFileReport(t *testing.T) {
	data, err := os.ReadFile("testdata/catalogcsv/mixed.csv")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/catalogcsv/mixed.report.txt")
	if err != nil {
		t.Fatal(err)
	}
	rows, rejected, err := readCatalogCSV(t, string(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rejected, "\n") + "\n"; got != string(golden) {
		t.Errorf("report:\n%s\nwant:\n%s", got, golden)
	}
	var lines []int
	for _, r := range rows {
		lines = append(lines, r.Line)
	}
	if fmt.Sprint(lines) != "[2 3 10]" {
		t.Errorf("good rows at lines %v", lines)
	}
	if sub := rows[2].Item; sub.Model != "Multi\nline" || sub.Name != `Sonos "Sub"` || !sub.IsDiscontinued || rows[2].Key != "pn:son-sub" {
		t.Errorf("quoted row read as %+v key %q", sub, rows[2].Key)
	}
}

func TestCatalogKeyOf(t *testing.T) {
	a := app.CatalogItem{Brand: "Sonos", Model: "Arc", Name: "Arc", PartNumber: " SON-ARC "}
	b := app.CatalogItem{Brand: "SONOS", Model: "arc", Name: "arc"}
	if app.CatalogKeyOf(&a) != "pn:son-arc" {
		t.Errorf("part number key %q", app.CatalogKeyOf(&a))
	}
	c := b
	c.Brand = "sonos "
	if app.CatalogKeyOf(&b) != app.CatalogKeyOf(&c) || app.CatalogKeyOf(&b) == app.CatalogKeyOf(&a) {
		t.Errorf("brand/model/name keys %q %q", app.CatalogKeyOf(&b), app.CatalogKeyOf(&c))
	}
}

func TestParseCatalogImportMode(t *testing.T) {
	for in, want := range map[string]app.CatalogImportMode{"": app.CatalogMerge, "merge": app.CatalogMerge, "REPLACE": app.CatalogReplace} {
		if got, err := app.ParseCatalogImportMode(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := app.ParseCatalogImportMode("append"); app.KindOf(err) != app.KindValidationFailed {
		t.Errorf("append: %v", err)
	}
}

// Keys are text every store can hold (no NUL, no control character),
// and one per item: fields that hold the separator stay apart.
func TestCatalogKeyOfStorable(t *testing.T) {
	for _, tc := range []struct {
		it   app.CatalogItem
		want string
	}{
		{app.CatalogItem{PartNumber: " SON-Amp ", Name: "x"}, "pn:son-amp"},
		{app.CatalogItem{Name: "NoPN install hour"}, `bmn:"","","nopn install hour"`},
		{app.CatalogItem{Brand: "Acme", Model: " X1 ", Name: "Hour"}, `bmn:"acme","x1","hour"`},
		{app.CatalogItem{Brand: `a","b`, Name: "c"}, `bmn:"a\",\"b","","c"`},
		{app.CatalogItem{Brand: "a", Model: `b","c`}, `bmn:"a","b\",\"c",""`},
		{app.CatalogItem{Name: "a\x00b"}, `bmn:"","","a\x00b"`},
	} {
		got := app.CatalogKeyOf(&tc.it)
		if got != tc.want {
			t.Errorf("CatalogKeyOf(%+v) = %q, want %q", tc.it, got, tc.want)
		}
		if strings.ContainsFunc(got, unicode.IsControl) || !utf8.ValidString(got) {
			t.Errorf("key %q is not storable text", got)
		}
	}
}
