//go:build ignore

// A bare Fyne window (1280×800) with one widget.Entry, alone or beside a
// 10,000-row widget.List (-list): the floor under the desktop's
// keystroke timing in the same display driver (docs/performance.md).
// It types -n keystrokes into the entry the way the desktop's
// PD_BENCH_ITEMS timings do (a digit, then a backspace, called on the
// UI goroutine) and prints the median and worst time from the keystroke
// to the painted frame that shows it, and the process's CPU (all
// threads, Mesa's included) per keystroke, then quits.
//
//	go build -o bin/minimal-entry scripts/minimal-entry/main.go
//	xvfb-run -a -s "-screen 0 1280x800x24" ./bin/minimal-entry [-list] [-n 40]
//
// It times with the desktop's own frame probe (internal/frameprobe).
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/internal/frameprobe"
	"proposaldesk/internal/procstat"
)

func main() {
	withList := flag.Bool("list", false, "put a 10,000-row list beside the entry")
	n := flag.Int("n", 40, "keystrokes to time")
	flag.Parse()

	a := app.New()
	w := a.NewWindow("one entry")
	entry := widget.NewEntry()
	entry.SetText("1")
	var content fyne.CanvasObject = container.NewVBox(entry)
	what := "entry alone"
	if *withList {
		list := widget.NewList(func() int { return 10_000 },
			func() fyne.CanvasObject { return widget.NewLabel("Proposal #00000 · Customer name · $00,000.00") },
			func(i widget.ListItemID, o fyne.CanvasObject) {
				o.(*widget.Label).SetText(fmt.Sprintf("Proposal #%05d · Customer %d · $%d.00", 1000+i, i%977, 100+i*7%9000))
			})
		content = container.NewHSplit(list, content)
		what = "entry beside a 10,000-row list"
	}
	w.SetContent(content)
	w.Resize(fyne.NewSize(1280, 800))
	p := frameprobe.New(w)
	go func() {
		// The first frame, then a few more, so the timing starts on a
		// settled window (fonts cached, list rows built).
		p.Painted()
		p.TimeEach(5, func(int) {})
		fyne.DoAndWait(func() {
			w.Canvas().Focus(entry)
			entry.CursorColumn = len([]rune(entry.Text))
		})
		cpu := cpuTime()
		ds := p.TimeEach(*n, func(i int) {
			if i%2 == 0 {
				entry.TypedRune('2')
			} else {
				entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
			}
		})
		perKey := ms(cpuTime()-cpu) / float64(*n)
		fmt.Fprintf(os.Stderr, "minimal-entry: %s: keystroke to frame median %.1f ms, worst %.1f ms (%d times; CPU %.1f ms each)\n",
			what, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), *n, perKey)
		fyne.Do(a.Quit)
	}()
	w.ShowAndRun()
}

// cpuTime is the process's CPU time so far, user and system, all threads.
func cpuTime() time.Duration { return time.Duration(procstat.CPU()) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
