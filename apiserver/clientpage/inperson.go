package clientpage

import (
	"maps"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// RecordDecision chains the evidence of a client's decision taken away
// from their page (an acceptance on the salesperson's laptop), once app
// has applied the edit to seen (the proposal the client saw, as the
// server holds it) giving decided: the client snapshot of seen is
// frozen like a send's, so the signed PDF prints what was signed; the
// event keeps the server's receipt time beside what the edit gives (the
// laptop's clock, recorded, never trusted). Subscribers hear of it from
// the edit's own events, not from here.
func RecordDecision(tx store.Tx, seen, decided *app.Proposal, ev app.DecisionEvidence, who Requester, now time.Time) (app.Event, error) {
	doc, hash, err := app.ClientSnapshotJSON(seen)
	if err != nil {
		return app.Event{}, err
	}
	if err := tx.PutClientSnapshot(seen.ID, hash, doc); err != nil {
		return app.Event{}, err
	}
	data := maps.Clone(ev.Data)
	if data == nil {
		data = map[string]string{}
	}
	data["choices"] = EncodeChoices(ev.Choices)
	data["receivedAt"] = now.UTC().Format(time.RFC3339Nano)
	return record(tx, decided, ev.Type, who, now, hash, data, false)
}

// inPersonAgent says on the certificate where an in-person acceptance
// was signed: the device and its clock, beside the server's receipt.
func inPersonAgent(e app.Event) string {
	return "In person on device " + e.Data["deviceId"] + "; device clock " + e.Data["deviceTime"] +
		"; received by the server " + e.Data["receivedAt"]
}
