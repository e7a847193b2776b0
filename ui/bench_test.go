package ui

// Speed of the desktop with 10,000 local proposals: start to first frame,
// a search keystroke, and resident memory. The store is made once per
// run in a temp folder with a saved session, so New resumes straight
// into the workspace, offline (the server address is not listening).

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/internal/procstat"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

const benchURL = "http://127.0.0.1:9" // nothing listens: offline

var (
	benchOnce sync.Once
	benchDir  string
)

var benchUser = app.User{ID: 7, Email: "sam@bench.test", FirstName: "Sam", LastName: "Sales", Role: app.RoleSales, EmailVerified: true}

// desk10k is a data folder with 10,000 proposals and a saved session.
func desk10k(b *testing.B, keys *syncer.Keyring) string {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ui-bench-")
		if err != nil {
			b.Fatal(err)
		}
		path := storePath(dir, benchURL, benchUser.Email)
		os.MkdirAll(filepath.Dir(path), 0o700)
		st, err := localstore.OpenWith(path, localstore.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		err = st.ApplyPull(bg, func(tx *localstore.PullTx) error {
			if err := tx.PutUsers([]app.User{benchUser}); err != nil {
				return err
			}
			for i := range 10_000 {
				if err := tx.PutServerCopy(benchProposal(i)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
		if err := writeSession(dir, &savedSession{BaseURL: benchURL, AppID: "bench", Email: benchUser.Email, User: benchUser}); err != nil {
			b.Fatal(err)
		}
		benchDir = dir
	})
	if err := keys.Save(benchURL, benchUser.Email, syncer.Credentials{APIKey: "k", AppSecret: "s"}); err != nil {
		b.Fatal(err)
	}
	return benchDir
}

var (
	firstNames = []string{"Emma", "Liam", "Olivia", "Noah", "Ava", "Mason", "Sophia", "Lucas", "Mia", "Ethan"}
	lastNames  = []string{"Smith", "Jones", "Brennan", "Thornton", "Yamamoto", "Lindqvist", "Fitzgerald", "Wexler", "Garcia", "Okafor", "Novak"}
	rooms      = []string{"Media Room", "Whole-Home Audio", "Networking", "Lighting", "Security", "Outdoor"}
)

func benchProposal(i int) *app.Proposal {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
	first, last := firstNames[i%len(firstNames)], lastNames[(i/7)%len(lastNames)]
	cost := app.MustMoney("350.00")
	p := &app.Proposal{Version: 1}
	p.ID, p.Number = int64(100_000+i), int64(1000+i)
	p.Name = fmt.Sprintf("%s Residence – %s", last, rooms[i%len(rooms)])
	p.Status = app.Statuses[1+i%(len(app.Statuses)-1)]
	p.CreatedDate, p.LastModifiedDate = app.At(at), app.At(at.Add(time.Duration(i%50)*time.Minute))
	p.Currency = app.USD
	p.SalesPerson = benchUser.Salesperson()
	p.Customer = &app.Customer{Contact: app.Contact{ID: int64(500 + i%300), PartyType: app.PartyPerson, ContactType: app.ContactClient,
		FirstName: first, LastName: last, ContactEmail: strings.ToLower(first+"."+last) + "@example.test"}}
	p.ProjectDescription = "Design, supply and installation, with programming and training."
	p.Areas = []app.Area{{ID: int64(1_000_000 + i), Name: "Main", Options: []app.Option{{ID: int64(2_000_000 + i), Status: app.OptionDraft,
		Items: []app.Item{
			{ID: int64(3_000_000 + 3*i), ItemType: app.ItemPart, Brand: "Sonos", Model: "Arc", SellPrice: app.MustMoney("899.00"), Cost: &cost, Quantity: app.MustQuantity("1")},
			{ID: int64(3_000_001 + 3*i), ItemType: app.ItemLabor, Model: "Install", SellPrice: app.MustMoney("95.00"), Quantity: app.MustQuantity(strconv.Itoa(1 + i%8))},
			{ID: int64(3_000_002 + 3*i), ItemType: app.ItemFee, Model: "Permit", SellPrice: app.MustMoney("50.00"), Quantity: app.MustQuantity("1")},
		}}}}}
	return p
}

// startBench opens the 10k desktop and renders its first frame.
func startBench(b *testing.B, dir string, keys *syncer.Keyring) *Desktop {
	d := New(fyne.CurrentApp(), Options{DataDir: dir, Keyring: keys, Do: func(fn func()) {}, ManualSync: true})
	if d.sess == nil {
		b.Fatal("no session resumed")
	}
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.Window().Canvas().Capture() // the first frame, painted
	return d
}

func closeBench(d *Desktop) {
	d.Close()
	d.Window().Close()
}

// BenchmarkStartup10k: start (open the store of 10,000 proposals, build
// the workspace, query the list) to the first painted frame.
func BenchmarkStartup10k(b *testing.B) {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	dir := desk10k(b, keys)
	for b.Loop() {
		closeBench(startBench(b, dir, keys))
	}
}

// BenchmarkSearchKeystroke10k: one keystroke in the search box runs the
// list query over 10,000 proposals and refreshes the visible rows.
func BenchmarkSearchKeystroke10k(b *testing.B) {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	d := startBench(b, desk10k(b, keys), keys)
	defer closeBench(d)
	words := []string{"t", "th", "tho", "thor", "thorn", "thor", "tho", "th", "t", ""}
	i := 0
	for b.Loop() {
		d.list.search.SetText(words[i%len(words)])
		i++
	}
	b.ReportMetric(float64(len(d.list.rows)), "rows")
}

// BenchmarkRSS10k reports the resident memory with 10,000 proposals
// open in the workspace (after a search and with a proposal open).
func BenchmarkRSS10k(b *testing.B) {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	d := startBench(b, desk10k(b, keys), keys)
	defer closeBench(d)
	for b.Loop() {
		d.list.search.SetText("smith")
		d.OpenFirst()
		d.list.search.SetText("")
	}
	runtime.GC()
	b.ReportMetric(float64(procstat.KB("VmRSS"))/1024, "RSS-MB")
}

// BenchmarkExportCSV10k: export the 10,000 local proposals (the empty
// search) to proposals.csv and items.csv, as the export dialog does.
func BenchmarkExportCSV10k(b *testing.B) {
	benchExport(b, exportCSV)
}

// BenchmarkExportJSONL10k: the same as JSON Lines.
func BenchmarkExportJSONL10k(b *testing.B) {
	benchExport(b, exportJSONL)
}

func benchExport(b *testing.B, f exportFormat) {
	dir := desk10k(b, syncer.NewKeyring())
	st, err := localstore.Open(storePath(dir, benchURL, benchUser.Email))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	out := b.TempDir()
	target := out
	if f == exportJSONL {
		target = filepath.Join(out, "p.jsonl")
	}
	q := app.DefaultListQuery()
	var res exportResult
	for b.Loop() {
		if res, err = exportSearch(bg, st, q, app.RoleAdmin, f, target, func(int, int) {}); err != nil {
			b.Fatal(err)
		}
	}
	if res.Proposals != 10_000 {
		b.Fatalf("%d proposals exported", res.Proposals)
	}
	b.ReportMetric(float64(res.Proposals), "proposals")
}
