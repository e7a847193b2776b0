package apiserver

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
	"proposaldesk/internal/pdftext"
)

// The export and document checks run on the demo data set, seeded once
// per test binary (demo users get real bcrypt hashes, which is slow under
// the race detector).

var (
	demoOnce sync.Once
	demoEnv  *tenv
	demoAcct *tacct
	demoErr  error
	demoDir  string
)

func TestMain(m *testing.M) {
	code := runTests(m)
	if demoEnv != nil {
		demoEnv.srv.Close()
		demoEnv.st.Close()
	}
	if demoDir != "" {
		os.RemoveAll(demoDir)
	}
	os.Exit(code)
}

// demoFixture is a server over the demo data with API keys for the main
// account's Admin, Sales and Viewer users.
func demoFixture(t testing.TB) (*tenv, *tacct) {
	t.Helper()
	demoOnce.Do(func() { demoErr = seedDemo() })
	if demoErr != nil {
		t.Fatal(demoErr)
	}
	e := *demoEnv
	e.t = t
	return &e, demoAcct
}

func seedDemo() error {
	dir, err := os.MkdirTemp("", "pd-export-demo-")
	if err != nil {
		return err
	}
	demoDir = dir
	st, err := openNamedStore(dir, "demo")
	if err != nil {
		return err
	}
	creds, err := demo.Seed(bg, st, demo.Options{BaseURL: "http://127.0.0.1", Now: time.Now()})
	if err != nil {
		st.Close()
		return err
	}
	a, err := st.Auth().App(bg, creds.AppID)
	if err != nil {
		st.Close()
		return err
	}
	e := &tenv{st: st, app: a, logs: &syncBuffer{}}
	e.s = New(Config{Logger: slog.New(slog.DiscardHandler)}, st)
	e.srv = httptest.NewServer(e.s)
	demoEnv = e
	acct := &tacct{}
	for _, role := range []app.Role{app.RoleAdmin, app.RoleSales, app.RoleViewer} {
		uc, ok := creds.User(demo.MainAccountName, role, true)
		if !ok {
			return fmt.Errorf("demo has no %s user", role)
		}
		rec, err := st.Auth().User(bg, uc.UserID)
		if err != nil {
			return err
		}
		e.t = &testing.T{} // newKey reports through t; it cannot fail here
		u := &tuser{rec: rec, key: e.newKey(rec, a.ID)}
		acct.acct, _ = st.Auth().Account(bg, rec.AccountID)
		switch role {
		case app.RoleAdmin:
			acct.admin = u
		case app.RoleSales:
			acct.sales = u
		default:
			acct.viewer = u
		}
	}
	demoAcct = acct
	return nil
}

// demoDetails reads every proposal of the account through the API, as
// the admin sees it: id → decoded detail and raw body.
func demoDetails(t *testing.T, e *tenv, a *tacct) (map[int64]app.ProposalDetail, map[int64][]byte) {
	t.Helper()
	var ids []int64
	if err := e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		var err error
		ids, err = tx.ProposalIDs()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	details, raw := map[int64]app.ProposalDetail{}, map[int64][]byte{}
	for _, id := range ids {
		r := e.get(a.admin, pathf("/public/proposals/%d", id))
		wantStatus(t, r, http.StatusOK)
		details[id] = detail(t, r)
		raw[id] = r.body
	}
	if len(details) < 30 {
		t.Fatalf("demo has %d proposals", len(details))
	}
	return details, raw
}

// exportBody fetches an export and checks its trailers.
func exportBody(t *testing.T, e *tenv, u *tuser, query string) ([]byte, http.Header) {
	t.Helper()
	resp, err := e.srv.Client().Do(e.httpRequest(treq{method: "GET", path: "/public/export/proposals?" + query, as: u}))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d: %s", query, resp.StatusCode, body)
	}
	if msg := resp.Trailer.Get(TrailerExportErr); msg != "" {
		t.Fatalf("%s: export error %q", query, msg)
	}
	return body, resp.Header.Clone()
}

