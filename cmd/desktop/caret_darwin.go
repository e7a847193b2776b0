package main

import "fyne.io/fyne/v2"

// steady leaves a as it is on macOS (see caret.go).
func steady(a fyne.App) fyne.App { return a }
