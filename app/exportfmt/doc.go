// Package exportfmt writes proposals as export files: CSV (one file of
// proposals, one of line items; RFC 4180, UTF-8) and JSON Lines (the full
// proposal detail, one per line, exactly as the API returns it).
//
// It works on the API's views (app.ProposalDetail), so an export shows
// exactly the figures and the cost visibility of the API, and it is pure:
// the server streams it to a response and the desktop can write the same
// files offline from its local store.
package exportfmt
