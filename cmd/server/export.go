package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	gosync "sync"
	"time"

	"proposaldesk/app"
	"proposaldesk/sync/apiclient"
)

const exportSynopsis = `export --connection-file FILE --user EMAIL --format csv|json --out PATH [filters]
       export --connection-file FILE --user EMAIL --proposal ID [--change-order ID] --format client-pdf|installer-pdf --out FILE

Exports proposals from a running server through its API, signed in as an
Admin (only Admins may export), so it works while the server runs, whatever
its storage. The password comes from --password or, better, PD_PASSWORD.

  --format csv    two files in the folder PATH (created if missing):
                  proposals.csv (one row a proposal, every financial-summary
                  figure) and items.csv (one row an item of every option);
                  RFC 4180, UTF-8
  --format json   PATH is a JSON Lines file: each line one proposal's full
                  detail exactly as the API returns it ("-" writes to stdout)
  --format client-pdf | installer-pdf
                  one proposal's (or with --change-order, one change order's)
                  document as a PDF file

Filters (the proposal list's): --statuses, --modified-after, --archived,
--salesperson, --search. Files appear only complete. On a terminal the
progress is shown on stderr.`

type exportFlags struct {
	connFile, baseURL, user, password, format, out string
	proposal, changeOrder                          int64
	query                                          apiclient.ExportQuery
}

func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseExportFlags(args, stderr)
	if err != nil {
		return err
	}
	client, err := signIn(ctx, f)
	if err != nil {
		return err
	}
	switch f.format {
	case "client-pdf", "installer-pdf":
		return exportPDF(ctx, client, f, stdout)
	case "json":
		return exportJSONLines(ctx, client, f, stdout, stderr)
	default:
		return exportCSV(ctx, client, f, stdout, stderr)
	}
}

// parseExportFlags reads export's flags, checks those that go together
// and turns the filters into the export's query.
func parseExportFlags(args []string, stderr io.Writer) (exportFlags, error) {
	var f exportFlags
	var statuses, modifiedAfter string
	q := &f.query
	fs := newFlags("export", exportSynopsis, stderr)
	fs.StringVar(&f.connFile, "connection-file", "", "`file` with {baseUrl, appId, appSecret} (a demo.json or an \"apps create --out\" file)")
	fs.StringVar(&f.baseURL, "url", "", "server base `URL` (default: the connection file's baseUrl)")
	fs.StringVar(&f.user, "user", "", "an Admin user's `email`")
	fs.StringVar(&f.password, "password", "", "the user's password (prefer PD_PASSWORD)")
	fs.StringVar(&f.format, "format", "", "csv, json, client-pdf or installer-pdf")
	fs.StringVar(&f.out, "out", "", "output `path`: a folder for csv, a file otherwise")
	fs.StringVar(&statuses, "statuses", "", "only these `statuses`, comma-separated (e.g. Draft,Accepted)")
	fs.StringVar(&modifiedAfter, "modified-after", "", "only proposals modified after this ISO 8601 `time` (or date)")
	fs.BoolVar(&q.Archived, "archived", false, "export archived proposals (instead of the others)")
	fs.Int64Var(&q.SalesPersonID, "salesperson", 0, "only this salesperson's proposals (user `ID`)")
	fs.StringVar(&q.SearchText, "search", "", "only proposals matching this search `text`")
	fs.Int64Var(&f.proposal, "proposal", 0, "proposal `ID` of a PDF document")
	fs.Int64Var(&f.changeOrder, "change-order", 0, "change order `ID` (of --proposal) of a PDF document")
	if err := parse(fs, args); err != nil {
		return f, err
	}
	if f.connFile == "" || f.user == "" || f.password == "" || f.format == "" || f.out == "" {
		fmt.Fprintln(stderr, "export: --connection-file, --user, --password (or PD_PASSWORD), --format and --out are required")
		fs.Usage()
		return f, errUsage
	}
	pdf := f.format == "client-pdf" || f.format == "installer-pdf"
	switch {
	case f.format != "csv" && f.format != "json" && !pdf:
		fmt.Fprintf(stderr, "export: --format must be csv, json, client-pdf or installer-pdf, not %q\n", f.format)
		return f, errUsage
	case pdf && f.proposal == 0:
		fmt.Fprintln(stderr, "export: a PDF needs --proposal ID")
		return f, errUsage
	case !pdf && (f.proposal != 0 || f.changeOrder != 0):
		fmt.Fprintln(stderr, "export: --proposal and --change-order go with --format client-pdf or installer-pdf")
		return f, errUsage
	}
	for _, s := range strings.Split(statuses, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		st, err := app.ParseStatus(strings.TrimSpace(s))
		if err != nil {
			return f, fmt.Errorf("--statuses: %w", err)
		}
		q.Statuses = append(q.Statuses, st)
	}
	if modifiedAfter != "" {
		t, err := app.ParseTime(modifiedAfter)
		if err != nil {
			return f, fmt.Errorf("--modified-after: %w", err)
		}
		q.ModifiedAfter = t.Time
	}
	return f, nil
}

