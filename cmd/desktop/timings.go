package main

import (
	"fmt"
	"os"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/ui"
)

// logWorkspace reports (PD_STARTUP_LOG) when the workspace first lists
// proposals, the process's resident memory then and after the first
// sync, and then what a user feels at once: a search keystroke until the
// list shows its result, and opening a proposal until its screen is
// built, each the median and the worst of several, timed on the UI
// goroutine plus one more trip through it (the frame that shows it).
func logWorkspace(d *ui.Desktop, start time.Time) {
	var snap ui.Snapshot
	for {
		time.Sleep(10 * time.Millisecond)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
		if snap.SignedIn && snap.Rows > 0 {
			break
		}
	}
	fmt.Fprintf(os.Stderr, "desktop: workspace listing %d proposals %d ms after start, RSS %d MB\n",
		snap.Rows, time.Since(start).Milliseconds(), rssMB())
	for !snap.Synced {
		time.Sleep(100 * time.Millisecond)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
	}
	fmt.Fprintf(os.Stderr, "desktop: synced %d ms after start (%d proposals), RSS %d MB\n",
		time.Since(start).Milliseconds(), snap.Rows, rssMB())

	words := []string{"t", "th", "tho", "thor", "thorn", "thor", "tho", "th", "t", "", "r", "re", "res", "resi", "res", "re", "r", ""}
	keys := timeEach(len(words), func(i int) { d.Search(words[i]) })
	fmt.Fprintf(os.Stderr, "desktop: search keystroke median %.1f ms, worst %.1f ms (%d keystrokes)\n", ms(keys[len(keys)/2]), ms(keys[len(keys)-1]), len(keys))
	opens := timeEach(15, func(i int) { d.OpenRow(i * 7) })
	fmt.Fprintf(os.Stderr, "desktop: open proposal median %.1f ms, worst %.1f ms (%d proposals)\n", ms(opens[len(opens)/2]), ms(opens[len(opens)-1]), len(opens))
	fmt.Fprintf(os.Stderr, "desktop: timings done, RSS %d MB\n", rssMB())
}

// timeEach times fn(i) for i < n on the UI goroutine, each until the
// next frame could show it, and returns the durations sorted.
func timeEach(n int, fn func(int)) []time.Duration {
	out := make([]time.Duration, n)
	for i := range n {
		t := time.Now()
		fyne.DoAndWait(func() { fn(i) })
		fyne.DoAndWait(func() {})
		out[i] = time.Since(t)
		time.Sleep(20 * time.Millisecond)
	}
	slices.Sort(out)
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
