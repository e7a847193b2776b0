package ui

// Exports of what is stored locally: the list's search result as CSV or
// JSON Lines, and a proposal's (or change order's) client and installer
// PDFs. They read the local store only, so they work offline, and they
// write the same files as the server's export (app/exportfmt, app/report)
// with the user's role's view of costs. Files appear only complete: each
// is written to a temporary file in the target folder and renamed.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
	"proposaldesk/app/report"
	"proposaldesk/localstore"
)

// exportFormat is a bulk export's format.
type exportFormat string

const (
	exportCSV   exportFormat = "csv"
	exportJSONL exportFormat = "jsonl"
)

// CSV file names in the chosen folder (the server CLI's).
const (
	proposalsCSV = "proposals.csv"
	itemsCSV     = "items.csv"
)

// exportResult is what an export wrote.
type exportResult struct {
	Proposals int
	Rows      int      // CSV line items (the items file), else 0
	Files     []string // final paths
}

// errExportCanceled is the error of an export the user canceled.
var errExportCanceled = errors.New("export canceled")

// matchingIDs are the IDs of every proposal matching the list's query
// (every page), in proposal-ID order as the server's export.
func matchingIDs(st *localstore.Store, q app.ListQuery) ([]int64, error) {
	q.PageNumber, q.PageSize = 1, math.MaxInt32
	entries, _, err := st.Search(q)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(entries))
	for i := range entries {
		ids[i] = entries[i].ID
	}
	slices.Sort(ids)
	return ids, nil
}

// exportSearch writes every local proposal matching q: for CSV into the
// folder target as proposals.csv and items.csv, for JSON Lines into the
// file target. progress (may be nil) is called after each proposal with
// the count done and the total. A canceled context or an error removes
// the temporary files and leaves any existing file untouched.
func exportSearch(ctx context.Context, st *localstore.Store, q app.ListQuery, role app.Role, f exportFormat, target string, progress func(done, total int)) (exportResult, error) {
	var res exportResult
	if err := app.Require(app.User{Role: role}, app.PermExport); err != nil {
		return res, err
	}
	ids, err := matchingIDs(st, q)
	if err != nil {
		return res, err
	}
	var paths []string
	var writers []exportfmt.Writer
	switch f {
	case exportCSV:
		paths = []string{filepath.Join(target, proposalsCSV), filepath.Join(target, itemsCSV)}
	case exportJSONL:
		paths = []string{target}
	default:
		return res, fmt.Errorf("bug: export format %q", f)
	}
	files := make([]*atomicFile, 0, len(paths))
	defer func() {
		for _, a := range files {
			a.abort()
		}
	}()
	for _, p := range paths {
		a, err := createAtomic(p)
		if err != nil {
			return res, err
		}
		files = append(files, a)
	}
	if f == exportCSV {
		writers = []exportfmt.Writer{exportfmt.NewProposalsCSV(files[0].f), exportfmt.NewItemsCSV(files[1].f)}
	} else {
		writers = []exportfmt.Writer{exportfmt.NewJSONL(files[0].f)}
	}
	opts := role.ViewOptions()
	for i, id := range ids {
		if i%64 == 0 && ctx.Err() != nil {
			return res, errExportCanceled
		}
		p, err := st.Proposal(id)
		if app.KindOf(err) == app.KindNotFound {
			continue // gone since the search (a sync removed it)
		}
		if err != nil {
			return res, err
		}
		d := app.DetailView(p, opts)
		for j, w := range writers {
			n, err := w.Write(&d)
			if err != nil {
				return res, fmt.Errorf("write %s: %w", paths[j], err)
			}
			if j == 1 {
				res.Rows += n
			}
		}
		res.Proposals++
		if progress != nil {
			progress(i+1, len(ids))
		}
	}
	if ctx.Err() != nil {
		return res, errExportCanceled
	}
	for j, w := range writers {
		if err := w.Flush(); err != nil {
			return res, fmt.Errorf("write %s: %w", paths[j], err)
		}
	}
	for _, a := range files {
		if err := a.commit(); err != nil {
			return res, err
		}
		res.Files = append(res.Files, a.final)
	}
	return res, nil
}

// pdfKind is which document of a proposal.
type pdfKind string

const (
	pdfClient    pdfKind = "client"
	pdfInstaller pdfKind = "installer"
)

// pdfFileName is the server's file name of a document: proposal-1001-client.pdf,
// proposal-1001-change-order-2-installer.pdf.
func pdfFileName(p *app.Proposal, coID int64, kind pdfKind) string {
	if co, err := p.ChangeOrder(coID); coID != 0 && err == nil {
		return fmt.Sprintf("proposal-%d-change-order-%d-%s.pdf", p.Number, co.Number, kind)
	}
	return fmt.Sprintf("proposal-%d-%s.pdf", p.Number, kind)
}

// documentOf is the document of a local proposal, or of its change order
// coID (when not 0), as the role sees it.
func documentOf(p *app.Proposal, coID int64, role app.Role) (report.Document, error) {
	if coID != 0 {
		co, err := p.ChangeOrder(coID)
		if err != nil {
			return report.Document{}, err
		}
		d := app.ChangeOrderDetailView(co, role.ViewOptions())
		return report.FromChangeOrder(&d, p.Number), nil
	}
	d := app.DetailView(p, role.ViewOptions())
	return report.FromProposal(&d), nil
}

// exportPDF writes one document of the local proposal id (or of its
// change order coID) to the file target.
func exportPDF(st *localstore.Store, id, coID int64, role app.Role, kind pdfKind, target string) error {
	if err := app.Require(app.User{Role: role}, app.PermExport); err != nil {
		return err
	}
	p, err := st.Proposal(id)
	if err != nil {
		return err
	}
	doc, err := documentOf(p, coID, role)
	if err != nil {
		return err
	}
	render := report.Client
	if kind == pdfInstaller {
		render = report.Installer
	}
	a, err := createAtomic(target)
	if err != nil {
		return err
	}
	defer a.abort()
	if err := render(a.f, &doc, report.Options{}); err != nil {
		return fmt.Errorf("render the %s PDF: %w", kind, err)
	}
	return a.commit()
}

// atomicFile is a file written under a temporary name in the target's
// folder and renamed to the target only when complete.
type atomicFile struct {
	f     *os.File
	final string
	done  bool
}

func createAtomic(final string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".*.part")
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, final: final}, nil
}

// commit makes the file durable and gives it its final name.
func (a *atomicFile) commit() error {
	if err := a.f.Sync(); err != nil {
		return err
	}
	if err := a.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(a.f.Name(), a.final); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	a.done = true
	return nil
}

// abort removes the temporary file unless it was committed.
func (a *atomicFile) abort() {
	if a.done {
		return
	}
	a.f.Close()
	os.Remove(a.f.Name())
	a.done = true
}
