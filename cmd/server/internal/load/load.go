// Package load is the `server load` command: a closed-loop load generator
// that signs its requests as a real client does. N clients each send one
// request at a time for a fixed duration over keep-alive connections; the
// result is throughput, latency percentiles and error counts.
package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"proposaldesk/app/signing"
)

// Scenarios the generator knows.
const (
	ScenarioGet        = "get"         // GET a random proposal of the first pages
	ScenarioList       = "list"        // GET the list with a text search
	ScenarioCreateArea = "create-area" // POST an area to the client's own proposal
	ScenarioMixed      = "mixed"       // 70% get, 20% list, 10% create-area
	ScenarioCatalog    = "catalog"     // GET the catalog search as a picker types (catalog.go)
	// ScenarioFailedSignIn: key exchanges with wrong passwords (signin.go)
	ScenarioFailedSignIn = "failed-signin"
	// ScenarioBigText is the abuse of one account that others must not
	// feel: items with the longest texts added to its own proposal, and
	// every tenth request a copy of it.
	ScenarioBigText = "big-text"
)

// Scenarios lists the valid scenario names.
var Scenarios = []string{ScenarioGet, ScenarioList, ScenarioCreateArea, ScenarioMixed, ScenarioCatalog, ScenarioFailedSignIn, ScenarioBigText, ScenarioClientPage}

// Config is one load run.
type Config struct {
	BaseURL   string // e.g. http://127.0.0.1:8080
	AppID     string
	AppSecret string
	User      string // email
	Password  string
	Clients   int
	Duration  time.Duration
	Scenario  string
	// SearchText is the list scenario's SearchText (default "residence").
	SearchText string
	// AllowRemote permits a base URL that is not loopback. Off by
	// default: a load run is a small denial of service.
	AllowRemote bool
	// AreasPerProposal bounds how large a create-area proposal grows
	// before the client starts a new one (default 40).
	AreasPerProposal int
	// Warmup is how long the clients run before the measured Duration
	// starts; their requests meanwhile are not counted. It lets a server
	// fill what it keeps warm (a replica's list index, caches, pooled
	// connections) as one that has been running for a while has.
	Warmup time.Duration
}

// Result is what a run measured.
type Result struct {
	Scenario   string         `json:"scenario"`
	Clients    int            `json:"clients"`
	Elapsed    time.Duration  `json:"elapsed"`
	Requests   int            `json:"requests"`
	Errors     int            `json:"errors"`
	ErrorKinds map[string]int `json:"errorKinds"` // "HTTP 409", "transport", "bad response"
	// ErrorSamples holds the first error of each kind (the server's
	// errorCode and message, or the transport error), so a run that
	// failed says why.
	ErrorSamples map[string]string `json:"errorSamples"`
	Throughput   float64           `json:"throughput"` // successful+failed requests per second
	P50          time.Duration     `json:"p50"`
	P90          time.Duration     `json:"p90"`
	P99          time.Duration     `json:"p99"`
	Max          time.Duration     `json:"max"`
}

// String is the human report.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %s, %d clients, %s\n", r.Scenario, r.Clients, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(&b, "requests  %d (%.1f/s)\n", r.Requests, r.Throughput)
	fmt.Fprintf(&b, "latency   p50 %s  p90 %s  p99 %s  max %s\n", ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	fmt.Fprintf(&b, "errors    %d", r.Errors)
	keys := make([]string, 0, len(r.ErrorKinds))
	for k := range r.ErrorKinds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %d", k, r.ErrorKinds[k])
	}
	b.WriteByte('\n')
	for _, k := range keys {
		if sample := r.ErrorSamples[k]; sample != "" {
			fmt.Fprintf(&b, "  first %s: %s\n", k, sample)
		}
	}
	return b.String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }

// client is the signing HTTP client shared by the workers.
type client struct {
	base    string
	appID   string
	secret  string
	userKey string
	hc      *http.Client
}

// do sends a signed request and returns the status and body.
func (c *client) do(ctx context.Context, method, pathAndQuery string, body any) (int, []byte, error) {
	var buf bytes.Buffer
	status, err := c.send(ctx, method, pathAndQuery, body, &buf)
	return status, buf.Bytes(), err
}

