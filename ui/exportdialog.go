package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// Export choices in the words a user reads.
const (
	exportSearchLabel = "Export search result…"
	exportPDFLabel    = "Proposal PDFs…"

	formatCSVLabel   = "CSV (proposals.csv + items.csv)"
	formatJSONLLabel = "JSON Lines (proposals.jsonl)"
	jsonlFile        = "proposals.jsonl"

	kindClientLabel    = "Client PDF"
	kindInstallerLabel = "Installer PDF"
	kindBothLabel      = "Both"
)

// exportDialog is the open export dialog (Ctrl+E): the search result in
// bulk, or the open proposal's PDFs, into a chosen folder.
type exportDialog struct {
	d      *Desktop
	dlg    dialog.Dialog
	folder string

	folderLabel *widget.Label
	chooseBtn   *widget.Button
	count       *widget.Label
	format      *widget.RadioGroup
	searchBtn   *widget.Button
	doc         *widget.Select
	docIDs      map[string]int64
	kind        *widget.RadioGroup
	pdfBtn      *widget.Button
}

// exportRun is an export in progress: its dialog, and what it said last
// (the tests read it).
type exportRun struct {
	dlg      dialog.Dialog
	bar      *widget.ProgressBar
	label    *widget.Label
	cancel   *widget.Button
	stop     context.CancelFunc
	finished bool
	message  string
	err      error
}

// exportDenied is why the user may not export (nil for Admins): app's
// rule, never the UI's.
func (d *Desktop) exportDenied() error {
	if d.sess == nil {
		return errors.New("not signed in")
	}
	return app.Require(d.sess.user, app.PermExport)
}

// Export opens the export dialog (Ctrl+E). For a role without the export
// permission it shows app's reason instead.
func (d *Desktop) Export() {
	if d.sess == nil {
		return
	}
	if err := d.exportDenied(); err != nil {
		d.showInfo("Export", "Exports are for Admins. "+explain(err))
		return
	}
	d.showDialog(d.newExportDialog(false).dlg)
}

// ExportPDFs is Export with the open proposal's PDFs as the main choice.
func (d *Desktop) ExportPDFs() {
	if d.sess == nil {
		return
	}
	if err := d.exportDenied(); err != nil {
		d.showInfo("Export", "Exports are for Admins. "+explain(err))
		return
	}
	d.showDialog(d.newExportDialog(true).dlg)
}

func (d *Desktop) showInfo(title, text string) {
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	d.showDialog(dialog.NewCustom(title, "Close", container.NewGridWrap(fyne.NewSize(420, 80), msg), d.win))
}

