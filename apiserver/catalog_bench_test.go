package apiserver

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
	"proposaldesk/app/signing"
)

// BenchmarkSignedCatalogSearch100k is one signed catalog search (page of
// 10) over 100,000 items in process, for each kind of keystroke;
// compare with BenchmarkSignedGetProposal in the same run.
func BenchmarkSignedCatalogSearch100k(b *testing.B) {
	e := newEnv(b, func(c *Config) { c.Logger = discardLogger() })
	var buf bytes.Buffer
	catalogdemo.WriteCSV(&buf, catalogdemo.Generate(100_000))
	if rep, err := ImportCatalog(bg, e.st, e.main.acct.ID, app.CatalogMerge, &buf); err != nil || !rep.Applied {
		b.Fatal(err, rep.Rejected)
	}
	key := e.main.sales.key
	// The first search builds the index (measured by the boltstore
	// benchmarks); it is not what a request costs.
	e.get(e.main.sales, "/public/catalog")
	for _, text := range []string{"s", "so", "sonos", "sonos amp", "in-ceiling 8"} {
		target := "/public/catalog?" + url.Values{"SearchText": {text}}.Encode()
		b.Run(text, func(b *testing.B) {
			for b.Loop() {
				ts := signing.FormatDate(time.Now())
				req := httptest.NewRequest("GET", "http://example.test"+target, nil)
				req.Header.Set(signing.HeaderAppID, e.app.ID)
				req.Header.Set(signing.HeaderDate, ts)
				req.Header.Set(signing.HeaderUserKey, key)
				req.Header.Set(signing.HeaderSignature, signing.Sign(e.app.Secret, signing.Message("GET", "http://example.test"+target, "", ts, key)))
				if w := serveInProcess(e.s, req); w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body.String())
				}
			}
		})
	}
}

// BenchmarkImportCatalog100k checks and imports a 100,000-row CSV file
// (fsync on) from a fresh account: rows/s, and the peak heap above the
// start (sampled every 20 ms), which stays flat as the file grows
// (compare the 25,000-row case).
func BenchmarkImportCatalog100k(b *testing.B) {
	for _, n := range []int{25_000, 100_000} {
		var buf bytes.Buffer
		if err := catalogdemo.WriteCSV(&buf, catalogdemo.Generate(n)); err != nil {
			b.Fatal(err)
		}
		file := buf.Bytes()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				b.StopTimer()
				e := newEnv(b, func(c *Config) { c.Logger = discardLogger() })
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				stop := make(chan struct{})
				done := make(chan uint64)
				go func() {
					var top uint64
					tick := time.NewTicker(20 * time.Millisecond)
					defer tick.Stop()
					for {
						var m runtime.MemStats
						runtime.ReadMemStats(&m)
						top = max(top, m.HeapInuse)
						select {
						case <-stop:
							done <- top
							return
						case <-tick.C:
						}
					}
				}()
				b.StartTimer()
				rep, err := ImportCatalog(bg, e.st, e.main.acct.ID, app.CatalogReplace, bytes.NewReader(file))
				b.StopTimer()
				close(stop)
				if top := <-done; top > base {
					peak = max(peak, top-base)
				}
				if err != nil || !rep.Applied || rep.Added != n {
					b.Fatalf("import: %v %+v", err, rep)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkImportAllRowsBad posts a 100,000-row file whose every row is
// bad to the loopback server and reads the answer (the reported metric
// is the answer's size). Run it alone under /usr/bin/time -v for the
// process's peak memory:
//
//	go test -c -o /tmp/api.test ./apiserver/ &&
//	/usr/bin/time -v /tmp/api.test -test.run '^$' -test.bench ImportAllRowsBad -test.benchtime 1x
func BenchmarkImportAllRowsBad(b *testing.B) {
	e := newEnv(b, func(c *Config) { c.Logger = discardLogger() })
	var file bytes.Buffer
	file.WriteString("ItemType,Name,SellPrice,PartNumber\n")
	for i := range 100_000 {
		file.WriteString("Gadget,Item " + strconv.Itoa(i) + ",1.001,P-" + strconv.Itoa(i) + "\n")
	}
	body := file.String()
	runtime.GC()
	for b.Loop() {
		res := e.postCSV(e.main.admin, "/public/catalog/import", body)
		if res.status != 400 {
			b.Fatalf("status %d", res.status)
		}
		b.ReportMetric(float64(len(res.body)), "answer-bytes")
	}
}
