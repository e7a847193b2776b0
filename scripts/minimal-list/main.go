//go:build ignore

// A minimal Fyne window with a 10,000-row widget.List: the yardstick for
// the desktop's resident memory under the same display driver
// (docs/performance.md). It prints its resident memory once the list's
// first frame is painted and again a few seconds later, then quits.
//
//	xvfb-run -a -s "-screen 0 1280x800x24" go run scripts/minimal-list/main.go
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("10,000 rows")
	list := widget.NewList(func() int { return 10_000 },
		func() fyne.CanvasObject { return widget.NewLabel("Proposal #00000 · Customer name · $00,000.00") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(fmt.Sprintf("Proposal #%05d · Customer %d · $%d.00", 1000+i, i%977, 100+i*7%9000))
		})
	w.SetContent(list)
	w.Resize(fyne.NewSize(1280, 800))
	go func() {
		// The list is painted well within the first second; the figure
		// after 5 s is the settled one.
		start := time.Now()
		for _, at := range []time.Duration{time.Second, 5 * time.Second} {
			time.Sleep(at - time.Since(start))
			fmt.Fprintf(os.Stderr, "minimal-list: after %s: %s\n", at, memory())
		}
		fyne.Do(a.Quit)
	}()
	w.ShowAndRun()
}

// memory is the process's resident memory, as /proc says it.
func memory() string {
	b, _ := os.ReadFile("/proc/self/status")
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, k := range []string{"VmRSS:", "RssAnon:", "RssFile:", "VmHWM:"} {
			if strings.HasPrefix(l, k) {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
	}
	return strings.Join(out, ", ")
}