// send sends a signed request and reads the answer's body into buf,
// which the workers reuse: a fresh body per request was a fifth of the
// generator's CPU and most of its garbage.
func (c *client) send(ctx context.Context, method, pathAndQuery string, body any, buf *bytes.Buffer) (int, error) {
	status, _, err := c.sendAs(ctx, c.userKey, nil, method, pathAndQuery, body, buf)
	return status, err
}

// doHeader is a GET signed with the client's key that returns the
// answer's headers too.
func (c *client) doHeader(ctx context.Context, pathAndQuery string) (int, http.Header, []byte, error) {
	var buf bytes.Buffer
	status, h, err := c.sendAs(ctx, c.userKey, nil, http.MethodGet, pathAndQuery, nil, &buf)
	return status, h, buf.Bytes(), err
}

// sendAs is send signed with userKey, with extra headers, returning the
// answer's headers too.
func (c *client) sendAs(ctx context.Context, userKey string, extra http.Header, method, pathAndQuery string, body any, buf *bytes.Buffer) (int, http.Header, error) {
	buf.Reset()
	u := c.base + pathAndQuery
	var rd io.Reader
	ct := ""
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
		ct = "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	for k, v := range (signing.Request{Method: method, URL: u, ContentType: ct, AppID: c.appID,
		Secret: c.secret, UserKey: userKey, Now: time.Now()}).Headers() {
		req.Header.Set(k, v)
	}
	for k, vs := range extra {
		req.Header[k] = vs
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	_, err = buf.ReadFrom(resp.Body)
	return resp.StatusCode, resp.Header, err
}

// CheckLoopback refuses a base URL whose host is not a loopback address.
func CheckLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return fmt.Errorf("load: %q is not an absolute URL", base)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("load: %s is not a loopback address; pass --allow-remote to load a remote server", host)
	}
	return nil
}

// Exchange performs the key exchange and returns the user API key and
// the user's ID. A server busy checking other sign-ins (another load
// run's) answers 429 with Retry-After: Exchange waits as it asks, a few
// times.
func Exchange(ctx context.Context, hc *http.Client, base, appID, secret, user, password string) (key string, userID int64, err error) {
	return exchange(ctx, hc, base, appID, secret, user, password, 10)
}

// ExchangeOnce is Exchange without waiting out a 429: a test of the
// sign-in limits sees each answer.
func ExchangeOnce(ctx context.Context, hc *http.Client, base, appID, secret, user, password string) (key string, userID int64, err error) {
	return exchange(ctx, hc, base, appID, secret, user, password, 1)
}

