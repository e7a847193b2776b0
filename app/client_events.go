package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// Evidence events: what happened to a sent proposal, kept append-only
// per proposal. Each event's Hash covers the event, the proposal's ID
// and the previous event's hash, so an event edited, removed or moved
// from another proposal breaks the chain (VerifyEvents).

// EventType names an evidence event.
type EventType string

const (
	EventSent             EventType = "Sent"
	EventEmailAccepted    EventType = "EmailAccepted"
	EventEmailFailed      EventType = "EmailFailed"
	EventOpened           EventType = "Opened"
	EventOptionChosen     EventType = "OptionChosen"
	EventAccepted         EventType = "Accepted"
	EventAcceptedInPerson EventType = "AcceptedInPerson"
	EventDeclined         EventType = "Declined"
	EventExpired          EventType = "Expired"
	EventLinkReplaced     EventType = "LinkReplaced"
)

// EventTypes lists every event type, for the OpenAPI document.
var EventTypes = []EventType{EventSent, EventEmailAccepted, EventEmailFailed, EventOpened,
	EventOptionChosen, EventAccepted, EventAcceptedInPerson, EventDeclined, EventExpired, EventLinkReplaced}

// Event is one evidence event as GET .../events returns it.
type Event struct {
	// ID is the event's place in its proposal's chain, from 1.
	ID   int64     `json:"id"`
	Type EventType `json:"type"`
	// At is the server's UTC time.
	At Time `json:"at"`
	// IP and UserAgent are the client's, for events a request caused.
	IP        string `json:"ip"`
	UserAgent string `json:"userAgent"`
	// Actor is "client", "user:<id> <email>" or "system".
	Actor        string `json:"actor"`
	SnapshotHash string `json:"snapshotHash"`
	PrevHash     string `json:"prevHash"`
	Hash         string `json:"hash"`
	// Data holds the type's details: linkId always, and signerName,
	// consentText, consentVersion, reason, areaId, areaOptionId,
	// sentTo, mailNote as the type has them.
	Data map[string]string `json:"data"`
}

// Actors of events that no signed-in user caused.
const (
	ActorClient = "client"
	ActorSystem = "system"
)

// ActorUser names a dealer's user as an event's actor.
func ActorUser(u User) string { return "user:" + strconv.FormatInt(u.ID, 10) + " " + u.Email }

// eventDomain separates these hashes from any other SHA-256 of ours.
const eventDomain = "proposaldesk event v1\n"

// EventHash is the hash an event must carry: SHA-256 over the domain,
// the proposal's ID and the event's JSON with Hash empty (PrevHash
// included, so the chain is covered).
func EventHash(proposalID int64, e Event) (string, error) {
	e.Hash = ""
	b, err := json.Marshal(e)
	if err != nil {
		return "", fmt.Errorf("encode event %d: %w", e.ID, err)
	}
	h := sha256.New()
	h.Write([]byte(eventDomain))
	h.Write(strconv.AppendInt(nil, proposalID, 10))
	h.Write([]byte{'\n'})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ChainEvent fills in e's place after prev (nil: the first event): ID,
// PrevHash and Hash.
func ChainEvent(proposalID int64, prev *Event, e Event) (Event, error) {
	e.ID, e.PrevHash = 1, ""
	if prev != nil {
		e.ID, e.PrevHash = prev.ID+1, prev.Hash
	}
	e.At = At(e.At.Time)
	if e.Data == nil {
		e.Data = map[string]string{}
	}
	h, err := EventHash(proposalID, e)
	if err != nil {
		return Event{}, err
	}
	e.Hash = h
	return e, nil
}

// VerifyEvents checks a proposal's chain: IDs 1, 2, 3…, each PrevHash
// the hash before it, each Hash its own. It names the first event that
// does not hold.
func VerifyEvents(proposalID int64, events []Event) error {
	prev := ""
	for i, e := range events {
		if e.ID != int64(i+1) {
			return fmt.Errorf("event %d is at place %d: an event was removed or inserted", e.ID, i+1)
		}
		if e.PrevHash != prev {
			return fmt.Errorf("event %d does not follow event %d: the chain was changed", e.ID, i)
		}
		h, err := EventHash(proposalID, e)
		if err != nil {
			return err
		}
		if h != e.Hash {
			return fmt.Errorf("event %d was changed after it was recorded", e.ID)
		}
		prev = e.Hash
	}
	return nil
}

// ConsentVersion names the wording of ConsentText; a new wording gets a
// new version, and each acceptance stores both.
const ConsentVersion = "2026-11-1"

// ConsentText is what the client agrees to, beside the box they tick,
// before they accept.
const ConsentText = "I agree to do business electronically: the full name I type here is my signature on this proposal, " +
	"with the same effect as a handwritten one, and I may download the signed proposal and its certificate to keep."

// Webhook is the webhook event an evidence event causes, if any: each
// client decision (and the send, the opening, the mail's failure) is
// told to subscribers under its own name. The status a decision moves
// the proposal to is part of that event's data; proposal.status_changed
// is for a user's status edits, so one change causes one event.
func (t EventType) Webhook() (WebhookEventType, bool) {
	switch t {
	case EventSent:
		return EventProposalSent, true
	case EventOpened:
		return EventProposalViewed, true
	case EventAccepted, EventAcceptedInPerson:
		return EventProposalAccepted, true
	case EventDeclined:
		return EventProposalDeclined, true
	case EventExpired:
		return EventProposalExpired, true
	case EventEmailFailed:
		return EventProposalEmailFailed, true
	}
	return "", false
}
