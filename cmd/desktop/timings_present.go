package main

import (
	"image"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"proposaldesk/ui"
)

// timePresent times Present to client on up to n proposals of the list
// that can be presented, from the command on the UI goroutine until the
// frame showing the client's screen is painted (opening the proposal
// first and leaving after are not timed). The client's screen replaces
// the window's content, so it gets a probe pixel of its own (see
// frameProbe). It returns the sorted durations and the most items a
// timed proposal had.
func timePresent(d *ui.Desktop, n int) (out []time.Duration, most int) {
	painted := make(chan struct{}, 1)
	blank := image.NewNRGBA(image.Rect(0, 0, 1, 1))
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
		px := canvas.NewRaster(func(int, int) image.Image {
			select {
			case painted <- struct{}{}:
			default:
			}
			return blank
		})
		px.Resize(fyne.NewSize(1, 1))
		select {
		case <-painted:
		default:
		}
		t := time.Now()
		fyne.DoAndWait(func() {
			d.PresentToClient()
			w := d.Window()
			w.SetContent(container.NewStack(w.Content(), container.NewWithoutLayout(px)))
		})
		<-painted
		fyne.DoAndWait(func() {})
		out = append(out, time.Since(t))
		most = max(most, items)
		fyne.DoAndWait(d.LeavePresent)
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(out)
	return out, most
}
