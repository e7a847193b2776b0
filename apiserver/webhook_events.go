package apiserver

import (
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
)

// recordEvents records the webhook events of an edit in its own
// transaction, so a committed change always has them and a rolled-back
// one never does. Which events an edit causes is the edit's own word
// (app.EventsOf); who receives them is the account's enabled
// subscriptions at that moment. The body is rendered here, once: every
// attempt sends the same bytes, so the signature and a receiver's
// duplicate check hold across retries.
func recordEvents(tx store.Tx, now time.Time, m app.Mutation, p *app.Proposal) error {
	return webhook.Record(tx, now, app.EventsOf(m), p)
}
