package ui

import (
	"strings"
	"testing"
)

// TestAboutShowsVersion: Help > About Proposal Desk opens a dialog that
// shows the version the app was started with, also before sign-in.
func TestAboutShowsVersion(t *testing.T) {
	h := newHarness(t)
	d := h.start(Options{Version: "9.8.7"})
	var about func()
	for _, m := range d.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == aboutLabel {
				about = it.Action
			}
		}
	}
	if about == nil {
		t.Fatal("no Help > About Proposal Desk in the main menu")
	}
	about()
	top := d.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("About opened no dialog")
	}
	if got := texts(top); !strings.Contains(got, "Proposal Desk 9.8.7") || !strings.Contains(got, h.dir) {
		t.Errorf("About says %q, want the version 9.8.7 and the data folder %s", got, h.dir)
	}
}
