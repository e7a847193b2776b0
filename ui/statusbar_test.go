package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	syncer "proposaldesk/sync"
)

// listErr is an error whose values cannot be compared with ==.
type listErr []string

func (e listErr) Error() string { return e[0] }

// A first sync's thousands of steps move the bar only when its
// percentage changes and leave the labels alone; any other change while
// syncing is shown at once, and so is the end.
func TestStatusBarSteps(t *testing.T) {
	test.NewTempApp(t)
	b := newStatusBar(&Desktop{})
	start := syncer.State{Online: true, Syncing: true, Phase: syncer.PhasePull, Total: 1000}
	b.show(start)
	b.pending.SetText("marker") // a full show writes it again
	tests := []struct {
		name    string
		st      func(s syncer.State) syncer.State
		bar     float64
		pending string
	}{
		{"a step within 1 %", func(s syncer.State) syncer.State { s.Done = 9; return s }, 0, "marker"},
		{"a step to 1 %", func(s syncer.State) syncer.State { s.Done = 10; return s }, 10, "marker"},
		{"an edit queued meanwhile", func(s syncer.State) syncer.State { s.Done, s.Pending = 11, 1; return s }, 11, "1 unsent change"},
		{"another phase", func(s syncer.State) syncer.State {
			s.Done, s.Pending, s.Phase, s.Total = 1, 1, syncer.PhasePush, 3
			return s
		}, 1, "1 unsent change"},
		{"the end", func(s syncer.State) syncer.State { s.Syncing, s.Done, s.Pending = false, 3, 0; return s }, 1, "All changes sent"},
	}
	for _, tc := range tests {
		b.show(tc.st(start))
		if b.progress.Value != tc.bar || b.pending.Text != tc.pending {
			t.Errorf("%s: bar %v, pending %q; want %v, %q", tc.name, b.progress.Value, b.pending.Text, tc.bar, tc.pending)
		}
	}

	// Errors that cannot be compared count as a change (and never panic).
	st := start
	st.LastError = listErr{"down"}
	b.show(st)
	b.pending.SetText("marker")
	st.Done, st.LastError = 1, listErr{"down"}
	b.show(st)
	if b.pending.Text == "marker" {
		t.Error("a state with an uncomparable error was taken for a step")
	}
}
