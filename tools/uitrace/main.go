// Command uitrace reads an execution trace of the desktop (the .trace
// files PD_BENCH_PROFILE writes beside each timed phase) and says how
// the UI goroutine spent it: its longest spans running and not running
// (with where it stopped), and how many it had. A UI that is slow while
// its goroutine never runs or waits long is busy with many short jobs.
//
//	cd tools && go run ./uitrace /path/to/keystroke-while-its-edits-are-sent.trace
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// span is a stretch of the UI goroutine's time.
type span struct {
	d     time.Duration
	state string // running, or the state it waited in and why
	stack string // where it stopped running
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: uitrace FILE.trace")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	running, waiting, err := read(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, part := range []struct {
		what  string
		spans []span
	}{{"running", running}, {"not running", waiting}} {
		var total time.Duration
		for _, s := range part.spans {
			total += s.d
		}
		slices.SortFunc(part.spans, func(a, b span) int { return int(b.d - a.d) })
		fmt.Printf("UI goroutine %s: %d spans, %s in all\n", part.what, len(part.spans), total.Round(time.Millisecond))
		for _, s := range part.spans[:min(5, len(part.spans))] {
			fmt.Printf("  %8s %s%s\n", s.d.Round(100*time.Microsecond), s.state, s.stack)
		}
	}
}

// read splits goroutine 1's time (the main goroutine: Fyne's UI
// thread) into spans running and not running.
func read(r io.Reader) (running, waiting []span, err error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	var since trace.Time
	var stopped span
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			return running, waiting, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine || st.Resource.Goroutine() != 1 {
			continue
		}
		from, to := st.Goroutine()
		switch {
		case to == trace.GoRunning && from != trace.GoRunning:
			if since != 0 {
				stopped.d = time.Duration(ev.Time() - since)
				waiting = append(waiting, stopped)
			}
			since = ev.Time()
		case from == trace.GoRunning && to != trace.GoRunning:
			if since != 0 {
				running = append(running, span{d: time.Duration(ev.Time() - since), state: "running"})
			}
			var b strings.Builder
			n := 0
			for fr := range st.Stack.Frames() {
				if n++; n > 4 {
					break
				}
				fmt.Fprintf(&b, "\n           %s", fr.Func)
			}
			stopped, since = span{state: strings.TrimSpace(to.String() + " " + st.Reason), stack: b.String()}, ev.Time()
		}
	}
}
