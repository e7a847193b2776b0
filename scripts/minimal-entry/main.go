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
//	xvfb-run -a -s "-screen 0 1280x800x24" ./bin/minimal-entry [-list] [-rows 20 -look cells] [-n 40]
//
// With -rows N the entry has N rows of five fields and two buttons under
// it, like the desktop's item rows, drawn as -look says: "boxed" (Fyne's
// entries and buttons), "cells" (the same with no box, border or button
// background, as the desktop draws its item rows) or "labels" (text
// only): what the rows' rectangles add to a keystroke's frame.
//
// It times with the desktop's own frame probe (internal/frameprobe).
package main

import (
	"flag"
	"fmt"
	"image/color"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/internal/frameprobe"
	"proposaldesk/internal/procstat"
)

func main() {
	withList := flag.Bool("list", false, "put a 10,000-row list beside the entry")
	n := flag.Int("n", 40, "keystrokes to time")
	rows := flag.Int("rows", 0, "rows of five fields and two buttons under the entry")
	look := flag.String("look", "boxed", "how the rows are drawn: boxed, cells or labels")
	flag.Parse()

	a := app.New()
	w := a.NewWindow("one entry")
	entry := widget.NewEntry()
	entry.SetText("1")
	var content fyne.CanvasObject = container.NewVBox(entry)
	what := "entry alone"
	if *rows > 0 {
		content = container.NewVScroll(container.NewVBox(entry, grid(*rows, *look)))
		what = fmt.Sprintf("entry over %d rows drawn %s", *rows, *look)
	}
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
		cpu, mesa := cpuTime(), procstat.ThreadCPU("llvmpipe")
		ds := p.TimeEach(*n, func(i int) {
			if i%2 == 0 {
				entry.TypedRune('2')
			} else {
				entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
			}
		})
		perKey := ms(cpuTime()-cpu) / float64(*n)
		mesaKey := ms(time.Duration(procstat.ThreadCPU("llvmpipe")-mesa)) / float64(*n)
		fmt.Fprintf(os.Stderr, "minimal-entry: %s: keystroke to frame median %.1f ms, worst %.1f ms (%d times; CPU %.1f ms each, %.1f ms of it in Mesa's llvmpipe threads)\n",
			what, ms(ds[len(ds)/2]), ms(ds[len(ds)-1]), *n, perKey, mesaKey)
		fyne.Do(a.Quit)
	}()
	w.ShowAndRun()
}

// grid is n rows of five fields and two buttons, drawn as look says.
func grid(n int, look string) fyne.CanvasObject {
	box := container.NewVBox()
	for r := range n {
		var cells []fyne.CanvasObject
		for c := range 5 {
			text := fmt.Sprintf("Item %d, column %d", r+1, c+1)
			if look == "labels" {
				cells = append(cells, widget.NewLabel(text))
				continue
			}
			e := widget.NewEntry()
			e.SetText(text)
			cells = append(cells, e)
		}
		if look != "labels" {
			for _, t := range []string{"⋯", "✕"} {
				b := widget.NewButton(t, nil)
				if look == "cells" {
					b.Importance = widget.LowImportance
				}
				cells = append(cells, b)
			}
		}
		box.Add(container.NewGridWithColumns(len(cells), cells...))
	}
	if look == "cells" {
		// The desktop leaves the box and border out in its renderer;
		// a theme that paints them transparent draws the same pixels.
		return container.NewThemeOverride(box, cellTheme{theme.DefaultTheme()})
	}
	return box
}

type cellTheme struct{ fyne.Theme }

func (t cellTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameInputBackground || n == theme.ColorNameInputBorder {
		return color.Transparent // only this value makes Fyne skip a rectangle
	}
	return t.Theme.Color(n, v)
}

// cpuTime is the process's CPU time so far, user and system, all threads.
func cpuTime() time.Duration { return time.Duration(procstat.CPU()) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
