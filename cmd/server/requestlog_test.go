package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"proposaldesk/internal/procstat"
)

// requestLineKeys are the fields of a signed request's log line, in the
// order they are written: operators' log queries depend on them.
var requestLineKeys = []string{"time", "level", "msg", "request_id", "method", "path", "status", "duration", "bytes", "op", "account", "user"}

// checkRequestLine reads the log back as JSON, finds the request line of
// method and path and checks its fields: names, order, types and values.
func checkRequestLine(t *testing.T, logs, method, path, op string, user int64) {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "request" || rec["method"] != method || rec["path"] != path {
			continue
		}
		if got := slices.Sorted(maps.Keys(rec)); !slices.Equal(got, slices.Sorted(slices.Values(requestLineKeys))) {
			t.Errorf("request line has the fields %v, want %v:\n%s", got, requestLineKeys, line)
		}
		if got := keyOrder(line); !slices.Equal(got, requestLineKeys) {
			t.Errorf("request line's fields in the order %v, want %v", got, requestLineKeys)
		}
		if ts, _ := rec["time"].(string); !validTime(ts) {
			t.Errorf("time %v is not RFC 3339 with nanoseconds", rec["time"])
		}
		if id, _ := rec["request_id"].(string); id == "" {
			t.Errorf("request_id %v", rec["request_id"])
		}
		for k, want := range map[string]any{"level": "INFO", "status": 200.0, "op": op, "user": float64(user)} {
			if rec[k] != want {
				t.Errorf("%s is %#v, want %#v", k, rec[k], want)
			}
		}
		for _, k := range []string{"duration", "bytes", "account"} {
			if n, ok := rec[k].(float64); !ok || n <= 0 || n != float64(int64(n)) {
				t.Errorf("%s is %#v, want a positive whole number", k, rec[k])
			}
		}
		return
	}
	t.Errorf("no request line for %s %s in the log:\n%s", method, path, logs)
}

// keyOrder is the top-level keys of a JSON object in the order written.
func keyOrder(line string) []string {
	dec := json.NewDecoder(strings.NewReader(line))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return keys
		}
	}
	return keys
}

func validTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// BenchmarkRequestLine is the server's cost of one request line, as the
// middleware logs it, through slog's JSON handler: straight to a file
// (what the server does), and into a 64 KB buffer (what batching the
// lines would save). cpu-ns/op is the process's CPU time a line.
//
//	go test ./cmd/server -run '^$' -bench RequestLine -count 5
func BenchmarkRequestLine(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "log"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.Run("file", func(b *testing.B) { benchmarkRequestLine(b, f) })
	b.Run("buffered", func(b *testing.B) {
		w := bufio.NewWriterSize(f, 64<<10)
		defer w.Flush()
		benchmarkRequestLine(b, w)
	})
}

func benchmarkRequestLine(b *testing.B, w io.Writer) {
	h := slog.NewJSONHandler(w, nil)
	attrs := []slog.Attr{
		slog.String("request_id", "abcdefghijklmnop"), slog.String("method", "GET"),
		slog.String("path", "/public/proposals/1042"), slog.Int("status", 200),
		slog.Duration("duration", 35*time.Microsecond), slog.Int64("bytes", 10234),
		slog.String("op", "GetProposal"), slog.Int64("account", 1), slog.Int64("user", 3),
	}
	ctx := context.Background()
	cpu0 := procstat.CPU()
	for b.Loop() {
		r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
		r.AddAttrs(attrs...)
		if err := h.Handle(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(procstat.CPU()-cpu0)/float64(b.N), "cpu-ns/op")
}
