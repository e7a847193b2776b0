package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer safe for the flusher and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A warning is written at once, with the lines before it, in order; what
// is left is written by Close.
func TestLogBufferWritesWarningsAtOnce(t *testing.T) {
	var out lockedBuffer
	buf := newLogBuffer(&out)
	log := slog.New(flushingHandler{slog.NewJSONHandler(buf, nil), buf}).With("server", "a")
	log.Info("request one")
	log.Warn("accept failed")
	got := out.String()
	if i, j := strings.Index(got, "request one"), strings.Index(got, "accept failed"); i < 0 || j < i {
		t.Fatalf("after the warning the log holds %q; want the request line, then the warning", got)
	}
	if !strings.Contains(got, `"server":"a"`) {
		t.Errorf("attributes lost: %q", got)
	}
	log.Info("request two")
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "request two") {
		t.Errorf("Close left a line unwritten: %q", got)
	}
}
