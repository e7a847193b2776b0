package apiserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
	"proposaldesk/app/report"
)

// Bulk export and documents (extensions, Admin only: app.OpExport).
//
// An export streams: the proposal IDs are listed once, then read in
// batches of exportBatch, each batch in its own short read transaction
// and rendered into a buffer that is written to the client only after
// the transaction has ended, so a slow client never holds a transaction
// open. The response starts before the data is read, so a failure half
// way cannot change the status: it is reported in the trailer
// X-Export-Error, and X-Export-Count (rows or lines written) lets a
// client check that it got everything.

// exportBatch is how many proposals one read transaction renders.
const exportBatch = 200

// Trailers and headers of an export.
const (
	HeaderTotalCount  = "X-Total-Count"
	TrailerExportErr  = "X-Export-Error"
	TrailerExportRows = "X-Export-Count"
)

// exportFilters are the list's filter parameters an export accepts; the
// list's sort and paging parameters do not apply (an export is in ID
// order and complete).
var exportFilters = []string{"SearchText", "Statuses", "ContactId", "SalesPersonId", "ModifiedAfter", "IsArchive"}

// exportQuery is a parsed export request.
type exportQuery struct {
	format exportfmt.Format
	part   exportfmt.Part
	list   app.ListQuery
}

func parseExportQuery(values url.Values) (exportQuery, error) {
	var q exportQuery
	get := func(name string) string {
		for k, vs := range values {
			if strings.EqualFold(k, name) && len(vs) > 0 {
				return strings.TrimSpace(vs[0])
			}
		}
		return ""
	}
	switch f := strings.ToLower(get("Format")); f {
	case "csv":
		q.format = exportfmt.FormatCSV
	case "jsonl", "json":
		q.format = exportfmt.FormatJSONL
	case "":
		return q, app.Invalid("Format", "is required: csv or jsonl")
	default:
		return q, app.Invalid("Format", "must be csv or jsonl, not %q", f)
	}
	switch p := strings.ToLower(get("Part")); p {
	case "", "proposals":
		q.part = exportfmt.PartProposals
	case "items":
		if q.format != exportfmt.FormatCSV {
			return q, app.Invalid("Part", "items applies to the csv format only (jsonl lines hold the whole proposal)")
		}
		q.part = exportfmt.PartItems
	default:
		return q, app.Invalid("Part", "must be proposals or items, not %q", p)
	}
	filters := url.Values{}
	for k, vs := range values {
		for _, name := range exportFilters {
			if strings.EqualFold(k, name) {
				filters[k] = vs
			}
		}
	}
	list, err := app.ParseListQuery(filters)
	if err != nil {
		return q, err
	}
	list.SortBy, list.Descending, list.PageNumber, list.PageSize = app.SortNumber, false, 1, 1
	q.list = list
	return q, nil
}

// GET /public/export/proposals (extension)
func (s *Server) exportProposals(c *call) error {
	q, err := parseExportQuery(c.r.URL.Query())
	if err != nil {
		return err
	}
	ctx := c.r.Context()
	var ids []int64
	var total int
	err = s.st.View(ctx, c.account.ID, func(tx store.Tx) error {
		var err error
		if _, total, err = tx.List(q.list); err != nil {
			return err
		}
		ids, err = tx.ProposalIDs()
		return err
	})
	if err != nil {
		return err
	}

	h := c.w.Header()
	h.Set("Content-Type", q.format.ContentType())
	ext := ".csv"
	if q.format == exportfmt.FormatJSONL {
		ext = ".jsonl"
	}
	name := "proposals-" + c.now.UTC().Format("20060102-150405")
	if q.part == exportfmt.PartItems {
		name = "items-" + c.now.UTC().Format("20060102-150405")
	}
	h.Set("Content-Disposition", `attachment; filename="`+name+ext+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set(HeaderTotalCount, strconv.Itoa(total))
	h.Set("Trailer", TrailerExportErr+", "+TrailerExportRows)
	c.w.WriteHeader(http.StatusOK)

	rows, err := s.streamExport(ctx, c, q, ids)
	h.Set(TrailerExportRows, strconv.Itoa(rows))
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			s.logInternal(c.r, fmt.Errorf("export after %d rows: %w", rows, err))
		}
		h.Set(TrailerExportErr, exportErrorText(err))
	}
	return nil
}

// exportErrorText is what the trailer says about a failure: the kind and
// message of a rule error, nothing of the server's insides otherwise.
func exportErrorText(err error) string {
	var e *app.Error
	if errors.As(err, &e) && e.Kind != app.KindInternal {
		return string(e.Kind) + ": " + e.Message
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "canceled"
	}
	return string(app.KindInternal) + ": the export stopped on a server error; it has been logged"
}

