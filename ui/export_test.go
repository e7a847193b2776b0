package ui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/apiserver/apitest"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
	"proposaldesk/internal/pdftext"
)

// exportFixture makes n proposals on the server whose names carry tag:
// the fixture's customer, an area with a part (with a cost) and labor,
// installer notes on the project and on the option.
func exportFixture(t *testing.T, s *apitest.Server, tag string, n int) []int64 {
	t.Helper()
	draft, err := s.Proposal(s.Draft)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	err = s.Store.Update(context.Background(), s.AccountID, func(tx store.Tx) error {
		env := app.Env{Now: time.Now(), Actor: s.Users[app.RoleAdmin].User, Account: tx.Account().AppAccount(),
			Directory: tx, NewID: tx.NextID, NextNumber: tx.NextNumber}
		for i := range n {
			name := fmt.Sprintf("%s export %d", tag, i)
			p, err := app.Apply(nil, &app.CreateProposal{SalesPersonID: s.Users[app.RoleSales].ID, Name: &name}, env)
			if err != nil {
				return err
			}
			for _, m := range []app.Mutation{
				&app.AssignContact{ID: p.ID, ContactID: draft.Customer.ID},
				&app.CreateArea{ID: p.ID, Name: "Great room"},
				&app.SetDescription{ID: p.ID, Description: "Client-facing scope " + tag},
				&app.SetInternalNotes{ID: p.ID, InternalNotes: "GATECODE-" + tag},
			} {
				if p, err = app.Apply(p, m, env); err != nil {
					return fmt.Errorf("%s: %w", m.Kind(), err)
				}
			}
			o := &p.Areas[0].Options[0]
			if p, err = app.Apply(p, &app.SetOptionInstallerNotes{ID: p.ID, OptionID: o.ID, InstallerNotes: "LADDERNOTE-" + tag}, env); err != nil {
				return err
			}
			cost := app.MustMoney("1234.56")
			p.Areas[0].Options[0].Items = []app.Item{
				{ID: tx.NextID(), ItemType: app.ItemPart, Brand: "Denon", Model: "AVR-X3800H", SellPrice: app.MustMoney(fmt.Sprintf("%d.25", 1900+i)),
					Cost: &cost, Quantity: app.MustQuantity("1")},
				{ID: tx.NextID(), ItemType: app.ItemLabor, Model: "Installation", SellPrice: app.MustMoney("95.00"), Quantity: app.MustQuantity(fmt.Sprint(2 + i))},
			}
			if err := tx.PutProposal(p); err != nil {
				return err
			}
			ids = append(ids, p.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func tag() string { return "T" + strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "") }

// An Admin exports the search result offline, as CSV through the dialog
// and as JSON Lines directly: one row per matching proposal (every page),
// figures equal to app.Summarize of the local views, lines equal to
// app.DetailView.
func TestExportSearchOffline(t *testing.T) {
	h := newHarness(t)
	tg := tag()
	ids := exportFixture(t, h.srv, tg, 30) // more than a list page of 25
	d := h.signIn(app.RoleAdmin)
	h.gate.down.Store(true) // offline from here on
	if st := h.sync(); st.Online || !strings.Contains(d.status.online.Text, "Offline") {
		t.Fatalf("not offline: %+v", st)
	}
	test.Type(d.list.search, tg)
	if len(d.list.rows) != len(ids) {
		t.Fatalf("%d rows for the search, want %d", len(d.list.rows), len(ids))
	}
	st := d.sess.st

	// CSV through the dialog (Ctrl+E with the search focused).
	dir := t.TempDir()
	d.win.Canvas().Focus(d.list.search)
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(
		&desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault})
	e := d.export
	if e == nil || d.dlg != e.dlg {
		t.Fatal("Ctrl+E did not open the export dialog")
	}
	if e.searchBtn.Importance != widget.HighImportance {
		t.Error("Ctrl+E from the search field: the search result is not the main choice")
	}
	if !strings.Contains(e.count.Text, "30 proposals") {
		t.Fatalf("count %q", e.count.Text)
	}
	e.setFolder(dir)
	test.Tap(e.searchBtn)
	h.waitFor("the CSV export", func() bool { return d.exportRun != nil && d.exportRun.finished })
	if r := d.exportRun; r.err != nil || !strings.Contains(r.message, filepath.Join(dir, "proposals.csv")) {
		t.Fatalf("export: %v, %q", r.err, r.message)
	}
	if msg := texts(d.win.Canvas().Overlays().Top()); !strings.Contains(msg, "30 proposals and 60 line items written to") {
		t.Fatalf("success message %q", msg)
	}
	rows := readCSV(t, filepath.Join(dir, "proposals.csv"))
	if len(rows) != 1+len(ids) {
		t.Fatalf("%d CSV rows, want a header and %d", len(rows), len(ids))
	}
	col := colIndex(exportfmt.ProposalColumns)
	for _, r := range rows[1:] {
		var id int64
		fmt.Sscan(r[col["proposalId"]], &id)
		p, err := st.Proposal(id)
		if err != nil {
			t.Fatalf("row of proposal %s: %v", r[col["proposalId"]], err)
		}
		s := app.Summarize(&p.Document)
		for name, want := range map[string]app.Money{"partsSubtotal": s.PartsSubtotal, "laborTotal": s.LaborTotal,
			"proposalSubtotal": s.Subtotal, "salesTaxTotal": s.TaxTotal, "proposalTotal": s.Total} {
			if got := r[col[name]]; got != want.String() {
				t.Errorf("proposal %d %s = %s, want %s", id, name, got, want)
			}
		}
		if !strings.Contains(r[col["name"]], tg) || r[col["customerName"]] != "Carla Client" {
			t.Errorf("row %q", r[:8])
		}
	}
	items := readCSV(t, filepath.Join(dir, "items.csv"))
	if len(items) != 1+2*len(ids) {
		t.Fatalf("%d item rows, want %d", len(items)-1, 2*len(ids))
	}
	if set, _ := st.Settings(); set.ExportFolder != dir {
		t.Errorf("export folder not remembered: %q", set.ExportFolder)
	}

	// JSON Lines, driven directly with a path.
	path := filepath.Join(dir, "all.jsonl")
	res, err := exportSearch(bg, st, d.list.query, app.RoleAdmin, exportJSONL, path, nil)
	if err != nil || res.Proposals != len(ids) {
		t.Fatalf("JSON Lines: %d proposals, %v", res.Proposals, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var got app.ProposalDetail
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		p, err := st.Proposal(got.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(app.DetailView(p, app.RoleAdmin.ViewOptions()))
		again, _ := json.Marshal(got)
		if !bytes.Equal(sc.Bytes(), want) || !bytes.Equal(again, want) {
			t.Fatalf("line of proposal %d differs from app.DetailView:\n%s\n%s", got.ID, sc.Bytes(), want)
		}
		n++
	}
	if n != len(ids) {
		t.Fatalf("%d lines, want %d", n, len(ids))
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func colIndex(cols []string) map[string]int {
	m := map[string]int{}
	for i, c := range cols {
		m[c] = i
	}
	return m
}

// The client PDF shows the proposal's name, customer and total and none
// of its installer notes, internal notes or costs; the installer PDF has
// the notes. Saved through the dialog, offline; a change order's too.
func TestExportPDFsOffline(t *testing.T) {
	h := newHarness(t)
	tg := tag()
	exportFixture(t, h.srv, tg, 1)
	d := h.signIn(app.RoleAdmin)
	h.gate.down.Store(true)
	v := h.openByName(tg + " export 0")
	p := v.p
	dir := t.TempDir()

	d.ExportPDFs()
	e := d.export
	if e.pdfBtn.Disabled() || e.pdfBtn.Importance != widget.HighImportance {
		t.Fatal("the PDF choice is not offered for the open proposal")
	}
	e.setFolder(dir)
	test.Tap(e.pdfBtn)
	h.waitFor("the PDFs", func() bool { return d.exportRun != nil && d.exportRun.finished })
	if r := d.exportRun; r.err != nil {
		t.Fatal(r.err)
	}
	client := pdfText(t, filepath.Join(dir, fmt.Sprintf("proposal-%d-client.pdf", p.Number)))
	total := app.FormatMoney(app.Summarize(&p.Document).Total, app.USD)
	for _, want := range []string{p.Name, "Carla Client", total, "Client-facing scope"} {
		if !strings.Contains(client, want) {
			t.Errorf("client PDF lacks %q", want)
		}
	}
	for _, never := range []string{"GATECODE", "LADDERNOTE", "1,234.56", "1234.56"} {
		if strings.Contains(client, never) {
			t.Errorf("client PDF shows %q", never)
		}
	}
	installer := pdfText(t, filepath.Join(dir, fmt.Sprintf("proposal-%d-installer.pdf", p.Number)))
	for _, want := range []string{"GATECODE-" + tg, "LADDERNOTE-" + tg, "AVR-X3800H"} {
		if !strings.Contains(installer, want) {
			t.Errorf("installer PDF lacks %q", want)
		}
	}
	if strings.Contains(installer, "1,234.56") || strings.Contains(installer, total) {
		t.Error("installer PDF shows prices")
	}

	// A change order's client PDF (the accepted fixture has two).
	acc := h.openByName("Jones office")
	d.Export()
	e = d.export
	if len(e.doc.Options) != 1+len(acc.p.ChangeOrders) {
		t.Fatalf("documents offered: %q", e.doc.Options)
	}
	e.doc.SetSelectedIndex(1)
	e.kind.SetSelected(kindClientLabel)
	e.setFolder(dir)
	test.Tap(e.pdfBtn)
	h.waitFor("the change order PDF", func() bool { return d.exportRun.finished })
	co := acc.p.ChangeOrders[0]
	text := pdfText(t, filepath.Join(dir, fmt.Sprintf("proposal-%d-change-order-%d-client.pdf", acc.p.Number, co.Number)))
	if !strings.Contains(text, "Change order") || !strings.Contains(text, co.Name) {
		t.Errorf("change order PDF: %q", text)
	}
}

func pdfText(t *testing.T, path string) string {
	t.Helper()
	return pdftext.File(t, path)
}

// A Sales user sees the export actions disabled, with app's reason; the
// export functions refuse too.
func TestExportDeniedForSales(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	want := explain(app.Require(d.sess.user, app.PermExport))
	if !d.exportBtn.Disabled() || d.exportHint == nil {
		t.Fatal("the Export button is enabled for Sales")
	}
	d.exportHint.MouseIn(&desktop.MouseEvent{})
	if !d.exportHint.shown() || !strings.Contains(texts(d.exportHint.popup.Content), want) {
		t.Fatalf("hover hint %v", d.exportHint.shown())
	}
	d.exportHint.MouseOut()
	for _, it := range d.menuExport {
		if !it.Disabled {
			t.Errorf("menu item %q enabled", it.Label)
		}
	}
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(
		&desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault})
	if d.export != nil || d.dlg == nil {
		t.Fatal("Ctrl+E opened the export dialog for Sales")
	}
	dir := t.TempDir()
	if _, err := exportSearch(bg, d.sess.st, d.list.query, app.RoleSales, exportCSV, dir, nil); app.KindOf(err) != app.KindPermissionDenied {
		t.Fatalf("exportSearch as Sales: %v", err)
	}
	if err := exportPDF(d.sess.st, d.list.rows[0].ID, 0, app.RoleSales, pdfClient, filepath.Join(dir, "x.pdf")); app.KindOf(err) != app.KindPermissionDenied {
		t.Fatalf("exportPDF as Sales: %v", err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("files written: %v", names)
	}
	// Signed out: the items are off again.
	d.SignOut()
	for _, it := range d.menuExport {
		if !it.Disabled {
			t.Errorf("menu item %q enabled after sign-out", it.Label)
		}
	}
}

// Cancel leaves no file: neither a new one nor a change to an existing
// one, and no temporary file behind. The progress dialog's Cancel stops
// the work and says so.
func TestExportCancelLeavesNoFile(t *testing.T) {
	h := newHarness(t)
	tg := tag()
	exportFixture(t, h.srv, tg, 5)
	d := h.signIn(app.RoleAdmin)
	h.gate.down.Store(true)
	test.Type(d.list.search, tg)
	st := d.sess.st
	dir := t.TempDir()
	old := filepath.Join(dir, "proposals.csv")
	os.WriteFile(old, []byte("previous export\n"), 0o600)

	for _, f := range []exportFormat{exportCSV, exportJSONL} {
		ctx, cancel := context.WithCancel(bg)
		target := dir
		if f == exportJSONL {
			target = filepath.Join(dir, "p.jsonl")
		}
		_, err := exportSearch(ctx, st, d.list.query, app.RoleAdmin, f, target, func(done, total int) {
			if done == 2 {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, errExportCanceled) {
			t.Fatalf("%s: %v, want canceled", f, err)
		}
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 || names[0].Name() != "proposals.csv" {
		t.Fatalf("files after cancel: %v", names)
	}
	if b, _ := os.ReadFile(old); string(b) != "previous export\n" {
		t.Fatalf("the existing file changed: %q", b)
	}

	// The dialog's Cancel.
	started := make(chan struct{})
	d.runExport("Exporting proposals", func(ctx context.Context, progress func(done, total int)) (string, error) {
		progress(1, 10)
		close(started)
		<-ctx.Done()
		return "", errExportCanceled
	})
	<-started
	r := d.exportRun
	h.waitFor("the progress", func() bool { return strings.HasPrefix(r.label.Text, "Exported 1 of 10") })
	test.Tap(r.cancel)
	h.waitFor("the cancel", func() bool { return r.finished })
	if !strings.Contains(texts(d.win.Canvas().Overlays().Top()), "No file was written") {
		t.Fatalf("after cancel: %q", texts(d.win.Canvas().Overlays().Top()))
	}
}

// "Choose folder…" opens Fyne's folder dialog over the window.
func TestExportChooseFolderOpensDialog(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleAdmin)
	d.Export()
	before := len(d.win.Canvas().Overlays().List())
	test.Tap(d.export.chooseBtn)
	if got := len(d.win.Canvas().Overlays().List()); got != before+1 {
		t.Fatalf("overlays %d → %d: no folder dialog", before, got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