func exchange(ctx context.Context, hc *http.Client, base, appID, secret, user, password string, tries int) (key string, userID int64, err error) {
	c := &client{base: strings.TrimRight(base, "/"), appID: appID, secret: secret, hc: hc}
	q := url.Values{"UserName": {user}, "Password": {password}}
	var status int
	var body []byte
	for attempt := 1; ; attempt++ {
		var hdr http.Header
		status, hdr, body, err = c.doHeader(ctx, "/authenticate/apikeyexchange?"+q.Encode())
		if err != nil {
			return "", 0, fmt.Errorf("key exchange: %w", err)
		}
		if status != http.StatusTooManyRequests || attempt >= tries {
			break
		}
		secs, _ := strconv.Atoi(hdr.Get("Retry-After"))
		select {
		case <-time.After(time.Duration(min(max(secs, 1), 5)) * time.Second):
		case <-ctx.Done():
			return "", 0, fmt.Errorf("key exchange: %w", ctx.Err())
		}
	}
	if status != http.StatusOK {
		return "", 0, fmt.Errorf("key exchange: HTTP %d: %s", status, truncate(body))
	}
	var resp struct {
		UserID string            `json:"userId"`
		Meta   map[string]string `json:"meta"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return "", 0, fmt.Errorf("key exchange: %w", err)
	}
	key = resp.Meta["apiKey"]
	if key == "" {
		return "", 0, errors.New("key exchange: no meta.apiKey in the response")
	}
	userID, _ = strconv.ParseInt(resp.UserID, 10, 64)
	return key, userID, nil
}

func truncate(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// Run runs the load and returns what it measured.
func Run(ctx context.Context, cfg Config) (Result, error) {
	cfg, err := cfg.checked()
	if err != nil {
		return Result{}, err
	}
	tr := newTransport(cfg.Clients)
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	key, userID, err := Exchange(ctx, hc, cfg.BaseURL, cfg.AppID, cfg.AppSecret, cfg.User, cfg.Password)
	if err != nil {
		return Result{}, err
	}
	c := &client{base: strings.TrimRight(cfg.BaseURL, "/"), appID: cfg.AppID, secret: cfg.AppSecret, userKey: key, hc: hc}
	ids, err := prepare(ctx, c, cfg.Scenario)
	if err != nil {
		return Result{}, err
	}
	var links []string // the client-page scenario's, one per client
	if cfg.Scenario == ScenarioClientPage {
		if links, err = clientLinks(ctx, c, ids, cfg.Clients); err != nil {
			return Result{}, err
		}
	}
	start := time.Now().Add(cfg.Warmup) // of the measured part
	results := runWorkers(ctx, worker{c: c, cfg: &cfg, ids: ids, userID: userID}, links, start)
	return summarize(cfg, results, time.Since(start)), nil
}

// checked is cfg with its defaults filled in, or an error for a scenario
// it does not know or (unless allowed) a server not on this machine.
func (cfg Config) checked() (Config, error) {
	if cfg.Clients <= 0 {
		cfg.Clients = 1
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.SearchText == "" {
		cfg.SearchText = "residence"
	}
	if cfg.AreasPerProposal <= 0 {
		cfg.AreasPerProposal = 40
	}
	if !slices.Contains(Scenarios, cfg.Scenario) {
		return cfg, fmt.Errorf("load: unknown scenario %q (one of %s)", cfg.Scenario, strings.Join(Scenarios, ", "))
	}
	if !cfg.AllowRemote {
		if err := CheckLoopback(cfg.BaseURL); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// newTransport is the clients' shared connection pool.
func newTransport(clients int) *http.Transport {
	return &http.Transport{
		Proxy:               nil, // never send load through a proxy
		MaxIdleConns:        clients * 2,
		MaxIdleConnsPerHost: clients,
		IdleConnTimeout:     90 * time.Second,
		// A list page is about 16 KB: read it in one system call
		// rather than 4 KB at a time.
		ReadBufferSize: 64 << 10,
		DialContext:    (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	}
}

// prepare readies the server for the scenario: the proposal IDs the
// get, mixed and client-page scenarios read (nil for the others), a warm
// catalog for the catalog scenario.
func prepare(ctx context.Context, c *client, scenario string) ([]int64, error) {
	switch scenario {
	case ScenarioGet, ScenarioMixed, ScenarioClientPage:
		return proposalIDs(ctx, c)
	case ScenarioCatalog:
		return nil, warmCatalog(ctx, c)
	}
	return nil, nil
}

// workerResult is what one client measured.
type workerResult struct {
	lat     []time.Duration
	errors  map[string]int
	samples map[string]string // the first error of each kind
}

// runWorkers runs cfg.Clients workers, each a copy of proto with its own
// number, random source and (client-page) link, until the measured part that begins at start
// has lasted cfg.Duration; requests before start warm up and are not
// counted.
func runWorkers(ctx context.Context, proto worker, links []string, start time.Time) []workerResult {
	cfg := proto.cfg
	results := make([]workerResult, cfg.Clients)
	runCtx, cancel := context.WithTimeout(ctx, cfg.Warmup+cfg.Duration)
	defer cancel()
	deadline := start.Add(cfg.Duration)
	var wg sync.WaitGroup
	for w := range cfg.Clients {
		wg.Go(func() {
			res := &results[w]
			res.errors, res.samples = map[string]int{}, map[string]string{}
			wk := proto
			wk.id, wk.r = w, rand.New(rand.NewPCG(uint64(w), uint64(start.UnixNano())))
			if links != nil {
				wk.link = links[w]
			}
			for time.Now().Before(deadline) {
				t0 := time.Now()
				status, body, err := wk.one(runCtx)
				d := time.Since(t0)
				if runCtx.Err() != nil && err != nil {
					break // cut off by the end of the run: not a server error
				}
				if t0.Before(start) {
					continue // warming up
				}
				res.record(d, status, body, err)
			}
		})
	}
	wg.Wait()
	return results
}

// record notes one measured request.
func (res *workerResult) record(d time.Duration, status int, body []byte, err error) {
	res.lat = append(res.lat, d)
	if kind, sample := classify(status, body, err); kind != "" {
		res.errors[kind]++
		if _, seen := res.samples[kind]; !seen {
			res.samples[kind] = sample
		}
	}
}

// summarize adds the workers' measurements up over elapsed.
func summarize(cfg Config, results []workerResult, elapsed time.Duration) Result {
	out := Result{Scenario: cfg.Scenario, Clients: cfg.Clients, Elapsed: elapsed,
		ErrorKinds: map[string]int{}, ErrorSamples: map[string]string{}}
	var all []time.Duration
	for _, res := range results {
		all = append(all, res.lat...)
		for k, v := range res.errors {
			out.ErrorKinds[k] += v
			out.Errors += v
			if _, seen := out.ErrorSamples[k]; !seen {
				out.ErrorSamples[k] = res.samples[k]
			}
		}
	}
	out.Requests = len(all)
	out.Throughput = float64(out.Requests) / elapsed.Seconds()
	slices.Sort(all)
	out.P50, out.P90, out.P99 = percentile(all, 50), percentile(all, 90), percentile(all, 99)
	if len(all) > 0 {
		out.Max = all[len(all)-1]
	}
	return out
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(0, min(len(sorted)-1, rank-1))]
}

// proposalIDs collects up to 1,000 proposal IDs (five pages of 200) for
// the get scenario.
func proposalIDs(ctx context.Context, c *client) ([]int64, error) {
	var ids []int64
	for page := 1; page <= 5; page++ {
		status, body, err := c.do(ctx, http.MethodGet, fmt.Sprintf("/public/proposals?PageSize=200&PageNumber=%d", page), nil)
		if err != nil {
			return nil, fmt.Errorf("list proposals: %w", err)
		}
		if status != http.StatusOK {
			return nil, fmt.Errorf("list proposals: HTTP %d: %s", status, truncate(body))
		}
		var resp struct {
			Proposals []struct {
				ID int64 `json:"id"`
			} `json:"proposals"`
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			return nil, fmt.Errorf("list proposals: %w", err)
		}
		for _, p := range resp.Proposals {
			ids = append(ids, p.ID)
		}
		if len(resp.Proposals) < 200 {
			break
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("load: the account has no proposals to get")
	}
	return ids, nil
}

// worker is one client's state.
type worker struct {
	c        *client
	cfg      *Config
	id       int
	r        *rand.Rand
	ids      []int64
	userID   int64
	proposal int64 // create-area: the proposal being filled
	option   int64 // big-text: the option being filled
	areas    int
	seq      int
	buf      bytes.Buffer // the last answer's body
	link     string       // client-page: the worker's client link
}

// do sends a signed request; the body returned is valid until the
// worker's next request.
func (w *worker) do(ctx context.Context, method, pathAndQuery string, body any) (int, []byte, error) {
	status, err := w.c.send(ctx, method, pathAndQuery, body, &w.buf)
	return status, w.buf.Bytes(), err
}

// errBadResponse marks a 2xx answer the worker could not use.
var errBadResponse = errors.New("bad response")

// classify is the error kind of one request and a sample of it for the
// report; "" when it succeeded.
func classify(status int, body []byte, err error) (kind, sample string) {
	switch {
	case errors.Is(err, errBadResponse):
		return "bad response", err.Error()
	case err != nil:
		return "transport", err.Error()
	case status < 200 || status > 299:
		var e struct {
			ErrorCode string `json:"errorCode"`
			Message   string `json:"message"`
		}
		if json.Unmarshal(body, &e) == nil && e.ErrorCode != "" {
			return fmt.Sprintf("HTTP %d", status), e.ErrorCode + ": " + e.Message
		}
		return fmt.Sprintf("HTTP %d", status), truncate(body)
	}
	return "", ""
}

// one sends one request of the scenario and returns the answer's status
// and body.
func (w *worker) one(ctx context.Context) (int, []byte, error) {
	switch w.cfg.Scenario {
	case ScenarioGet:
		return w.get(ctx)
	case ScenarioList:
		return w.list(ctx)
	case ScenarioCreateArea:
		return w.createArea(ctx)
	case ScenarioCatalog:
		return w.catalog(ctx)
	case ScenarioFailedSignIn:
		return w.failedSignIn(ctx)
	case ScenarioBigText:
		return w.bigText(ctx)
	case ScenarioClientPage:
		return w.clientPage(ctx)
	default:
		switch n := w.r.IntN(10); {
		case n < 7:
			return w.get(ctx)
		case n < 9:
			return w.list(ctx)
		default:
			return w.createArea(ctx)
		}
	}
}

func (w *worker) get(ctx context.Context) (int, []byte, error) {
	id := w.ids[w.r.IntN(len(w.ids))]
	return w.do(ctx, http.MethodGet, "/public/proposals/"+strconv.FormatInt(id, 10), nil)
}

func (w *worker) list(ctx context.Context) (int, []byte, error) {
	q := url.Values{"SearchText": {w.cfg.SearchText}, "PageNumber": {strconv.Itoa(1 + w.r.IntN(3))}}
	return w.do(ctx, http.MethodGet, "/public/proposals?"+q.Encode(), nil)
}

// bigTextBody is an item whose texts are as long as a field allows.
var bigTextBody = map[string]any{"ItemType": "Part", "Name": "Long", "Description": strings.Repeat("d", 100_000), "ClientNote": strings.Repeat("n", 100_000)}

// bigText adds a long item to the worker's own proposal, copies the
// proposal every tenth request, and starts a new proposal when the
// server refuses to grow this one.
func (w *worker) bigText(ctx context.Context) (int, []byte, error) {
	if w.option == 0 {
		status, body, err := w.createArea(ctx)
		if err != nil || status != http.StatusOK {
			return status, body, err
		}
		var d struct {
			Areas []struct {
				Options []struct {
					ID int64 `json:"id"`
				} `json:"options"`
			} `json:"areas"`
		}
		if err := json.Unmarshal(body, &d); err != nil || len(d.Areas) == 0 || len(d.Areas[0].Options) == 0 {
			return status, body, fmt.Errorf("create area: %w: %s", errBadResponse, truncate(body))
		}
		w.option = d.Areas[0].Options[0].ID
	}
	w.seq++
	p := "/public/proposals/" + strconv.FormatInt(w.proposal, 10)
	if w.seq%10 == 0 {
		return w.do(ctx, http.MethodPost, p+"/copy", map[string]any{})
	}
	status, body, err := w.do(ctx, http.MethodPost, p+"/area-options/"+strconv.FormatInt(w.option, 10)+"/items", bigTextBody)
	if status == http.StatusRequestEntityTooLarge {
		w.proposal, w.option = 0, 0
	}
	return status, body, err
}

// createArea adds an area to the worker's own proposal. When the current
// proposal is full (or at the start) it first creates a new one; that
// request's latency then includes the create, once every
// AreasPerProposal areas.
func (w *worker) createArea(ctx context.Context) (int, []byte, error) {
	if w.proposal == 0 || w.areas >= w.cfg.AreasPerProposal {
		name := fmt.Sprintf("Load test %d-%d", w.id, w.seq)
		status, body, err := w.do(ctx, http.MethodPost, "/public/proposals",
			map[string]any{"SalesPersonId": w.userID, "Name": name})
		if err != nil || status != http.StatusOK {
			return status, body, err
		}
		var p struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(body, &p); err != nil || p.ID == 0 {
			return status, body, fmt.Errorf("create proposal: %w: %s", errBadResponse, truncate(body))
		}
		w.proposal, w.areas = p.ID, 0
	}
	w.seq++
	w.areas++
	return w.do(ctx, http.MethodPost, "/public/proposals/"+strconv.FormatInt(w.proposal, 10)+"/area",
		map[string]any{"Name": fmt.Sprintf("Room %d-%d", w.id, w.seq)})
}
