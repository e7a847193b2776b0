package load

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name         string
		status       int
		body         string
		err          error
		kind, sample string
	}{
		{"ok", 200, `{"id":1}`, nil, "", ""},
		{"no content", 204, ``, nil, "", ""},
		{"contract error", 409, `{"errorCode":"ProposalLocked","message":"Proposal 3 is Accepted."}`, nil,
			"HTTP 409", "ProposalLocked: Proposal 3 is Accepted."},
		{"proxy page", 502, `<html>Bad gateway</html>`, nil, "HTTP 502", "<html>Bad gateway</html>"},
		{"transport", 0, ``, errors.New("connection refused"), "transport", "connection refused"},
		{"bad response", 200, `{}`, fmt.Errorf("create proposal: %w", errBadResponse), "bad response", "create proposal: bad response"},
	} {
		kind, sample := classify(c.status, []byte(c.body), c.err)
		if kind != c.kind || sample != c.sample {
			t.Errorf("%s: %q %q, want %q %q", c.name, kind, sample, c.kind, c.sample)
		}
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for p, want := range map[int]time.Duration{50: 50, 90: 90, 99: 99, 100: 100, 1: 1} {
		if got := percentile(d, p); got != want {
			t.Errorf("p%d = %d, want %d", p, got, want)
		}
	}
	if percentile(nil, 50) != 0 || percentile(d[:1], 99) != 1 {
		t.Error("edge cases")
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:8080", "http://localhost:1", "https://[::1]:443", "http://127.9.9.9"} {
		if err := CheckLoopback(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1", "https://example.com", "not a url", "http://192.168.1.1:80"} {
		if err := CheckLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := Run(context.Background(), Config{BaseURL: "http://example.com", Scenario: ScenarioGet}); err == nil {
		t.Error("Run accepted a remote URL")
	}
}

// TestRunAgainstServer runs every scenario briefly against a real
// in-process server on loopback with the demo data.
func TestRunAgainstServer(t *testing.T) {
	srv, creds := startDemoServer(t)
	sales, ok := creds.User(demo.MainAccountName, app.RoleSales, true)
	if !ok {
		t.Fatal("no sales user")
	}
	for _, sc := range []struct {
		name string
		d    time.Duration
	}{{ScenarioMixed, time.Second}, {ScenarioGet, 300 * time.Millisecond}, {ScenarioList, 300 * time.Millisecond}, {ScenarioCreateArea, 300 * time.Millisecond}, {ScenarioCatalog, 300 * time.Millisecond}} {
		res, err := Run(context.Background(), Config{
			BaseURL: srv.URL, AppID: creds.AppID, AppSecret: creds.AppSecret,
			User: sales.Email, Password: sales.Password, Clients: 4, Duration: sc.d, Scenario: sc.name,
			AreasPerProposal: 5,
		})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		t.Logf("\n%s", res)
		if res.Requests < 1 {
			t.Errorf("%s: only %d requests", sc.name, res.Requests)
		}
		if res.Errors != 0 || len(res.ErrorSamples) != 0 {
			t.Errorf("%s: %d errors: %v %v", sc.name, res.Errors, res.ErrorKinds, res.ErrorSamples)
		}
		if !(0 < res.P50 && res.P50 <= res.P90 && res.P90 <= res.P99 && res.P99 <= res.Max) {
			t.Errorf("%s: percentiles out of order: %s", sc.name, res)
		}
	}
}

// TestRunRecordsServerErrors has a Viewer, who may not create proposals,
// run create-area: every request is refused, and the report counts them
// and says why.
func TestRunRecordsServerErrors(t *testing.T) {
	srv, creds := startDemoServer(t)
	viewer, ok := creds.User(demo.MainAccountName, app.RoleViewer, true)
	if !ok {
		t.Fatal("no viewer")
	}
	res, err := Run(context.Background(), Config{
		BaseURL: srv.URL, AppID: creds.AppID, AppSecret: creds.AppSecret,
		User: viewer.Email, Password: viewer.Password, Clients: 2, Duration: time.Second,
		Scenario: ScenarioCreateArea,
	})
	if err != nil {
		t.Fatal(err)
	}
	kind := fmt.Sprintf("HTTP %d", http.StatusForbidden)
	if res.Requests == 0 || res.Errors != res.Requests || res.ErrorKinds[kind] != res.Requests {
		t.Fatalf("%d requests, %d errors %v; want every one %s", res.Requests, res.Errors, res.ErrorKinds, kind)
	}
	if got := res.ErrorSamples[kind]; !strings.HasPrefix(got, string(app.KindPermissionDenied)+": ") {
		t.Errorf("sample of %s = %q, want the server's PermissionDenied message", kind, got)
	}
	if !strings.Contains(res.String(), "first "+kind+": "+res.ErrorSamples[kind]) {
		t.Errorf("the report does not show the sample:\n%s", res)
	}
}

// TestWarmupIsNotCounted runs clients for a warm-up before the measured
// part: the server answers more requests than the run reports, and the
// rate is over the measured part only.
func TestWarmupIsNotCounted(t *testing.T) {
	var served atomic.Int64
	srv, creds := startDemoServer(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			served.Add(1)
			h.ServeHTTP(w, r)
		})
	})
	sales, _ := creds.User(demo.MainAccountName, app.RoleSales, true)
	const warmup, measured = 600 * time.Millisecond, 300 * time.Millisecond
	res, err := Run(context.Background(), Config{
		BaseURL: srv.URL, AppID: creds.AppID, AppSecret: creds.AppSecret,
		User: sales.Email, Password: sales.Password, Clients: 2, Duration: measured, Warmup: warmup,
		Scenario: ScenarioList,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Besides the run's: the key exchange before it.
	if n := served.Load() - 1; res.Requests < 1 || int64(res.Requests) >= n {
		t.Errorf("the run reports %d requests of the %d served; want the warm-up's left out", res.Requests, n)
	}
	if res.Elapsed < measured || res.Elapsed >= warmup+measured {
		t.Errorf("elapsed %v; want the measured %v and not the warm-up", res.Elapsed, measured)
	}
	if want := float64(res.Requests) / res.Elapsed.Seconds(); res.Throughput != want {
		t.Errorf("throughput %.1f, want %.1f", res.Throughput, want)
	}
}

// startDemoServer is a real in-process server on loopback with the demo
// data, closed when the test ends; wrap, if given, goes around the API.
func startDemoServer(t *testing.T, wrap ...func(http.Handler) http.Handler) (*httptest.Server, demo.Credentials) {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "load.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	creds, err := demo.Seed(context.Background(), st, demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = apiserver.New(apiserver.Config{Logger: slog.New(slog.DiscardHandler)}, st)
	for _, w := range wrap {
		h = w(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, creds
}
