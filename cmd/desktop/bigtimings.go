package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/internal/frameprobe"
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
		cpu := cpuTime()
		ds := probe.TimeEach(k, fn)
		fmt.Fprintf(os.Stderr, "desktop: %d-item proposal: %s median %.1f ms, worst %.1f ms (%d times; CPU %.1f ms each)\n",
			n, what, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), k, ms(cpuTime()-cpu)/float64(k))
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
}
