package ui

import (
	"strings"
	"time"

	"proposaldesk/app"
)

// formatMoney shows an amount with its currency symbol and thousands
// separators: $12,345.67.
func formatMoney(m app.Money, c app.Currency) string {
	s := m.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := currencySymbol(c) + b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "−" + out
	}
	return out
}

func currencySymbol(c app.Currency) string {
	if c.Symbol != "" {
		return c.Symbol
	}
	if c.Code == "" || c.Code == "USD" {
		return "$"
	}
	return c.Code + " "
}

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
