package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// logRecordCase is one record, logged through a handler built by with.
type logRecordCase struct {
	name  string
	with  func(slog.Handler) slog.Handler
	time  time.Time
	level slog.Level
	msg   string
	attrs []slog.Attr
}

var (
	logTime = time.Date(2026, 11, 26, 8, 6, 45, 123456789, time.UTC)
	// Strings that need each kind of escape slog does, and some it does not.
	trickyStrings = []string{
		"", "plain", `quote " and backslash \`, "new\nline\rreturn\ttab",
		"\x00\x01\x1f\x7f", "<script>&amp;</script>", "é中文🙂",
		"bad \xff utf8 \xc3", "line\u2028sep\u2029para", "/public/proposals/1042",
	}
)

func logCases() []logRecordCase {
	request := []slog.Attr{
		slog.String("request_id", "abcdefghijklmnop"), slog.String("method", "GET"),
		slog.String("path", "/public/proposals/1042"), slog.Int("status", 200),
		slog.Duration("duration", 35*time.Microsecond), slog.Int64("bytes", 10234),
		slog.String("op", "getProposal"), slog.Int64("account", 1), slog.Int64("user", 3),
	}
	withServer := func(h slog.Handler) slog.Handler {
		return h.WithAttrs([]slog.Attr{slog.String("server", "a"), slog.Int("replica", 2)})
	}
	cases := []logRecordCase{
		{name: "request line", time: logTime, msg: "request", attrs: request},
		{name: "request line with attrs", with: withServer, time: logTime, msg: "request", attrs: request},
		{name: "error level", time: logTime, level: slog.LevelError, msg: "request", attrs: request},
		{name: "custom level", time: logTime, level: slog.LevelInfo + 2, msg: "x"},
		{name: "debug is not written", time: logTime, level: slog.LevelDebug, msg: "x"},
		{name: "zero time", msg: "no time"},
		{name: "year out of range", time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), msg: "x"},
		{name: "time zone", time: logTime.In(time.FixedZone("x", -5*3600)), msg: "x"},
		{name: "whole seconds", time: logTime.Truncate(time.Second), msg: "x"},
		{name: "kinds", time: logTime, msg: "kinds", attrs: []slog.Attr{
			slog.Bool("yes", true), slog.Bool("no", false), slog.Uint64("u", 1<<63),
			slog.Int64("neg", -42), slog.Duration("d", -time.Hour)}},
		{name: "float falls back", time: logTime, msg: "x", attrs: []slog.Attr{slog.Float64("f", 0.1)}},
		{name: "time attr falls back", time: logTime, msg: "x", attrs: []slog.Attr{slog.Time("at", logTime)}},
		{name: "error falls back", time: logTime, msg: "x", attrs: []slog.Attr{slog.Any("err", errors.New(`bad "x"`))}},
		{name: "group falls back", time: logTime, msg: "x", attrs: []slog.Attr{slog.Group("g", slog.Int("a", 1))}},
		{name: "empty attr falls back", time: logTime, msg: "x", attrs: []slog.Attr{{}, slog.Int("a", 1)}},
		{name: "WithGroup falls back", with: func(h slog.Handler) slog.Handler { return h.WithGroup("g") }, time: logTime, msg: "x", attrs: request},
		{name: "WithAttrs of a float falls back", with: func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.Float64("f", 1.5)})
		}, time: logTime, msg: "x", attrs: request},
	}
	for _, s := range trickyStrings {
		cases = append(cases, logRecordCase{name: "string " + s, time: logTime, msg: s,
			attrs: []slog.Attr{slog.String(s+"k", s)}})
	}
	return cases
}

// logCase is the case of logCases named name.
func logCase(tb testing.TB, name string) logRecordCase {
	for _, c := range logCases() {
		if c.name == name {
			return c
		}
	}
	tb.Fatalf("no log case %q", name)
	return logRecordCase{}
}

// logLine logs c through the handler mk builds on a buffer.
func logLine(c logRecordCase, mk func(io.Writer) slog.Handler) string {
	var out bytes.Buffer
	h := mk(&out)
	if c.with != nil {
		h = c.with(h)
	}
	if h.Enabled(context.Background(), c.level) {
		r := slog.NewRecord(c.time, c.level, c.msg, 0)
		r.AddAttrs(c.attrs...)
		h.Handle(context.Background(), r)
	}
	return out.String()
}

func slogJSON(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }
func fastJSON(w io.Writer) slog.Handler { return newJSONLogHandler(w) }

// The fast handler's lines are slog's, byte for byte.
func TestJSONLogMatchesSlog(t *testing.T) {
	for _, c := range logCases() {
		t.Run(c.name, func(t *testing.T) {
			want, got := logLine(c, slogJSON), logLine(c, fastJSON)
			if got != want {
				t.Errorf("fast handler wrote\n%s\nslog writes\n%s", got, want)
			}
		})
	}
}

// The request line takes the fast path: no slog handler runs for it.
func TestRequestLineTakesTheFastPath(t *testing.T) {
	c := logCase(t, "request line with attrs")
	var out bytes.Buffer
	h := newJSONLogHandler(&out)
	h.slow = panicHandler{}
	r := slog.NewRecord(c.time, c.level, c.msg, 0)
	r.AddAttrs(c.attrs...)
	if err := c.with(h).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"server":"a","replica":2,"request_id":"abcdefghijklmnop"`) {
		t.Errorf("wrote %q", out.String())
	}
}

type panicHandler struct{ slog.Handler }

func (panicHandler) Handle(context.Context, slog.Record) error { panic("slow path taken") }
func (h panicHandler) WithAttrs([]slog.Attr) slog.Handler      { return h }

func FuzzJSONLogMatchesSlog(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s, s, int64(len(s)))
	}
	f.Fuzz(func(t *testing.T, key, value string, n int64) {
		c := logRecordCase{time: logTime, msg: value, attrs: []slog.Attr{
			slog.String(key, value), slog.Int64(value, n), slog.Duration(key+"d", time.Duration(n))}}
		if want, got := logLine(c, slogJSON), logLine(c, fastJSON); got != want {
			t.Errorf("fast handler wrote\n%s\nslog writes\n%s", got, want)
		}
	})
}

func benchmarkRequestLine(b *testing.B, h slog.Handler) {
	c := logCase(b, "request line with attrs")
	h = c.with(h)
	ctx := context.Background()
	for b.Loop() {
		r := slog.NewRecord(time.Now(), c.level, c.msg, 0)
		r.AddAttrs(c.attrs...)
		h.Handle(ctx, r)
	}
}

func BenchmarkRequestLine(b *testing.B) {
	b.Run("slog", func(b *testing.B) { benchmarkRequestLine(b, slog.NewJSONHandler(io.Discard, nil)) })
	b.Run("fast", func(b *testing.B) { benchmarkRequestLine(b, newJSONLogHandler(io.Discard)) })
}
