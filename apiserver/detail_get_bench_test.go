package apiserver

import (
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"proposaldesk/app/signing"
	"proposaldesk/internal/procstat"
)

// BenchmarkUncachedDetailGet is a signed GET of the demo's typical
// proposal (the median by item count) with the render cache off: what
// opening a proposal costs the server the first time after it changed,
// reading, building and encoding its detail. Beside the wall time it
// reports the process's CPU time per GET (cpu-ns/op), which a loaded
// machine distorts less.
//
//	go test ./apiserver -run '^$' -bench UncachedDetailGet -count 5
func BenchmarkUncachedDetailGet(b *testing.B) {
	e, u := benchStore(b, 0)
	ps := demoBySize(b)
	s := New(Config{Logger: slog.New(slog.DiscardHandler)}, e.st)
	s.rendered = newRenderCache(0) // keeps nothing
	target := pathf("/public/proposals/%d", ps[len(ps)/2].ID)
	ts := signing.FormatDate(time.Now())
	sig := signing.Sign(e.app.Secret, signing.Message("GET", "http://example.test"+target, "", ts, u.key))
	b.ReportAllocs()
	cpu0 := procstat.CPU()
	for b.Loop() {
		req := httptest.NewRequest("GET", "http://example.test"+target, nil)
		req.Header.Set(signing.HeaderAppID, e.app.ID)
		req.Header.Set(signing.HeaderDate, ts)
		req.Header.Set(signing.HeaderUserKey, u.key)
		req.Header.Set(signing.HeaderSignature, sig)
		if w := serveInProcess(s, req); w.Code != 200 {
			b.Fatalf("%d %s", w.Code, w.Body.String())
		}
	}
	b.ReportMetric(float64(procstat.CPU()-cpu0)/float64(b.N), "cpu-ns/op")
}
