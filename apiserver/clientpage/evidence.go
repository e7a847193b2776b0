package clientpage

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
	"proposaldesk/app/report"
)

// Requester is who caused an event: the client's address and browser,
// or a dealer's user.
type Requester struct {
	IP, UserAgent, Actor string
}

// Record appends an event of the proposal's current link (or of the
// link named in data) to its chain, at now.
func Record(tx store.Tx, p *app.Proposal, typ app.EventType, who Requester, now time.Time, data map[string]string) (app.Event, error) {
	snap := ""
	if l := p.ClientLink; l != nil {
		snap = l.SnapshotHash
	}
	return record(tx, p, typ, who, now, snap, data, true)
}

// record appends the event about snapshot snap; notify tells
// subscribers of it (an edit's own events tell them otherwise).
func record(tx store.Tx, p *app.Proposal, typ app.EventType, who Requester, now time.Time, snap string, data map[string]string, notify bool) (app.Event, error) {
	if data == nil {
		data = map[string]string{}
	}
	if l := p.ClientLink; l != nil && data["linkId"] == "" {
		data["linkId"] = l.ID
	}
	e, err := tx.AppendClientEvent(p.ID, app.Event{Type: typ, At: app.At(now), IP: who.IP, UserAgent: who.UserAgent,
		Actor: who.Actor, SnapshotHash: snap, Data: data})
	if err != nil {
		return e, err
	}
	// Subscribers hear of it in the same transaction (p as stored).
	if w, ok := typ.Webhook(); ok && notify {
		err = webhook.Record(tx, now, []app.WebhookEventType{w}, p)
	}
	return e, err
}

// EncodeChoices writes an area→option map as "area:option,…" in area
// order, for an event's data.
func EncodeChoices(choices map[int64]int64) string {
	var parts []string
	for a, o := range choices {
		parts = append(parts, strconv.FormatInt(a, 10)+":"+strconv.FormatInt(o, 10))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func decodeChoices(s string) map[int64]int64 {
	out := map[int64]int64{}
	for _, part := range strings.Split(s, ",") {
		a, o, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		ai, err1 := strconv.ParseInt(a, 10, 64)
		oi, err2 := strconv.ParseInt(o, 10, 64)
		if err1 == nil && err2 == nil {
			out[ai] = oi
		}
	}
	return out
}

// Decision is the evidence of a client's decision, ready to print.
type Decision struct {
	Event    app.Event
	Document report.Document
	Cert     report.Certificate
}

// FindDecision finds the decision on p's current link and everything
// its signed PDF prints: the snapshot decided on with the client's
// choices, and the certificate. found is false before a decision.
func FindDecision(tx store.Tx, p *app.Proposal) (d Decision, found bool, err error) {
	// An acceptance in person may come with no link at all (the
	// proposal was never sent); it carries the link current then.
	link := ""
	if p.ClientLink != nil {
		link = p.ClientLink.ID
	}
	events, err := tx.ClientEvents(p.ID)
	if err != nil {
		return d, false, err
	}
	i := slices.IndexFunc(events, func(e app.Event) bool {
		switch e.Type {
		case app.EventAccepted, app.EventDeclined:
			return link != "" && e.Data["linkId"] == link
		case app.EventAcceptedInPerson:
			return e.Data["linkId"] == link
		}
		return false
	})
	if i < 0 {
		return d, false, nil
	}
	e := events[i]
	doc, err := tx.ClientSnapshot(p.ID, e.SnapshotHash)
	if err != nil {
		return d, false, err
	}
	snap, err := app.ReadClientSnapshot(doc, e.SnapshotHash)
	if err != nil {
		return d, false, err
	}
	chosen := app.WithChoices(snap, decodeChoices(e.Data["choices"]))
	view := app.DetailView(chosen, app.ViewOptions{})
	decision, agent := "Accepted", e.UserAgent
	switch e.Type {
	case app.EventDeclined:
		decision = "Declined"
	case app.EventAcceptedInPerson:
		agent = inPersonAgent(e) // the certificate's "browser" line

	}
	return Decision{
		Event:    e,
		Document: report.FromProposal(&view),
		Cert: report.Certificate{
			Decision: decision, Signer: e.Data["signerName"], At: e.At.Time, IP: e.IP, UserAgent: agent,
			LinkID: e.Data["linkId"], SnapshotHash: e.SnapshotHash, ConsentText: e.Data["consentText"],
			ConsentVersion: e.Data["consentVersion"], Reason: e.Data["reason"],
			ChainHead: e.Hash, EventCount: int(e.ID), Signature: app.SignaturePNG(e.Data),
		},
	}, true, nil
}

// PDF renders the signed PDF: the client document of the snapshot
// decided on and the certificate page.
func (d *Decision) PDF() ([]byte, error) {
	var buf bytes.Buffer
	if err := report.Signed(&buf, &d.Document, d.Cert, report.Options{}); err != nil {
		return nil, fmt.Errorf("render the signed PDF: %w", err)
	}
	return buf.Bytes(), nil
}
