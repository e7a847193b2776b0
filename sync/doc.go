// Package syncer is the desktop's side of the wire: the signed API client
// (Client: sync/apiclient, shared with the server's export command, plus
// the proposal writes), the connection settings it is built from
// (Connection), the OS keyring that keeps a user's API key between
// sessions (Keyring), and the sync Engine that pushes the local outbox
// and pulls the server's changes into the localstore, reporting State to
// the UI.
//
// Engine: edits go through Engine.Edit (and CreateContact,
// CreateLocation), which apply them locally with app's rules, queue
// them, and ask for a sync. Engine.Run syncs in the background (at
// start, every interval, on request, at once on reconnect);
// Engine.Subscribe reports State changes. A sync pushes first (queue
// order, each entry with its idempotency key and If-Match; a 412 takes
// the server's copy and merges field by field; refusals are kept as
// failed entries), then pulls: the contacts with their locations from
// the people changes feed, a page per local commit; the proposals from
// the changes feed, a chunk at a time in a few GET /public/sync/proposals
// requests at once (each proposal made into the copy its detail GETs
// would give: PulledCopy), one local commit per chunk, the new cursor with the last chunk; then
// the catalog's feed. Each feed keeps the server's storeId with its
// cursor: a new one drops that copy and downloads it again.
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
