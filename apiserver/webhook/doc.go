// Package webhook delivers the account's events to its subscribers by
// the Standard Webhooks rules: signed, retried on a schedule, refused
// any address inside the server's own network. The queue is the store's
// (store.Webhooks), so a delivery survives restarts; the decisions
// (when to try again, when to give up) are pure functions.
package webhook
