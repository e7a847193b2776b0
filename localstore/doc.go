// Package localstore is the desktop's store: a bbolt file on the laptop
// holding the salesperson's proposals (the last server copy and the local
// view with unsent edits applied), the list index, the directory caches,
// and the durable outbox of edits the sync engine pushes to the server.
//
// Every edit goes through app.Apply, exactly as on the server, and is
// written together with its outbox entry in one transaction, so a crash
// never keeps an edit without the entry that sends it, or the reverse.
package localstore