func readCSV(t *testing.T, body []byte, header []string) []map[string]string {
	t.Helper()
	rd := csv.NewReader(bytes.NewReader(body))
	recs, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		t.Fatalf("header %v", recs[:min(1, len(recs))])
	}
	if !bytes.Contains(body, []byte("\r\n")) {
		t.Error("CSV lines do not end in CRLF (RFC 4180)")
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range header {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// sameFigure compares a CSV figure with the API's, numerically.
func sameFigure(t *testing.T, where, col, got string, want any) {
	t.Helper()
	w, _ := json.Marshal(want)
	if string(w) == "null" {
		if got != "" {
			t.Errorf("%s %s: %q, API has null", where, col, got)
		}
		return
	}
	g, err1 := strconv.ParseFloat(got, 64)
	f, err2 := strconv.ParseFloat(string(w), 64)
	if err1 != nil || err2 != nil || g != f {
		t.Errorf("%s %s: CSV %q, API %s", where, col, got, w)
	}
}

func visible(details map[int64]app.ProposalDetail, match func(d *app.ProposalDetail) bool) []int64 {
	var ids []int64
	for id, d := range details {
		if match(&d) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

func TestExportCSVMatchesAPI(t *testing.T) {
	e, a := demoFixture(t)
	details, _ := demoDetails(t, e, a)
	want := visible(details, func(d *app.ProposalDetail) bool { return !d.IsArchived })

	body, h := exportBody(t, e, a.admin, "Format=csv")
	if h.Get(HeaderTotalCount) != strconv.Itoa(len(want)) {
		t.Errorf("X-Total-Count %q, want %d", h.Get(HeaderTotalCount), len(want))
	}
	rows := readCSV(t, body, exportfmt.ProposalColumns)
	if len(rows) != len(want) {
		t.Fatalf("%d proposal rows, want %d (not archived)", len(rows), len(want))
	}
	var got []int64
	for _, r := range rows {
		id, _ := strconv.ParseInt(r["proposalId"], 10, 64)
		got = append(got, id)
		d := details[id]
		fs := d.FinancialSummary
		where := "proposal " + r["number"]
		if r["name"] != exportfmt.Text(d.Name) || r["status"] != string(d.Status) || r["number"] != app.FormatID(d.Number) {
			t.Errorf("%s: name/status %q %q, API %q %q", where, r["name"], r["status"], d.Name, d.Status)
		}
		if d.Customer != nil && r["customerName"] != d.Customer.DisplayName() {
			t.Errorf("%s: customer %q, API %q", where, r["customerName"], d.Customer.DisplayName())
		}
		if r["salespersonEmail"] != d.Dealer.Salesperson.Email {
			t.Errorf("%s: salesperson %q", where, r["salespersonEmail"])
		}
		if r["createdDate"] != d.CreatedDate.UTC().Format(app.TimeLayout) {
			t.Errorf("%s: createdDate %q", where, r["createdDate"])
		}
		for col, v := range map[string]any{
			"partsSubtotal": fs.PartsSubtotal, "partsDiscountPercentage": fs.PartsDiscountPercentage,
			"partsDiscount": fs.PartsDiscount, "partsDiscountTaxable": fs.PartsDiscountTaxable,
			"partsDiscountTaxExempt": fs.PartsDiscountTaxExempt, "partsTotal": fs.PartsTotal,
			"laborTotal": fs.LaborTotal, "feeTotal": fs.FeeTotal, "proposalSubtotal": fs.ProposalSubtotal,
			"partsTax": fs.SalesTax.Calculation.PartsTax, "laborTax": fs.SalesTax.Calculation.LaborTax,
			"feeTax": fs.SalesTax.Calculation.FeeTax, "partsTotalTax": fs.SalesTax.Calculation.PartsTotalTax,
			"laborTotalTax": fs.SalesTax.Calculation.LaborTotalTax, "feeTotalTax": fs.SalesTax.Calculation.FeeTotalTax,
			"salesTaxTotal": fs.SalesTax.Total, "proposalTotal": fs.ProposalTotal,
			"totalRecurringService": d.RecurringServices.TotalRecurringService,
			"profitTotal":           d.Profit.Total, "profitPercentage": d.Profit.Percentage,
		} {
			sameFigure(t, where, col, r[col], v)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("exported %v, want %v", got, want)
	}

	// Line items: one row per item of every option, figures as the API's.
	body, _ = exportBody(t, e, a.admin, "Format=csv&Part=items")
	items := readCSV(t, body, exportfmt.ItemColumns)
	n := 0
	byID := map[string]map[string]string{}
	for _, r := range items {
		byID[r["proposalId"]+"/"+r["itemId"]] = r
	}
	for _, id := range want {
		d := details[id]
		for _, ar := range d.Areas {
			for oi, o := range ar.Options {
				for _, it := range o.Items {
					n++
					r := byID[app.FormatID(id)+"/"+app.FormatID(it.ID)]
					if r == nil {
						t.Errorf("proposal %d item %d missing", id, it.ID)
						continue
					}
					where := fmt.Sprintf("proposal %d item %d", id, it.ID)
					if r["areaName"] != exportfmt.Text(ar.Name) || r["optionId"] != app.FormatID(o.ID) ||
						r["optionNumber"] != strconv.Itoa(oi+1) || r["itemType"] != string(it.ItemType) || r["name"] != exportfmt.Text(it.Name) {
						t.Errorf("%s: row %v", where, r)
					}
					for col, v := range map[string]any{"quantity": it.Quantity, "sellPrice": it.SellPrice, "msrp": it.MSRP,
						"cost": it.Cost, "total": it.Total.Amount, "optionTotal": o.Total, "optionTotalRecurringService": o.TotalRecurringService} {
						sameFigure(t, where, col, r[col], v)
					}
				}
			}
		}
	}
	if len(items) != n {
		t.Errorf("%d item rows, want %d", len(items), n)
	}
}

func TestExportJSONLMatchesAPI(t *testing.T) {
	e, a := demoFixture(t)
	details, raw := demoDetails(t, e, a)
	for _, archived := range []bool{false, true} {
		want := visible(details, func(d *app.ProposalDetail) bool { return d.IsArchived == archived })
		body, _ := exportBody(t, e, a.admin, "Format=jsonl&IsArchive="+strconv.FormatBool(archived))
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 16<<20)
		var got []int64
		for sc.Scan() {
			var d app.ProposalDetail
			if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			got = append(got, d.ID)
			if !reflect.DeepEqual(d, details[d.ID]) {
				t.Errorf("proposal %d: JSON line decodes differently from the API's detail", d.ID)
			}
			if !bytes.Equal(sc.Bytes(), raw[d.ID]) {
				t.Errorf("proposal %d: JSON line is not byte for byte the API's detail", d.ID)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("archived=%v: exported %v, want %v", archived, got, want)
		}
	}
}

// TestExportFilters: an export's filters select what the list would.
func TestExportFilters(t *testing.T) {
	e, a := demoFixture(t)
	for _, q := range []string{
		"Statuses=Draft&Statuses=Accepted",
		"Statuses=Submitted,Declined",
		"IsArchive=true",
		"ModifiedAfter=" + time.Now().Add(-60*24*time.Hour).UTC().Format("2006-01-02"),
		"SalesPersonId=" + app.FormatID(a.sales.rec.ID),
		"SalesPersonId=" + app.FormatID(a.admin.rec.ID) + "&Statuses=Draft",
		"SearchText=residence",
	} {
		var list app.ListResponse
		var want []int64
		for page := 1; ; page++ {
			r := e.get(a.admin, "/public/proposals?PageSize=200&PageNumber="+strconv.Itoa(page)+"&"+q)
			wantStatus(t, r, http.StatusOK)
			r.json(t, &list)
			for _, it := range list.Proposals {
				want = append(want, it.ID)
			}
			if len(list.Proposals) < 200 {
				break
			}
		}
		slices.Sort(want)
		body, h := exportBody(t, e, a.admin, "Format=jsonl&"+q)
		var got []int64
		for _, line := range bytes.Split(bytes.TrimSpace(body), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var d struct{ ID int64 }
			json.Unmarshal(line, &d)
			got = append(got, d.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: exported %v, list has %v", q, got, want)
		}
		if h.Get(HeaderTotalCount) != strconv.Itoa(list.Count) {
			t.Errorf("%s: X-Total-Count %s, list count %d", q, h.Get(HeaderTotalCount), list.Count)
		}
		t.Logf("%s: %d proposals", q, len(got))
	}
}

// pdfText extracts a PDF's text with pdftotext, whitespace collapsed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	return strings.Join(strings.Fields(pdftext.Text(t, pdf)), " ")
}

// fragments are pieces of a text long enough to be telling, for checking
// that none of it leaked: every line, and every sentence.
func fragments(s string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '.' || r == ';' }) {
		line = strings.Join(strings.Fields(line), " ")
		if len(line) >= 12 {
			out = append(out, line)
		}
	}
	return out
}

// TestDocumentsOnDemo renders both documents of every demo proposal and
// change order through the API and reads their text back.
func TestDocumentsOnDemo(t *testing.T) {
	e, a := demoFixture(t)
	details, _ := demoDetails(t, e, a)
	dump := os.Getenv("PD_DUMP_PDF") // a folder to keep the PDFs in, to look at
	checked := 0
	for id, d := range details {
		type doc struct {
			path  string
			label string
			name  string
			total app.Money
			areas []app.AreaView
			notes string
		}
		docs := []doc{{pathf("/public/proposals/%d/document", id), fmt.Sprintf("proposal %d", d.Number),
			d.Name, d.FinancialSummary.ProposalTotal, d.Areas, d.InternalNotes}}
		for _, cos := range d.ChangeOrders {
			r := e.get(a.admin, pathf("/public/proposals/%d/changeorders/%d", id, cos.ID))
			wantStatus(t, r, http.StatusOK)
			var co app.ChangeOrderDetail
			r.json(t, &co)
			docs = append(docs, doc{pathf("/public/proposals/%d/changeorders/%d/document", id, cos.ID),
				fmt.Sprintf("proposal %d change order %d", d.Number, co.Number), co.Name, co.FinancialSummary.ChangeOrderTotal, co.Areas, co.InternalNotes})
		}
		for _, dc := range docs {
			client := e.get(a.admin, dc.path+"?Kind=client")
			wantStatus(t, client, http.StatusOK)
			installer := e.get(a.admin, dc.path+"?Kind=installer")
			wantStatus(t, installer, http.StatusOK)
			if dump != "" {
				base := filepath.Join(dump, strings.ReplaceAll(dc.label, " ", "-"))
				os.WriteFile(base+"-client.pdf", client.body, 0o644)
				os.WriteFile(base+"-installer.pdf", installer.body, 0o644)
			}
			ct, it := pdfText(t, client.body), pdfText(t, installer.body)
			norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			must := []string{norm(dc.name), app.FormatMoney(dc.total, d.FinancialSummary.Currency)}
			if c := d.Customer; c != nil {
				must = append(must, norm(c.FirstName+" "+c.LastName))
			}
			for _, s := range must {
				if !strings.Contains(ct, s) {
					t.Errorf("%s client PDF lacks %q", dc.label, s)
				}
			}
			if !strings.Contains(it, norm(dc.name)) {
				t.Errorf("%s installer PDF lacks the name", dc.label)
			}
			// Legitimate figures of the client document: a cost that
			// equals one of them cannot be told apart in the text.
			shown := map[string]bool{}
			var secret []string
			secret = append(secret, fragments(dc.notes)...)
			for _, ar := range dc.areas {
				for _, o := range ar.Options {
					secret = append(secret, fragments(o.InstallerDescription)...)
					for _, item := range o.Items {
						shown[app.FormatMoney(item.SellPrice, d.FinancialSummary.Currency)] = true
						shown[app.FormatMoney(item.Total.Amount, d.FinancialSummary.Currency)] = true
					}
				}
			}
			for _, ar := range dc.areas {
				for _, o := range ar.Options {
					for _, item := range o.Items {
						if item.Cost == nil {
							continue
						}
						c := app.FormatMoney(*item.Cost, d.FinancialSummary.Currency)
						if !shown[c] && strings.Contains(ct, c) {
							t.Errorf("%s client PDF shows the cost %s of item %d", dc.label, c, item.ID)
						}
					}
				}
			}
			for _, s := range secret {
				if strings.Contains(ct, s) {
					t.Errorf("%s client PDF contains installer/internal notes %q", dc.label, s)
				}
				if !strings.Contains(it, s) {
					t.Errorf("%s installer PDF lacks its notes %q", dc.label, s)
				}
			}
			for _, word := range []string{"Cost", "cost", "Profit", "profit", "Supplier"} {
				if strings.Contains(ct, word) {
					t.Errorf("%s client PDF says %q", dc.label, word)
				}
			}
			if strings.Contains(it, "$") {
				t.Errorf("%s installer PDF shows a price", dc.label)
			}
			checked++
		}
	}
	t.Logf("%d documents checked, each as client and installer PDF", checked)
}
