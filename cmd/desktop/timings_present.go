package main

import (
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/internal/frameprobe"
	"proposaldesk/ui"
)

// timePresent times Present to client on up to n proposals of the list
// that can be presented, from the command on the UI goroutine until the
// frame showing the client's screen is painted (opening the proposal
// first and leaving after are not timed). The client's screen replaces
// the window's content, so it is timed with a probe of its own
// (frameprobe.After). It returns the sorted durations and the most items a
// timed proposal had.
func timePresent(d *ui.Desktop, n int) (out []time.Duration, most int) {
	for row := 0; len(out) < n && row < 400; row++ {
		var ok bool
		var items int
		fyne.DoAndWait(func() { ok = d.OpenRow(row) })
		if !ok {
			break
		}
		fyne.DoAndWait(func() { items, ok = d.PresentableItems() })
		if !ok {
			continue
		}
		time.Sleep(50 * time.Millisecond) // the proposal's screen drawn
		took := frameprobe.After(d.Window(), d.PresentToClient)
		out = append(out, took)
		most = max(most, items)
		fyne.DoAndWait(d.LeavePresent)
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(out)
	return out, most
}
