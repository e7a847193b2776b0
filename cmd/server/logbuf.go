package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logFlushEvery is how long an information line may wait in the buffer.
const logFlushEvery = 100 * time.Millisecond

// logBuffer gathers log lines and writes them in one go every
// logFlushEvery (or when 64 KB wait): a write per request line was a
// tenth of a signed GET's time. Warnings and errors are written at once
// (flushingHandler), so a crash loses at most the last moment's request
// lines, never an error.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogBuffer(w io.Writer) *logBuffer {
	l := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.loop()
	return l
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Flush writes what waits.
func (l *logBuffer) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Flush()
}

func (l *logBuffer) loop() {
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	defer close(l.done)
	for {
		select {
		case <-t.C:
			l.Flush()
		case <-l.stop:
			l.Flush()
			return
		}
	}
}

// Close writes what waits and stops the flushing.
func (l *logBuffer) Close() error {
	close(l.stop)
	<-l.done
	return nil
}

// flushingHandler writes records of level Warn and above at once.
type flushingHandler struct {
	slog.Handler
	buf *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.buf.Flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(attrs), h.buf}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.buf}
}
