package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/internal/frameprobe"
	"proposaldesk/internal/procstat"
	"proposaldesk/ui"
)

// logBigProposal (PD_BENCH_ITEMS=N with PD_STARTUP_LOG) fills the open
// proposal to N items, then times as logWorkspace does, each until the
// frame that shows it is painted: opening it, a keystroke in an item's
// quantity, and structural edits (a line added, nested, un-nested,
// removed); keystrokes first while its N edits are being sent to the
// server, the rest once they are.
func logBigProposal(d *ui.Desktop, probe *frameprobe.Probe) {
	n, err := strconv.Atoi(os.Getenv("PD_BENCH_ITEMS"))
	if err != nil || n <= 0 {
		return
	}
	var id int64
	start := time.Now()
	fyne.DoAndWait(func() { id, err = d.BenchFill(n) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: big proposal: %v\n", err)
		return
	}
	fmt.Fprintf(os.Stderr, "desktop: big proposal %d filled to %d items in %d ms, RSS %s\n", id, n, time.Since(start).Milliseconds(), rss())
	start = time.Now()
	report := func(what string, k int, fn func(int)) {
		stop := profilePhase(what)
		cpu, mesa := cpuTime(), time.Duration(procstat.ThreadCPU("llvmpipe"))
		// The call alone (the edit saved, the screen updated), apart
		// from the frame that shows it.
		calls := make([]time.Duration, 0, k)
		ds := probe.TimeEach(k, func(i int) {
			t := time.Now()
			fn(i)
			calls = append(calls, time.Since(t))
		})
		cpu, mesa = cpuTime()-cpu, time.Duration(procstat.ThreadCPU("llvmpipe"))-mesa
		stop()
		slices.Sort(calls)
		fmt.Fprintf(os.Stderr, "desktop: %d-item proposal: %s median %.1f ms, worst %.1f ms (%d times; the call alone median %.1f ms; CPU %.1f ms each, %.1f ms of it in Mesa's llvmpipe threads)\n",
			n, what, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), k, ms(calls[len(calls)/2]), ms(cpu)/float64(k), ms(mesa)/float64(k))
	}
	// First while its edits are being sent (each sync that lands reads
	// the proposal again), then once they are.
	report("keystroke while its edits are sent", 10, d.BenchKeystroke)
	sending := true
	for sending {
		time.Sleep(100 * time.Millisecond)
		fyne.DoAndWait(func() { sending = d.BenchSending() })
	}
	fmt.Fprintf(os.Stderr, "desktop: big proposal sent %d ms after it was filled\n", time.Since(start).Milliseconds())
	report("open", 9, func(int) { d.OpenProposal(id) })
	report("keystroke", 20, d.BenchKeystroke)
	report("structural edit", 12, d.BenchEdit)
	// The same with the proposal list hidden (Ctrl+B): what the list
	// beside the proposal adds to each frame.
	fyne.DoAndWait(d.ToggleList)
	report("keystroke, list hidden", 20, func(i int) { d.BenchKeystroke(i + 2) }) // not 0: no scroll
	fyne.DoAndWait(d.ToggleList)
	heapProfile()
}

// heapProfile writes what the heap holds, after a collection, to
// PD_BENCH_PROFILE/heap.pprof.
func heapProfile() {
	dir := os.Getenv("PD_BENCH_PROFILE")
	if dir == "" {
		return
	}
	runtime.GC()
	f, err := os.Create(filepath.Join(dir, "heap.pprof"))
	if err == nil {
		err = pprof.WriteHeapProfile(f)
		f.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: heap profile: %v\n", err)
	}
}

// profilePhase writes a CPU profile of one timed phase to
// PD_BENCH_PROFILE/<what>.pprof (spaces as dashes) until stop is called,
// to find where a keystroke's or an edit's time goes, with an execution
// trace beside it (<what>.trace). PD_CPUPROFILE,
// which covers the whole start, must not be set with it.
func profilePhase(what string) (stop func()) {
	dir := os.Getenv("PD_BENCH_PROFILE")
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(what, " ", "-")+".pprof"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "desktop: profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "desktop: profile: %v\n", err)
		f.Close()
		return func() {}
	}
	// And an execution trace, for where the UI goroutine waits
	// (go tool trace -pprof=sync|sched FILE).
	tf, err := os.Create(filepath.Join(dir, strings.ReplaceAll(what, " ", "-")+".trace"))
	if err == nil && trace.Start(tf) != nil {
		tf.Close()
		tf = nil
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		if tf != nil {
			trace.Stop()
			tf.Close()
		}
	}
}
