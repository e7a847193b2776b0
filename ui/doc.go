// Package ui is the desktop app's screens, in Fyne: sign-in, the
// proposal list, the proposal screen, the sync status bar and the
// conflicts panel. It holds no business rules: it asks app (what may be
// edited, which status moves exist, whether an option can be added,
// what the totals are) and shows the answer; it reads the local store
// and edits through the sync engine.
//
// The package never imports fyne.io/fyne/v2/app (that drags the cgo GL
// driver into every test build): cmd/desktop makes the fyne.App and
// passes it to New, and tests pass test.NewApp(). Work in the background
// (sign-in, sync, debounce timers) reaches widgets only through
// Options.Do, which is fyne.Do unless a test replaces it.
package ui
