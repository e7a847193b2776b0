package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// CatalogImportPath is the import route; its body may be larger than
// other routes' (Config.MaxImportBytes).
const CatalogImportPath = "/public/catalog/import"

// DefaultMaxImportBytes caps an import body when Config.MaxImportBytes is
// 0: 256 MiB, about 800,000 rows of a typical file.
const DefaultMaxImportBytes int64 = 256 << 20

// POST /public/catalog/import?Mode=Merge|Replace (extension, Admin),
// body text/csv.
func (s *Server) importCatalog(c *call) error {
	mt, _, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || (mt != "text/csv" && mt != "text/plain") {
		return app.Errorf(app.KindUnsupportedMediaType, "The catalog import takes a text/csv body, not %q.", c.r.Header.Get("Content-Type"))
	}
	var modeText, confirmText string
	for k, vs := range c.r.URL.Query() {
		switch {
		case strings.EqualFold(k, "Mode") && len(vs) > 0:
			modeText = vs[0]
		case strings.EqualFold(k, "ConfirmRemoval") && len(vs) > 0:
			confirmText = vs[0]
		}
	}
	mode, err := app.ParseCatalogImportMode(modeText)
	if err != nil {
		return err
	}
	confirm, err := app.ParseConfirmRemoval(confirmText)
	if err != nil {
		return err
	}
	if c.r.Body == nil {
		return app.Invalid("body", "is empty; send the CSV file")
	}
	rep, err := ImportCatalogConfirming(c.r.Context(), s.st, c.account.ID, mode, confirm, c.r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return app.Errorf(app.KindPayloadTooLarge, "The file is larger than the limit of %d bytes.", mbe.Limit)
		}
		return err
	}
	if !rep.Applied {
		return RejectedError(rep)
	}
	return c.write(must(jsonResult(rep)))
}

func must(r result, err error) result {
	if err != nil {
		panic(err) // a report always encodes
	}
	return r
}

// RejectedError is the 400 ValidationFailed of an import that applied
// nothing: the message counts the rows, and errors[] names the first
// app.MaxReportedRows rejected ones ("line 12") with their reasons.
func RejectedError(rep app.CatalogImportReport) *app.Error {
	e := &app.Error{Kind: app.KindValidationFailed,
		Message: fmt.Sprintf("%d of %d rows were rejected; nothing was imported.", rep.RejectedCount, rep.Rows)}
	if rep.RejectedCount > len(rep.Rejected) {
		e.Message = fmt.Sprintf("%d of %d rows were rejected; nothing was imported. The first %d are listed.",
			rep.RejectedCount, rep.Rows, len(rep.Rejected))
	}
	if rep.Rows == 0 && len(rep.Rejected) == 1 && rep.Rejected[0].Line == 1 {
		e.Message = "The file's header was rejected; nothing was imported."
	}
	for _, r := range rep.Rejected {
		e.Fields = append(e.Fields, app.FieldError{Field: fmt.Sprintf("line %d", r.Line), Message: r.Reason})
	}
	return e
}

// ImportCatalog is ImportCatalogConfirming without confirmation: a
// Replace may remove at most app.MaxUnconfirmedRemovalPercent of the
// catalog.
func ImportCatalog(ctx context.Context, st store.Store, accountID int64, mode app.CatalogImportMode, r io.Reader) (app.CatalogImportReport, error) {
	return ImportCatalogConfirming(ctx, st, accountID, mode, false, r)
}

