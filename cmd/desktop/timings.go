package main

import (
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/internal/frameprobe"
	"proposaldesk/internal/procstat"
	"proposaldesk/ui"
)

// logWorkspace reports (PD_STARTUP_LOG) when the workspace first lists
// proposals, the process's resident memory then and after the first
// sync, and then what a user feels at once: a search keystroke until the
// list shows its result, and opening a proposal until its screen is
// shown, and Present to client until the client's screen is shown,
// each the median and the worst of several, timed from the call
// on the UI goroutine until the frame that shows it is painted.
func logWorkspace(d *ui.Desktop, start time.Time, stopProfile func()) {
	defer stopProfile()
	var snap ui.Snapshot
	for {
		time.Sleep(10 * time.Millisecond)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
		if snap.SignedIn && snap.Rows > 0 {
			break
		}
	}
	fmt.Fprintf(os.Stderr, "desktop: workspace listing %d proposals %d ms after start, RSS %s\n",
		snap.Rows, time.Since(start).Milliseconds(), rss())
	for !snap.Synced {
		time.Sleep(100 * time.Millisecond)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
	}
	fmt.Fprintf(os.Stderr, "desktop: synced %d ms after start (%d proposals), RSS %s\n",
		time.Since(start).Milliseconds(), snap.Rows, rss())

	words := []string{"t", "th", "tho", "thor", "thorn", "thor", "tho", "th", "t", "", "r", "re", "res", "resi", "res", "re", "r", ""}
	var probe *frameprobe.Probe
	fyne.DoAndWait(func() { probe = frameprobe.New(d.Window()) })
	cpu := cpuTime()
	keys := probe.TimeEach(len(words), func(i int) { d.Search(words[i]) })
	fmt.Fprintf(os.Stderr, "desktop: search keystroke median %.1f ms, worst %.1f ms (%d keystrokes; CPU %.1f ms each)\n",
		ms(keys[len(keys)/2]), ms(keys[len(keys)-1]), len(keys), ms(cpuTime()-cpu)/float64(len(keys)))
	cpu = cpuTime()
	opens := probe.TimeEach(15, func(i int) { d.OpenRow(i * 7) })
	fmt.Fprintf(os.Stderr, "desktop: open proposal median %.1f ms, worst %.1f ms (%d proposals; CPU %.1f ms each)\n",
		ms(opens[len(opens)/2]), ms(opens[len(opens)-1]), len(opens), ms(cpuTime()-cpu)/float64(len(opens)))
	if presents, most := timePresent(d, 8); len(presents) > 0 {
		fmt.Fprintf(os.Stderr, "desktop: present to client median %.1f ms, worst %.1f ms (%d proposals of up to %d items)\n",
			ms(presents[len(presents)/2]), ms(presents[len(presents)-1]), len(presents), most)
	}
	logBigProposal(d, probe)
	writeHeapProfile()
	fmt.Fprintf(os.Stderr, "desktop: timings done, RSS %s\n", rss())
}

// writeHeapProfile writes the live heap to PD_MEMPROFILE, if set.
func writeHeapProfile() {
	path := os.Getenv("PD_MEMPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		log.Printf("heap profile: %v", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		log.Printf("heap profile: %v", err)
	}
}

// startProfile writes a CPU profile of the start and the timings to
// PD_CPUPROFILE (for finding where the time goes); stop ends it.
func startProfile() (stop func()) {
	path := os.Getenv("PD_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		log.Printf("cpu profile: %v", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Printf("cpu profile: %v", err)
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rss is the process's resident memory in words: the total, and how
// much of it is anonymous (heap, stacks, the GL driver's buffers)
// rather than file-backed (the mmapped local store, fonts, libraries),
// which the kernel can drop at will.
func rss() string {
	return fmt.Sprintf("%d MB (anonymous %d MB, file %d MB; Go %s)", procstat.MB("VmRSS"), procstat.MB("RssAnon"), procstat.MB("RssFile"), goMemory())
}

// goMemory is the Go runtime's share of the anonymous memory: what it
// has mapped and not returned, and the heap's objects (live and not yet
// swept). The rest of the anonymous memory is C's: Mesa's buffers and
// textures, the font and X libraries.
func goMemory() string {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/os-stacks:bytes"},
		{Name: "/memory/classes/heap/released:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	mb := func(i int) uint64 { return s[i].Value.Uint64() >> 20 }
	return fmt.Sprintf("%d MB mapped, heap objects %d MB", mb(0)-mb(1)-mb(2), mb(3))
}

// cpuTime is the CPU time the process has used, all its threads (the
// renderer's included): on a machine shared with other work it varies
// much less than the wall time.
func cpuTime() time.Duration { return time.Duration(procstat.CPU()) }
