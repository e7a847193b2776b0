package app

import "strings"

// FormatMoney is an amount as people read it, on screen and in print:
// the currency's symbol, thousands separators and two decimals,
// "$12,345.67", "-$5.00". A currency without a symbol shows its code
// ("EUR 5.00"); an unset one is USD, the default.
// The minus is ASCII, which every font and text extraction has.
func FormatMoney(m Money, cur Currency) string {
	s := m.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	b.Grow(len(s) + len(whole)/3 + 5)
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(currencyPrefix(cur))
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// currencyPrefix is what FormatMoney writes before the figure.
func currencyPrefix(c Currency) string {
	switch {
	case c.Symbol != "":
		return c.Symbol
	case c.Code == "" || c.Code == USD.Code:
		return USD.Symbol
	}
	return c.Code + " "
}
