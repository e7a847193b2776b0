package webhook

import (
	"strconv"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Record records events of types about p (the one place the
// events of other writes, such as the client's decisions, go through).
func Record(tx store.Tx, now time.Time, types []app.WebhookEventType, p *app.Proposal) error {
	wt, ok := tx.(store.WebhookTx)
	if !ok || len(types) == 0 {
		return nil
	}
	targets, err := wt.WebhookTargets()
	if err != nil || len(targets) == 0 {
		return err
	}
	var data []byte
	for _, typ := range types {
		var subs []int64
		for _, t := range targets {
			if t.Wants(typ) {
				subs = append(subs, t.ID)
			}
		}
		if len(subs) == 0 {
			continue
		}
		if data == nil {
			// As an Admin reads it: subscriptions are an Admin's.
			d := app.DetailView(p, app.RoleAdmin.ViewOptions())
			if data, err = d.AppendJSON(nil); err != nil {
				return err
			}
		}
		body := EventBody(typ, now, data)
		if err := wt.AddWebhookEvent(store.WebhookEvent{ProposalID: p.ID, Type: typ, At: now, Body: body}, subs); err != nil {
			return err
		}
	}
	return nil
}

// EventBody is a delivery's body as the contract fixes it,
// {type, timestamp, data}, written out around the detail already
// encoded (json.Marshal would check and copy its 10 KB again).
// data.version is the proposal's sequence: it grows by one with every
// change, so a receiver orders events of one proposal by it (deliveries
// run in parallel and retries may overtake).
func EventBody(typ app.WebhookEventType, at time.Time, data []byte) []byte {
	b := make([]byte, 0, len(data)+96)
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, string(typ))
	b = append(b, `,"timestamp":"`...)
	b = at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","data":`...)
	b = append(b, data...)
	return append(b, '}')
}
