// Package app is Proposal Desk's domain core, shared by the server and
// the desktop, in pure Go with no I/O: the proposal model; money,
// quantities and rates as int64 fixed-point with half-away-from-zero
// rounding (never floats); the financial rules (Summarize, and
// CountedOption for which option of an area counts in the totals); the
// JSON views the API returns (DetailView, …) and FormatMoney for people;
// the rules (editable statuses, status moves, area names, option limit,
// permissions); and every write as a Mutation value applied by one
// function, Apply, so server and desktop reach the same verdict.
//
// Errors are *Error values whose Kind is the contract's errorCode.
// Subpackages: signing (the request signature of server and client),
// exportfmt (CSV and JSON Lines exports) and report (the PDFs); taxdata
// holds the US state tax table this package embeds.
package app
