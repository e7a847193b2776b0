package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"fyne.io/fyne/v2"

	"proposaldesk/ui"
)

// How the desktop ends, and why it does not leave it all to Fyne.
//
// Fyne 2.7.1 answers SIGTERM and SIGINT by stopping its main loop
// without closing the windows, so the window's close handler, which
// saves the field being typed and closes the local store, never runs.
// And whichever way the loop stops, Fyne then waits for a lifecycle
// event that it can drop when the event is queued while the loop is
// draining: the window is gone but the process stays, holding the
// store's file lock, so the next start cannot open the store. Under
// load that happened to one quit in seven here (scripts/smoke-desktop.sh
// reproduced it, and a CI run waited on it for an hour).
//
// So the desktop takes the signals itself and closes its window as the
// salesperson would, and once the window has closed and the store is
// saved, it does not wait on Fyne for longer than exitGrace.
const (
	// exitGrace is how long Fyne has to return after the window closed.
	// It takes milliseconds when it does.
	exitGrace = 3 * time.Second
	// signalGrace is how long closing may take after SIGTERM or SIGINT
	// (a sync in flight stops at its next request) before the process
	// exits anyway, writing every goroutine's stack to stderr so the
	// hang can be found.
	signalGrace = 10 * time.Second
)

// orderlyQuit makes d's window close save and exit, and returns the
// function to run once Fyne's loop has started (Lifecycle.OnStarted),
// which takes SIGTERM and SIGINT over from Fyne.
func orderlyQuit(a fyne.App, d *ui.Desktop) (onStarted func()) {
	d.Window().SetOnClosed(func() {
		d.Close()
		// Saved and closed: if Fyne does not return, that is no failure.
		exitAfter(exitGrace, "its window closed", 0)
	})
	return func() {
		// Fyne registered its own handler when its loop started; Reset
		// removes it, so a signal closes the window instead of stopping
		// the loop under it.
		signal.Reset(syscall.SIGTERM, syscall.SIGINT)
		sig := make(chan os.Signal, 2)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		go func() {
			first := <-sig
			fyne.Do(a.Quit) // closes the window: saves, stops syncing, closes the store
			// Later signals change nothing: `timeout` and process-group
			// kills send the same one twice at once.
			exitAfter(signalGrace, first.String(), 1)
		}()
	}
}

// exitAfter exits the process with code after d if it is still running
// then, saying why; a failure (code 1) writes every goroutine's stack
// first.
func exitAfter(d time.Duration, after string, code int) {
	time.AfterFunc(d, func() {
		fmt.Fprintf(os.Stderr, "desktop: still running %v after %s; exiting\n", d, after)
		if code != 0 {
			_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 2)
		}
		os.Exit(code)
	})
}