// ImportCatalogConfirming checks a CSV file in app's import format and,
// when every row is good, applies it to the account's catalog, all at
// once (in one transaction, or staged: store.StagedCatalogImporter);
// otherwise it applies nothing and the report counts the rejected rows
// and lists the first ones. A Replace that would remove more than
// app.MaxUnconfirmedRemovalPercent of the catalog applies nothing
// (app.CheckCatalogRemoval's error) unless confirm.
// The file is read twice, a row at a time (a seekable r is rewound, any
// other is copied to a temporary file while it is checked), so memory
// does not grow with the file; the write transaction is held only for
// the second pass. The server's route and the admin command share it.
func ImportCatalogConfirming(ctx context.Context, st store.Store, accountID int64, mode app.CatalogImportMode, confirm bool, r io.Reader) (app.CatalogImportReport, error) {
	rep := app.CatalogImportReport{Mode: mode, ConfirmRemoval: confirm, Removed: []app.CatalogRemovedItem{}, Rejected: []app.CatalogRejectedRow{}}
	src, cleanup, err := rereadable(r)
	if err != nil {
		return rep, err
	}
	defer cleanup()
	if err := checkCatalogCSV(src.first, &rep, catalogLookup(ctx, st, accountID)); err != nil || rep.RejectedCount > 0 {
		return rep, err
	}
	// The rows are read again from the start each time the store runs
	// the write (a group commit may run it more than once).
	rows := func(yield func(app.CatalogRow, error) bool) {
		second, err := src.again()
		if err != nil {
			yield(app.CatalogRow{}, err)
			return
		}
		cr, err := app.NewCatalogCSV(second)
		if err != nil {
			yield(app.CatalogRow{}, fmt.Errorf("catalog file changed between its check and its import: %w", err))
			return
		}
		for {
			row, rej, err := cr.Next()
			switch {
			case errors.Is(err, io.EOF):
				return
			case err == nil && rej.Line != 0:
				err = fmt.Errorf("catalog file changed between its check and its import: %w", &rej)
			}
			if err != nil || ctx.Err() != nil {
				yield(app.CatalogRow{}, errors.Join(err, ctx.Err()))
				return
			}
			if !yield(row, nil) {
				return
			}
		}
	}
	counts := rep
	if staged, ok := st.(store.StagedCatalogImporter); ok {
		// Several bounded transactions, published at once (boltstore).
		err = staged.ImportCatalogStaged(ctx, accountID, mode, rep.Rows, rows, &counts)
	} else {
		err = st.Update(ctx, accountID, func(tx store.Tx) error {
			counts = rep // a retried function starts again
			return tx.ImportCatalog(mode, rows, &counts)
		})
	}
	if err != nil {
		return rep, fmt.Errorf("import catalog of account %d: %w", accountID, err)
	}
	counts.Applied = true
	return counts, nil
}

// checkCatalogCSV is the first pass: every row read and checked, then
// what the packages name (app.CatalogCSV.CheckPackages), the rejected
// ones recorded.
func checkCatalogCSV(r io.Reader, rep *app.CatalogImportReport, inCatalog app.CatalogLookup) error {
	cr, err := app.NewCatalogCSV(r)
	var header *app.CatalogRejectedRow
	if errors.As(err, &header) {
		rep.Reject(*header)
		return nil
	}
	if err != nil {
		return err
	}
	for {
		_, rej, err := cr.Next()
		if errors.Is(err, io.EOF) {
			bad, err := cr.CheckPackages(rep.Mode, inCatalog)
			for _, r := range bad {
				rep.Reject(r)
			}
			return err
		}
		if err != nil {
			return err
		}
		rep.Rows++
		if rej.Line != 0 {
			rep.Reject(rej)
		}
	}
}

// catalogLookup finds a package's component in the account's catalog
// by part number (the keys packages name).
func catalogLookup(ctx context.Context, st store.Store, accountID int64) app.CatalogLookup {
	return func(key string) (found, isPackage bool, err error) {
		pn := strings.TrimPrefix(key, "pn:")
		err = st.View(ctx, accountID, func(tx store.Tx) error {
			page, _, err := tx.SearchCatalog(app.CatalogQuery{SearchText: pn, PageNumber: 1, PageSize: app.MaxCatalogPageSize})
			for _, it := range page {
				if strings.EqualFold(strings.TrimSpace(it.PartNumber), pn) {
					found, isPackage = true, it.IsPackage()
				}
			}
			return err
		})
		return found, isPackage, err
	}
}

// source is a file read twice: first while it is checked, again to apply.
type source struct {
	first io.Reader
	again func() (io.Reader, error)
}

func rereadable(r io.Reader) (source, func(), error) {
	if f, ok := r.(io.ReadSeeker); ok {
		start, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return source{}, nil, err
		}
		return source{first: f, again: func() (io.Reader, error) {
			_, err := f.Seek(start, io.SeekStart)
			return f, err
		}}, func() {}, nil
	}
	tmp, err := os.CreateTemp("", "catalog-import-*.csv")
	if err != nil {
		return source{}, nil, fmt.Errorf("catalog import: %w", err)
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	// The check reads through to the copy; a read error (a body over the
	// cap, a dropped connection) surfaces from the check.
	return source{first: io.TeeReader(r, tmp), again: func() (io.Reader, error) {
		_, err := tmp.Seek(0, io.SeekStart)
		return tmp, err
	}}, cleanup, nil
}
