// Package frameprobe tells when a Fyne window has painted the frame that
// shows a change: the desktop's startup timings and the bare-window
// yardsticks under scripts/ time keystrokes with it, so both measure
// the same way.
package frameprobe

import (
	"image"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// Probe is a transparent pixel in the window's top-left corner whose
// image is made again (its generator called) when the frame after a
// Refresh of it is painted. A change is timed until the frame that
// shows it, as a user sees it; one more trip through the UI goroutine
// then waits for the end of that frame (the rest of the window painted,
// the buffers swapped).
type Probe struct {
	px      *canvas.Raster
	painted chan struct{}
}

// New puts the probe over w's content (before the window is shown, or
// on the UI goroutine).
func New(w fyne.Window) *Probe {
	p := newProbe()
	p.cover(w)
	return p
}

func newProbe() *Probe {
	p := &Probe{painted: make(chan struct{}, 1)}
	blank := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	p.px = canvas.NewRaster(func(int, int) image.Image {
		select {
		case p.painted <- struct{}{}:
		default:
		}
		return blank
	})
	p.px.Resize(fyne.NewSize(1, 1))
	return p
}

// cover puts the probe over w's content (UI goroutine).
func (p *Probe) cover(w fyne.Window) {
	w.SetContent(container.NewStack(w.Content(), container.NewWithoutLayout(p.px)))
}

// After times fn, which replaces w's content (a screen of its own), from
// the call on the UI goroutine until the frame showing the new content
// is painted and ended: a probe goes over what fn left.
func After(w fyne.Window, fn func()) time.Duration {
	p := newProbe()
	t := time.Now()
	fyne.DoAndWait(func() {
		fn()
		p.cover(w)
	})
	<-p.painted
	fyne.DoAndWait(func() {})
	return time.Since(t)
}

// Painted waits for the next frame the probe is painted in (the first
// one, after New).
func (p *Probe) Painted() { <-p.painted }

// TimeEach times fn(i) for i < n, each from the call on the UI
// goroutine until the frame showing its result is painted and ended,
// and returns the durations sorted.
func (p *Probe) TimeEach(n int, fn func(int)) []time.Duration {
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
func (p *Probe) drain() {
	select {
	case <-p.painted:
	default:
	}
}
