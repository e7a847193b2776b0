package apiclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// Bulk export and documents: the Admin-only extensions
// GET /public/export/proposals and .../document.

// ExportQuery is a bulk export request: a format, for CSV the part, and
// the proposal list's filters.
type ExportQuery struct {
	// Format is "csv" or "jsonl".
	Format string
	// Part is "proposals" or "items" (CSV only; empty is proposals).
	Part          string
	SearchText    string
	Statuses      []app.Status
	ContactID     int64
	SalesPersonID int64
	ModifiedAfter time.Time
	// Archived exports only archived proposals (else only the others).
	Archived bool
}

// Values is the query string of the request.
func (q ExportQuery) Values() url.Values {
	v := url.Values{}
	v.Set("Format", q.Format)
	if q.Part != "" {
		v.Set("Part", q.Part)
	}
	if q.SearchText != "" {
		v.Set("SearchText", q.SearchText)
	}
	for _, s := range q.Statuses {
		v.Add("Statuses", string(s))
	}
	setID(v, "ContactId", q.ContactID)
	setID(v, "SalesPersonId", q.SalesPersonID)
	if !q.ModifiedAfter.IsZero() {
		v.Set("ModifiedAfter", q.ModifiedAfter.UTC().Format(app.TimeLayout))
	}
	if q.Archived {
		v.Set("IsArchive", "true")
	}
	return v
}

// ExportProgress is how far an export has come.
type ExportProgress struct {
	// Total is the number of matching proposals the server announced
	// (X-Total-Count); -1 when it did not.
	Total int
	// Proposals is how many proposals have arrived. In a line-items CSV
	// it counts proposals with at least one item.
	Proposals int
	// Rows is how many CSV rows (without the header) or JSON lines have
	// arrived.
	Rows  int
	Bytes int64
}

// ErrExportIncomplete is returned when an export ended early: the server
// reported an error after it had started sending, or fewer rows arrived
// than it wrote.
var ErrExportIncomplete = errors.New("export incomplete")

// Export streams a bulk export into w, calling progress (when not nil)
// as data arrives. The request is sent once (with one more try if the
// server refuses our clock); it is not retried part-way, since w has
// already received data. A complete export returns its final progress;
// one that ended early wraps ErrExportIncomplete.
func (c *Client) Export(ctx context.Context, q ExportQuery, w io.Writer, progress func(ExportProgress)) (ExportProgress, error) {
	reqURL, err := c.buildURL("/public/export/proposals", q.Values())
	if err != nil {
		return ExportProgress{}, err
	}
	resp, err := c.openStream(ctx, reqURL)
	if err != nil {
		return ExportProgress{}, err
	}
	defer resp.Body.Close()
	total := -1
	if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil {
		total = n
	}
	rc := &recordCounter{
		p:        ExportProgress{Total: total},
		csv:      !strings.EqualFold(q.Format, "jsonl") && !strings.EqualFold(q.Format, "json"),
		items:    strings.EqualFold(q.Part, "items"),
		progress: progress,
		inFirst:  true,
	}
	if progress != nil {
		progress(rc.p)
	}
	dst := &destWriter{w: w}
	_, err = io.Copy(dst, io.TeeReader(resp.Body, rc))
	rc.finish()
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return rc.p, fmt.Errorf("export: %w", ctxErr)
		}
		if dst.err != nil {
			return rc.p, dst.err // the destination's own failure (disk full)
		}
		return rc.p, fmt.Errorf("%w after %d rows: %w", ErrExportIncomplete, rc.p.Rows, classifyTransportError(http.MethodGet, reqURL, err))
	}
	if msg := resp.Trailer.Get("X-Export-Error"); msg != "" {
		return rc.p, fmt.Errorf("%w after %d rows: server: %s", ErrExportIncomplete, rc.p.Rows, msg)
	}
	if want := resp.Trailer.Get("X-Export-Count"); want != "" && want != strconv.Itoa(rc.p.Rows) {
		return rc.p, fmt.Errorf("%w: got %d rows, the server wrote %s", ErrExportIncomplete, rc.p.Rows, want)
	}
	if progress != nil {
		progress(rc.p)
	}
	return rc.p, nil
}

