package ui

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	syncer "proposaldesk/sync"
)

// The first sync of a new computer (or a new user on it) downloads every
// proposal, contact and catalog item before the list has anything to
// show: the status bar and the list say "Syncing… N of M" then, not
// "Offline" and "No proposals yet".

// firstSync reports whether st is a first sync under way: nothing synced
// on this computer yet, and no failure to say instead.
func firstSync(st syncer.State) bool {
	return st.Syncing && st.LastSync.IsZero() && (st.Online || st.LastError == nil)
}

// phaseWhat is what a sync phase counts.
var phaseWhat = map[syncer.Phase]string{
	syncer.PhasePush:    "changes sent",
	syncer.PhasePull:    "proposals",
	syncer.PhasePeople:  "contacts",
	syncer.PhaseCatalog: "catalog items",
}

// syncingText says how far a sync is: "Syncing… 40 of 2,000 proposals",
// or "Syncing…" before it knows how much there is.
func syncingText(st syncer.State) string {
	if st.Total <= 0 {
		return "Syncing…"
	}
	text := fmt.Sprintf("Syncing… %s of %s", thousands(min(st.Done, st.Total)), thousands(st.Total))
	if w := phaseWhat[st.Phase]; w != "" {
		text += " " + w
	}
	return text
}

// connectionWords are the status bar's first words: how far a first
// sync is, else online or offline.
func connectionWords(st syncer.State) (string, widget.Importance) {
	switch {
	case firstSync(st):
		return "⟳ " + syncingText(st), widget.MediumImportance
	case st.Online:
		return "● Online", widget.SuccessImportance
	}
	return "○ Offline", widget.LowImportance
}