// streamExport writes the export's rows batch by batch and returns how
// many it wrote.
func (s *Server) streamExport(ctx context.Context, c *call, q exportQuery, ids []int64) (int, error) {
	opts := c.viewOptions()
	m := q.list.Matcher()
	var buf bytes.Buffer
	out := exportfmt.New(&buf, q.format, q.part)
	flusher, _ := c.w.(http.Flusher)
	if flusher == nil {
		flusher = flushFunc(func() { http.NewResponseController(c.w).Flush() })
	}
	rows := 0
	for start := 0; start < len(ids) || start == 0; start += exportBatch {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		batch := ids[start:min(start+exportBatch, len(ids))]
		err := s.st.View(ctx, c.account.ID, func(tx store.Tx) error {
			for _, id := range batch {
				p, err := tx.ProposalUncached(id)
				if errors.Is(err, store.ErrNotFound) || app.KindOf(err) == app.KindNotFound {
					continue // gone since the IDs were listed
				}
				if err != nil {
					return err
				}
				e := app.EntryOf(p)
				if !m.Match(&e) {
					continue
				}
				d := app.DetailView(p, opts)
				n, err := out.Write(&d)
				rows += n
				if err != nil {
					return err
				}
			}
			return out.Flush()
		})
		if err != nil {
			return rows, err
		}
		// The transaction is over; now the network.
		if buf.Len() > 0 {
			if _, err := c.w.Write(buf.Bytes()); err != nil {
				return rows, err
			}
			buf.Reset()
			flusher.Flush()
		}
		if len(ids) == 0 {
			break
		}
	}
	return rows, nil
}

type flushFunc func()

func (f flushFunc) Flush() { f() }

// documentKind reads the Kind parameter of a document request.
func documentKind(values url.Values) (string, error) {
	var kind string
	for k, vs := range values {
		if strings.EqualFold(k, "Kind") && len(vs) > 0 {
			kind = strings.ToLower(strings.TrimSpace(vs[0]))
		}
	}
	switch kind {
	case "", "client":
		return "client", nil
	case "installer":
		return kind, nil
	}
	return "", app.Invalid("Kind", "must be client or installer, not %q", kind)
}

// GET /public/proposals/{ProposalId}/document (extension)
func (s *Server) proposalDocument(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	kind, err := documentKind(c.r.URL.Query())
	if err != nil {
		return err
	}
	var doc report.Document
	var modified time.Time
	err = s.st.View(c.r.Context(), c.account.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		d := app.DetailView(p, c.viewOptions())
		doc, modified = report.FromProposal(&d), p.LastModifiedDate.Time
		return nil
	})
	if err != nil {
		return err
	}
	return s.writeDocument(c, &doc, kind, fmt.Sprintf("proposal-%d-%s.pdf", doc.Number, kind), modified)
}

// GET /public/proposals/{ProposalId}/changeorders/{ChangeOrderId}/document (extension)
func (s *Server) changeOrderDocument(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	coID, err := c.pathID("ChangeOrderId")
	if err != nil {
		return err
	}
	kind, err := documentKind(c.r.URL.Query())
	if err != nil {
		return err
	}
	var doc report.Document
	var modified time.Time
	err = s.st.View(c.r.Context(), c.account.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		co, err := p.ChangeOrder(coID)
		if err != nil {
			return err
		}
		d := app.ChangeOrderDetailView(co, c.viewOptions())
		doc, modified = report.FromChangeOrder(&d, p.Number), co.LastModifiedDate.Time
		return nil
	})
	if err != nil {
		return err
	}
	return s.writeDocument(c, &doc, kind, fmt.Sprintf("proposal-%d-change-order-%d-%s.pdf", doc.Parent, doc.Number, kind), modified)
}

// writeDocument renders the PDF (outside any transaction) and sends it.
func (s *Server) writeDocument(c *call, doc *report.Document, kind, filename string, modified time.Time) error {
	var buf bytes.Buffer
	render := report.Client
	if kind == "installer" {
		render = report.Installer
	}
	if err := render(&buf, doc, report.Options{}); err != nil {
		return err
	}
	return writePDF(c, buf.Bytes(), filename, modified)
}

// writePDF sends a rendered PDF as an attachment.
func writePDF(c *call, pdf []byte, filename string, modified time.Time) error {
	h := c.w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if !modified.IsZero() {
		h.Set("Last-Modified", modified.UTC().Format(http.TimeFormat))
	}
	h.Set("Content-Length", strconv.Itoa(len(pdf)))
	c.w.WriteHeader(http.StatusOK)
	_, err := c.w.Write(pdf)
	if err != nil {
		return nil // the client went away; nothing more to send
	}
	return nil
}
