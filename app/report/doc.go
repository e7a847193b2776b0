// Package report renders a proposal or change order as a PDF: the
// client-facing document (sell prices, totals, tax, recurring services,
// payment schedule, terms) and the installer's work order (location,
// areas, options, items with quantities and installer notes, no prices).
//
// It is pure Go over the API's views: the server renders documents for
// the API and the desktop renders the same documents offline. Fonts are
// the Go fonts (golang.org/x/image/font/gofont), embedded as subsets, so
// accented Latin, Greek and Cyrillic text prints as written; a character
// the fonts lack prints as "?". Nothing is fetched: a dealer logo is
// drawn only when the caller hands over its bytes (see LogoFromURL).
package report