// exportFolder is where exports go unless the user chooses another
// folder: the last one used, else Documents, else the home folder.
func (d *Desktop) exportFolder() string {
	if set, err := d.sess.st.Settings(); err == nil && set.ExportFolder != "" {
		if fi, err := os.Stat(set.ExportFolder); err == nil && fi.IsDir() {
			return set.ExportFolder
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	if fi, err := os.Stat(filepath.Join(home, "Documents")); err == nil && fi.IsDir() {
		return filepath.Join(home, "Documents")
	}
	return home
}

func (d *Desktop) newExportDialog(preferPDF bool) *exportDialog {
	e := &exportDialog{d: d, folder: d.exportFolder()}
	e.folderLabel = widget.NewLabel(e.folder)
	e.folderLabel.Truncation = fyne.TextTruncateEllipsis
	e.chooseBtn = widget.NewButton("Choose folder…", e.chooseFolder)
	folderRow := container.NewBorder(nil, nil, widget.NewLabel("Save to"), e.chooseBtn, e.folderLabel)

	// The search result.
	ids, err := matchingIDs(d.sess.st, d.list.query)
	e.count = widget.NewLabel("")
	switch {
	case err != nil:
		e.count.SetText("The search failed: " + explain(err))
	default:
		e.count.SetText(fmt.Sprintf("%s matching the list's search and filters (every page).", plural(len(ids), "proposal", "proposals")))
	}
	e.format = widget.NewRadioGroup([]string{formatCSVLabel, formatJSONLLabel}, nil)
	e.format.SetSelected(formatCSVLabel)
	e.format.Required = true
	e.searchBtn = widget.NewButton(exportSearchLabel, e.exportSearch)
	if err != nil || len(ids) == 0 {
		e.searchBtn.Disable()
	}
	bulk := newCard("Search result", "", container.NewVBox(e.count, e.format, container.NewHBox(e.searchBtn)))

	// The open proposal's documents.
	e.kind = widget.NewRadioGroup([]string{kindClientLabel, kindInstallerLabel, kindBothLabel}, nil)
	e.kind.Horizontal = true
	e.kind.Required = true
	e.kind.SetSelected(kindBothLabel)
	e.pdfBtn = widget.NewButton(exportPDFLabel, e.exportPDFs)
	var pdfBody fyne.CanvasObject
	if p := d.detail.p; p != nil {
		what := fmt.Sprintf("Proposal #%d · %s", p.Number, p.Name)
		e.docIDs = map[string]int64{what: 0}
		labels := []string{what}
		for _, co := range p.ChangeOrders {
			l := fmt.Sprintf("Change order %d · %s", co.Number, co.Name)
			labels = append(labels, l)
			e.docIDs[l] = co.ID
		}
		e.doc = widget.NewSelect(labels, nil)
		e.doc.SetSelectedIndex(0)
		pdfBody = container.NewVBox(e.doc, e.kind, container.NewHBox(e.pdfBtn))
		if row := e.laptopSignedPDFRow(p); row != nil { // inperson.go
			pdfBody = container.NewVBox(pdfBody, row)
		}
	} else {
		hint := widget.NewLabelWithStyle("Open a proposal to save its client and installer PDFs.",
			fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		e.pdfBtn.Disable()
		e.kind.Disable()
		pdfBody = container.NewVBox(hint, e.kind, container.NewHBox(e.pdfBtn))
	}
	pdfs := newCard("Proposal PDFs", "", pdfBody)

	// Ctrl+E means the search result when the list has the focus or no
	// proposal is open, else the open proposal's PDFs.
	focused := d.win.Canvas().Focused()
	if d.detail.p == nil || !preferPDF && (focused == d.list.search || focused == d.list.list) {
		e.searchBtn.Importance = widget.HighImportance
	} else {
		e.pdfBtn.Importance = widget.HighImportance
	}
	note := widget.NewLabelWithStyle("Exports are made from what is on this computer; they work offline.",
		fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	body := container.NewVBox(folderRow, bulk, pdfs, note)
	e.dlg = dialog.NewCustom("Export", "Close", container.NewGridWrap(fyne.NewSize(560, body.MinSize().Height), body), d.win)
	d.export = e
	return e
}

// chooseFolder opens the folder dialog at the current folder.
func (e *exportDialog) chooseFolder() {
	d := e.d
	fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			return
		}
		e.setFolder(u.Path())
	}, d.win)
	if l, err := storage.ListerForURI(storage.NewFileURI(e.folder)); err == nil {
		fd.SetLocation(l)
	}
	fd.Resize(fyne.NewSize(800, 560))
	fd.Show()
}

func (e *exportDialog) setFolder(path string) {
	e.folder = path
	e.folderLabel.SetText(path)
	_ = e.d.sess.st.UpdateSettings(context.Background(), func(s *localstore.Settings) { s.ExportFolder = path })
}

// exportSearch exports the list's current search result into the folder.
func (e *exportDialog) exportSearch() {
	d := e.d
	s := d.sess
	q, role, folder := d.list.query, s.user.Role, e.folder
	f, target, files := exportCSV, folder, []string{proposalsCSV, itemsCSV}
	if e.format.Selected == formatJSONLLabel {
		f, target, files = exportJSONL, filepath.Join(folder, jsonlFile), []string{jsonlFile}
	}
	e.confirmReplace(files, func() {
		d.runExport("Exporting proposals", func(ctx context.Context, progress func(done, total int)) (string, error) {
			res, err := exportSearch(ctx, s.st, q, role, f, target, progress)
			if err != nil {
				return "", err
			}
			if f == exportCSV {
				return fmt.Sprintf("%s and %s written to\n%s\n%s",
					plural(res.Proposals, "proposal", "proposals"), plural(res.Rows, "line item", "line items"),
					res.Files[0], res.Files[1]), nil
			}
			return fmt.Sprintf("%s written to\n%s", plural(res.Proposals, "proposal", "proposals"), res.Files[0]), nil
		})
	})
}

// exportPDFs saves the chosen document(s) of the open proposal.
func (e *exportDialog) exportPDFs() {
	d := e.d
	s := d.sess
	p := d.detail.p
	if p == nil {
		return
	}
	d.detail.flush() // the PDF shows what was typed
	id, role, folder := p.ID, s.user.Role, e.folder
	coID := e.docIDs[e.doc.Selected]
	var kinds []pdfKind
	switch e.kind.Selected {
	case kindClientLabel:
		kinds = []pdfKind{pdfClient}
	case kindInstallerLabel:
		kinds = []pdfKind{pdfInstaller}
	default:
		kinds = []pdfKind{pdfClient, pdfInstaller}
	}
	var files []string
	for _, k := range kinds {
		files = append(files, pdfFileName(p, coID, k))
	}
	e.confirmReplace(files, func() {
		d.runExport("Saving PDFs", func(ctx context.Context, progress func(done, total int)) (string, error) {
			var paths []string
			for i, k := range kinds {
				if ctx.Err() != nil {
					return "", errExportCanceled
				}
				path := filepath.Join(folder, files[i])
				if err := exportPDF(s.st, id, coID, role, k, path); err != nil {
					return "", err
				}
				paths = append(paths, path)
				progress(i+1, len(kinds))
			}
			return fmt.Sprintf("%s written to\n%s", plural(len(paths), "PDF", "PDFs"), strings.Join(paths, "\n")), nil
		})
	})
}

// confirmReplace asks before files of the same names in the folder are
// replaced, then runs next.
func (e *exportDialog) confirmReplace(files []string, next func()) {
	var existing []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(e.folder, f)); err == nil {
			existing = append(existing, f)
		}
	}
	if len(existing) == 0 {
		next()
		return
	}
	c := dialog.NewConfirm("Replace?", fmt.Sprintf("%s already in %s. Replace?",
		strings.Join(existing, " and ")+map[bool]string{true: " is", false: " are"}[len(existing) == 1], e.folder),
		func(ok bool) {
			if ok {
				next()
			}
		}, e.d.win)
	c.SetConfirmText("Replace")
	c.SetOnClosed(func() {
		if e.d.exportConfirm == c {
			e.d.exportConfirm = nil
		}
	})
	c.Show()
	e.d.exportConfirm = c
}

