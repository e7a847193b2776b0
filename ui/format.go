package ui

import "time"

// formatWhen is a time as the status bar shows it: the time today, else
// the date and time.
func formatWhen(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	t = t.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("2 Jan 15:04")
}
