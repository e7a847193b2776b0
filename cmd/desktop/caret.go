//go:build !darwin

package main

import "fyne.io/fyne/v2"

// A steady caret. Fyne fades a focused entry's caret in and out, and
// each step of the fade repaints the whole window: with the caret in a
// field and nothing typed, the desktop used 3.0 s of CPU in 10 s under
// Xvfb (Mesa's software renderer, as on a laptop without a GPU driver),
// against 0.23 s with Fyne's animations off: a battery drained for a
// blinking line. Fyne offers no setting for one app (only a build tag, or
// the user's file shared by every Fyne app), so the app makes itself the
// current app with its settings saying no animations: the caret stays
// lit, and buttons show no ripple when tapped. (Not on macOS, where Fyne
// reads its own settings type back from the current app.)
type steadyApp struct {
	fyne.App
	settings steadySettings
}

type steadySettings struct{ fyne.Settings }

func (steadySettings) ShowAnimations() bool { return false }

func (a *steadyApp) Settings() fyne.Settings { return a.settings }

// steady makes a, with its animations off, the current app, and returns
// it; call it before any window is made.
func steady(a fyne.App) fyne.App {
	s := &steadyApp{App: a, settings: steadySettings{a.Settings()}}
	fyne.SetCurrentApp(s)
	return s
}