// runExport runs work in a goroutine behind a progress dialog ("Exported
// n of m", Cancel), then says what was written or what went wrong.
// Widgets change only on the UI goroutine (Options.Do).
func (d *Desktop) runExport(title string, work func(ctx context.Context, progress func(done, total int)) (string, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &exportRun{stop: cancel}
	r.bar = widget.NewProgressBar()
	r.label = widget.NewLabel("Starting…")
	r.cancel = widget.NewButton("Cancel", func() {
		cancel()
		r.label.SetText("Canceling…")
		r.cancel.Disable()
	})
	body := container.NewVBox(r.label, r.bar, container.NewCenter(r.cancel))
	r.dlg = dialog.NewCustomWithoutButtons(title, container.NewGridWrap(fyne.NewSize(420, body.MinSize().Height), body), d.win)
	d.exportRun = r
	d.showDialogThen(r.dlg, cancel) // Esc cancels too

	// Progress reaches the UI at most every 100 ms.
	var mu sync.Mutex
	var last time.Time
	progress := func(done, total int) {
		mu.Lock()
		now := time.Now()
		if done < total && now.Sub(last) < 100*time.Millisecond {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		d.opts.Do(func() {
			if r.finished {
				return
			}
			r.bar.Max = float64(total)
			r.bar.SetValue(float64(done))
			r.label.SetText(fmt.Sprintf("Exported %s of %s", thousands(done), thousands(total)))
		})
	}
	go func() {
		msg, err := work(ctx, progress)
		cancel()
		d.opts.Do(func() {
			r.finished = true
			r.message, r.err = msg, err
			r.dlg.Hide()
			switch {
			case errors.Is(err, errExportCanceled):
				d.showInfo("Export canceled", "The export was canceled. No file was written.")
			case err != nil:
				d.showError("Export failed", fmt.Errorf("nothing was written: %w", err))
			default:
				d.showInfo("Export complete", msg)
			}
		})
	}()
}

// thousands formats n with thousands separators: 10000 → "10,000".
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// hoverHint shows text in a small pop-up while the pointer is over it;
// it sits on top of a disabled control to say why it is disabled.
type hoverHint struct {
	widget.BaseWidget
	text  string
	win   fyne.Window
	popup *widget.PopUp
}

var _ desktop.Hoverable = (*hoverHint)(nil)

func newHoverHint(text string, win fyne.Window) *hoverHint {
	h := &hoverHint{text: text, win: win}
	h.ExtendBaseWidget(h)
	return h
}

func (h *hoverHint) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

func (h *hoverHint) MouseIn(ev *desktop.MouseEvent) {
	if h.popup == nil {
		l := widget.NewLabel(h.text)
		l.Wrapping = fyne.TextWrapWord
		h.popup = widget.NewPopUp(container.NewGridWrap(fyne.NewSize(340, l.MinSize().Height*2), l), h.win.Canvas())
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(h)
	h.popup.ShowAtPosition(pos.Add(fyne.NewPos(0, h.Size().Height+2)))
}

func (h *hoverHint) MouseMoved(*desktop.MouseEvent) {}

func (h *hoverHint) MouseOut() {
	if h.popup != nil {
		h.popup.Hide()
	}
}

// shown reports whether the hint's pop-up is on screen.
func (h *hoverHint) shown() bool { return h.popup != nil && h.popup.Visible() }
