// Package syncer is the desktop's side of the wire: the signed API client
// (Client), the connection settings it is built from (Connection) and the
// OS keyring that keeps a user's API key between sessions (Keyring).
//
// The folder is named sync but the package is declared syncer so it never
// shadows the standard library; import it as
//
//	syncer "proposaldesk/sync"
//
// Every request is signed with proposaldesk/app/signing, the code the
// server verifies with. Errors are classified so the sync engine can
// decide retry-or-record from kinds, never from message text: an
// *APIError carries the server's *app.Error (app.KindOf works on it),
// ErrUnreachable marks a network failure, ErrCertificate a TLS
// certificate problem and ErrClockSkew a clock the server still refuses
// after correction.
package syncer