// signIn makes an API client from the connection file and signs in.
func signIn(ctx context.Context, f exportFlags) (*apiclient.Client, error) {
	conn, err := apiclient.LoadConnection(f.connFile)
	if err != nil {
		return nil, err
	}
	if f.baseURL != "" {
		conn.BaseURL = f.baseURL
	}
	client, err := apiclient.NewClient(conn, apiclient.WithUserAgent("ProposalDesk-CLI"), apiclient.WithTimeout(5*time.Minute))
	if err != nil {
		return nil, err
	}
	if _, err := client.Exchange(ctx, f.user, f.password); err != nil {
		return nil, fmt.Errorf("sign in as %s: %s", f.user, apiclient.Explain(err))
	}
	return client, nil
}

func exportPDF(ctx context.Context, client *apiclient.Client, f exportFlags, stdout io.Writer) error {
	kind := strings.TrimSuffix(f.format, "-pdf")
	b, err := client.Document(ctx, f.proposal, f.changeOrder, kind)
	if err != nil {
		return explainExport(err)
	}
	if err := writeFileAtomic(f.out, b, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s PDF (%d bytes) written to %s\n", kind, len(b), f.out)
	return nil
}

func exportJSONLines(ctx context.Context, client *apiclient.Client, f exportFlags, stdout, stderr io.Writer) error {
	pr := newProgress(stderr)
	q := f.query
	q.Format = "jsonl"
	p, err := exportTo(ctx, client, q, f.out, stdout, pr.part(0))
	pr.done()
	if err != nil {
		return err
	}
	if f.out != "-" {
		fmt.Fprintf(stdout, "%s proposals written to %s\n", thousands(p.Proposals), f.out)
	}
	return nil
}

// exportCSV writes proposals.csv and items.csv into the folder f.out.
func exportCSV(ctx context.Context, client *apiclient.Client, f exportFlags, stdout, stderr io.Writer) error {
	q := f.query
	q.Format = "csv"
	if err := os.MkdirAll(f.out, 0o700); err != nil {
		return err
	}
	// The two files are two requests; running them side by side halves
	// the wall time (the server decodes every proposal for each).
	parts := []struct {
		part, file string
		res        apiclient.ExportProgress
		err        error
	}{{part: "proposals", file: "proposals.csv"}, {part: "items", file: "items.csv"}}
	pr := newProgress(stderr)
	pr.parts = len(parts)
	var wg gosync.WaitGroup
	for i := range parts {
		wg.Go(func() {
			pq := q
			pq.Part = parts[i].part
			parts[i].res, parts[i].err = exportTo(ctx, client, pq, filepath.Join(f.out, parts[i].file), stdout, pr.part(i))
		})
	}
	wg.Wait()
	pr.done()
	if err := errors.Join(parts[0].err, parts[1].err); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s proposals and %s line items written to %s and %s\n",
		thousands(parts[0].res.Rows), thousands(parts[1].res.Rows),
		filepath.Join(f.out, "proposals.csv"), filepath.Join(f.out, "items.csv"))
	return nil
}

// exportTo streams one export part into path ("-": stdout), through a
// temporary file renamed into place only when complete.
func exportTo(ctx context.Context, c *apiclient.Client, q apiclient.ExportQuery, path string, stdout io.Writer, update func(apiclient.ExportProgress)) (apiclient.ExportProgress, error) {
	if path == "-" {
		p, err := c.Export(ctx, q, stdout, update)
		return p, explainExport(err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return apiclient.ExportProgress{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := tmp.Chmod(0o600); err != nil {
		return apiclient.ExportProgress{}, err
	}
	p, err := c.Export(ctx, q, tmp, update)
	if err != nil {
		return p, explainExport(err)
	}
	if err := tmp.Sync(); err != nil {
		return p, err
	}
	if err := tmp.Close(); err != nil {
		return p, err
	}
	return p, os.Rename(tmp.Name(), path)
}

func explainExport(err error) error {
	if err == nil {
		return nil
	}
	var apiErr *apiclient.APIError
	if errors.As(err, &apiErr) {
		if apiErr.Kind() == app.KindPermissionDenied {
			return fmt.Errorf("only Admin users may export: %s", apiErr.Err.Message)
		}
		msg := string(apiErr.Kind()) + ": " + apiErr.Err.Message
		for _, f := range apiErr.Err.Fields {
			msg += fmt.Sprintf(" (%s: %s)", f.Field, f.Message)
		}
		return errors.New(msg)
	}
	return err
}

// progress shows "Exported 1,234 of 10,000 proposals" on one updating
// line when stderr is a terminal, and nothing otherwise. With several
// parts exporting at once it counts the slowest.
type progress struct {
	w     io.Writer
	on    bool
	parts int

	mu    gosync.Mutex
	seen  []apiclient.ExportProgress
	shown bool
}

func newProgress(stderr io.Writer) *progress {
	p := &progress{w: stderr, parts: 1}
	if f, ok := stderr.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

// part is the update function of part i.
func (p *progress) part(i int) func(apiclient.ExportProgress) {
	return func(e apiclient.ExportProgress) {
		if !p.on {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.seen) < p.parts {
			p.seen = make([]apiclient.ExportProgress, p.parts)
			for j := range p.seen {
				p.seen[j].Total = -1
			}
		}
		p.seen[i] = e
		slowest := p.seen[0]
		for _, s := range p.seen[1:] {
			if s.Proposals < slowest.Proposals {
				slowest = s
			}
		}
		line := "Exported " + thousands(slowest.Proposals)
		if e.Total >= 0 {
			line += " of " + thousands(e.Total)
		}
		fmt.Fprintf(p.w, "\r%s proposals\x1b[K", line)
		p.shown = true
	}
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

// thousands formats n with thousands separators: 10000 → "10,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
