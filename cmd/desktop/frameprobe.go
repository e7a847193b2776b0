package main

import (
	"image"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// frameProbe tells when the window has painted a frame: a transparent
// pixel in its top-left corner whose image is made again (its generator
// called) when the frame after a Refresh of it is painted. The startup
// log times a keystroke until the frame that shows its result, as a user
// sees it; one more trip through the UI goroutine then waits for the end
// of that frame (the rest of the window painted, the buffers swapped).
type frameProbe struct {
	px      *canvas.Raster
	painted chan struct{}
}

// newFrameProbe puts the probe over w's content (UI goroutine).
func newFrameProbe(w fyne.Window) *frameProbe {
	p := &frameProbe{painted: make(chan struct{}, 1)}
	blank := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	p.px = canvas.NewRaster(func(int, int) image.Image {
		select {
		case p.painted <- struct{}{}:
		default:
		}
		return blank
	})
	p.px.Resize(fyne.NewSize(1, 1))
	w.SetContent(container.NewStack(w.Content(), container.NewWithoutLayout(p.px)))
	return p
}

// timeEach times fn(i) for i < n, each from the call on the UI goroutine
// until the frame showing its result is painted, and returns the
// durations sorted.
func (p *frameProbe) timeEach(n int, fn func(int)) []time.Duration {
	out := make([]time.Duration, n)
	for i := range n {
		p.drain()
		t := time.Now()
		fyne.DoAndWait(func() {
			fn(i)
			p.px.Refresh()
		})
		<-p.painted
		fyne.DoAndWait(func() {})
		out[i] = time.Since(t)
		time.Sleep(20 * time.Millisecond)
	}
	slices.Sort(out)
	return out
}

// drain forgets a frame painted before the timing starts.
func (p *frameProbe) drain() {
	select {
	case <-p.painted:
	default:
	}
}
