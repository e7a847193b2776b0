// Package apiclient is the signed client of the Proposal API: requests
// signed with proposaldesk/app/signing, the clock offset learned from the
// server's Date headers, retries with backoff, error bodies mapped to
// *app.Error, the read endpoints, the key exchange, bulk export and
// documents.
//
// It is shared by the desktop's sync package, which adds the proposal
// writes and the keyring on top of it, and by the server's export
// command. It must import neither localstore nor the OS keyring, so the
// server binary links no desktop code (cmd/server's deps test checks).
//
// Errors are classified so callers decide retry-or-record from kinds,
// never from message text: an *APIError carries the server's *app.Error
// (app.KindOf works on it), ErrUnreachable marks a network failure,
// ErrCertificate a TLS certificate problem and ErrClockSkew a clock the
// server still refuses after correction.
package apiclient