// destWriter remembers the destination's error, to tell it from a
// network error (io.Copy returns either).
type destWriter struct {
	w   io.Writer
	err error
}

func (d *destWriter) Write(b []byte) (int, error) {
	n, err := d.w.Write(b)
	if err != nil {
		d.err = err
	}
	return n, err
}

// Document downloads a proposal's PDF (changeOrderID 0) or a change
// order's; kind is "client" or "installer".
func (c *Client) Document(ctx context.Context, proposalID, changeOrderID int64, kind string) ([]byte, error) {
	path := ProposalPath(proposalID)
	if changeOrderID != 0 {
		path += "/changeorders/" + app.FormatID(changeOrderID)
	}
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: path + "/document", Query: url.Values{"Kind": {kind}}})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// openStream sends a signed GET whose body the caller reads as it
// arrives: no overall timeout, the context bounds it.
func (c *Client) openStream(ctx context.Context, reqURL string) (*http.Response, error) {
	hc := c.rc.GetClient()
	for retried := false; ; retried = true {
		sent := c.now()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, reqURL, nil)
		if err != nil {
			return nil, err
		}
		headers := signing.Request{
			Method: http.MethodGet, URL: reqURL, AppID: c.conn.AppID, Secret: c.conn.AppSecret,
			UserKey: c.UserKey(), Now: sent.Add(c.clock.offset()),
		}.Headers()
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		req.Header.Set("User-Agent", c.userAgent)
		resp, err := hc.Do(req)
		received := c.now()
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, fmt.Errorf("GET %s: %w", reqURL, ctxErr)
			}
			return nil, classifyTransportError(http.MethodGet, reqURL, err)
		}
		date := resp.Header.Get("Date")
		if resp.StatusCode == http.StatusOK {
			c.clock.observe(date, sent, received, false)
			return resp, nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		apiErr := decodeAPIError(http.MethodGet, reqURL, resp.StatusCode, resp.Header, body, received)
		if apiErr.Kind() == app.KindTimestampOutOfRange && !retried {
			c.clock.observe(date, sent, received, true)
			continue
		}
		c.clock.observe(date, sent, received, false)
		return nil, apiErr
	}
}

// recordCounter watches an export stream go by and counts its records:
// JSON lines, or CSV records (line breaks outside quotes; the first is
// the header). In a line-items CSV a new proposal starts where the first
// field (proposalId) changes.
type recordCounter struct {
	p        ExportProgress
	csv      bool
	items    bool
	progress func(ExportProgress)

	inQuote  bool
	records  int
	inFirst  bool
	first    []byte
	lastID   string
	lastCall time.Time
	dirty    bool
}

func (rc *recordCounter) Write(b []byte) (int, error) {
	rc.p.Bytes += int64(len(b))
	for _, ch := range b {
		if !rc.csv {
			if ch == '\n' {
				rc.p.Rows++
				rc.p.Proposals++
				rc.dirty = true
			}
			continue
		}
		switch {
		case ch == '"':
			rc.inQuote = !rc.inQuote
		case rc.inQuote:
		case ch == ',':
			rc.inFirst = false
		case ch == '\n':
			rc.endRecord()
			continue
		}
		if rc.inFirst && ch != '"' && ch != '\r' && len(rc.first) < 32 {
			rc.first = append(rc.first, ch)
		}
	}
	if rc.dirty && rc.progress != nil && time.Since(rc.lastCall) > 50*time.Millisecond {
		rc.progress(rc.p)
		rc.lastCall, rc.dirty = time.Now(), false
	}
	return len(b), nil
}

func (rc *recordCounter) endRecord() {
	if rc.records > 0 {
		rc.p.Rows++
		id := string(rc.first)
		if !rc.items || id != rc.lastID {
			rc.p.Proposals++
		}
		rc.lastID = id
		rc.dirty = true
	}
	rc.records++
	rc.first = rc.first[:0]
	rc.inFirst = true
}

func (rc *recordCounter) finish() {
	if rc.progress != nil && rc.dirty {
		rc.progress(rc.p)
	}
}
