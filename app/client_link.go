package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Sending a proposal to the client and the client's decision. The rules
// live here, as pure functions of the proposal, its link and the clock;
// the server keeps the token, the frozen snapshot and the evidence
// events, and calls these to decide.

// ClientLink is the proposal's current link to the client's page: the
// one a send made last. The link's token is never stored, only its
// SHA-256 (TokenHash), so a copy of the database or of a laptop's store
// cannot open the page.
type ClientLink struct {
	// ID names the link in the evidence events (random, hex).
	ID string `json:"id"`
	// TokenHash is the hex SHA-256 of the token.
	TokenHash string `json:"tokenHash"`
	SentDate  Time   `json:"sentDate"`
	// ExpiresOn is the instant the link stops deciding (the end of the
	// day the sender chose, UTC).
	ExpiresOn Time     `json:"expiresOn"`
	SentTo    []string `json:"sentTo"`
	Message   string   `json:"message"`
	// SnapshotHash is the hex SHA-256 of the frozen client snapshot
	// (ClientSnapshotJSON) the link shows.
	SnapshotHash string `json:"snapshotHash"`
	// Choices are the client's picks so far: area ID to option ID, for
	// areas offering several options.
	Choices map[int64]int64 `json:"choices,omitempty"`
	// Mail is what became of the mail carrying the link; MailNote says
	// it in words (why a mail server refused it, or that none is set).
	Mail     MailStatus `json:"mail"`
	MailNote string     `json:"mailNote"`
}

// MailStatus is what became of the mail carrying a client link.
type MailStatus string

const (
	// MailNotSent: no mail server is configured; the dealer passes the
	// link on themselves.
	MailNotSent  MailStatus = "NotSent"
	MailQueued   MailStatus = "Queued"
	MailAccepted MailStatus = "Accepted"
	MailFailed   MailStatus = "Failed"
)

// ClientLinkView is the detail's clientLink (an extension): null before
// the first send. URL is set only in the answer to the send itself,
// the one moment the token exists.
type ClientLinkView struct {
	URL          *string    `json:"url"`
	LinkID       string     `json:"linkId"`
	SentDate     Time       `json:"sentDate"`
	ExpiresOn    Time       `json:"expiresOn"`
	SentTo       []string   `json:"sentTo"`
	SnapshotHash string     `json:"snapshotHash"`
	Mail         MailStatus `json:"mail"`
	MailNote     string     `json:"mailNote"`
}

// ClientLinkViewOf is the detail's clientLink of a proposal (nil before
// the first send).
func ClientLinkViewOf(l *ClientLink) *ClientLinkView {
	if l == nil {
		return nil
	}
	return &ClientLinkView{LinkID: l.ID, SentDate: l.SentDate, ExpiresOn: l.ExpiresOn,
		SentTo: slices.Clone(l.SentTo), SnapshotHash: l.SnapshotHash, Mail: l.Mail, MailNote: l.MailNote}
}

func (l *ClientLink) clone() *ClientLink {
	if l == nil {
		return nil
	}
	c := *l
	c.SentTo = slices.Clone(l.SentTo)
	c.Choices = maps.Clone(l.Choices)
	return &c
}

// MaxSendMessage bounds the message sent with a link, in characters.
const MaxSendMessage = 2000

// DefaultLinkDays is how long a link decides when the sender names no
// date.
const DefaultLinkDays = 30

// sendable are the statuses a proposal may be sent from.
var sendable = map[Status]bool{
	StatusDraft: true, StatusSubmitted: true, StatusViewedByClient: true,
	StatusDelayed: true, StatusEmailFailed: true, StatusExpired: true,
}

// CheckSend says whether p may be sent now: it needs a customer and a
// sendable status.
func CheckSend(p *Proposal) error {
	if !sendable[p.Status] {
		return Errorf(KindInvalidTransition,
			"A proposal that is %s cannot be sent; move it to Draft first if the client should see it.", p.Status.Label())
	}
	if p.Customer == nil {
		return Errorf(KindNoContactAssigned, "Assign a customer to the proposal before sending it.")
	}
	return nil
}

// ClientSnapshot is what the client is shown of p: the proposal without
// costs, installer notes, internal notes, change orders or payment
// requests, and without edit bookkeeping. Its JSON (ClientSnapshotJSON)
// is what a send freezes and hashes.
func ClientSnapshot(p *Proposal) *Proposal {
	c := p.Clone()
	c.InternalNotes = ""
	c.ChangeOrders = nil
	c.PaymentRequests = nil
	c.FieldVersions = nil
	c.ClientLink = nil
	c.Version = 0
	c.Archived = false
	for ai := range c.Areas {
		for oi := range c.Areas[ai].Options {
			o := &c.Areas[ai].Options[oi]
			o.InstallerDescription = ""
			for ii := range o.Items {
				o.Items[ii].Cost = nil
				o.Items[ii].Supplier = ""
			}
		}
	}
	return c
}

// ClientSnapshotJSON freezes the client snapshot of p: its bytes and
// their hex SHA-256.
func ClientSnapshotJSON(p *Proposal) (doc []byte, hash string, err error) {
	doc, err = ClientSnapshot(p).AppendJSON(nil)
	if err != nil {
		return nil, "", fmt.Errorf("encode the client snapshot: %w", err)
	}
	sum := sha256.Sum256(doc)
	return doc, hex.EncodeToString(sum[:]), nil
}

// ReadClientSnapshot decodes frozen snapshot bytes, checking them
// against the hash they were frozen with.
func ReadClientSnapshot(doc []byte, hash string) (*Proposal, error) {
	sum := sha256.Sum256(doc)
	if hex.EncodeToString(sum[:]) != hash {
		return nil, fmt.Errorf("client snapshot %s: stored bytes do not match their hash", hash)
	}
	var p Proposal
	if err := json.Unmarshal(doc, &p); err != nil {
		return nil, fmt.Errorf("client snapshot %s: %w", hash, err)
	}
	return &p, nil
}

// WithChoices is the snapshot as the client sees it with their picks:
// in each area with a choice, the chosen option Selected and the others
// Draft, so that Summarize counts the chosen one. Choices of areas or
// options the snapshot lacks are ignored.
func WithChoices(snap *Proposal, choices map[int64]int64) *Proposal {
	c := snap.Clone()
	for ai := range c.Areas {
		a := &c.Areas[ai]
		id, ok := choices[a.ID]
		if !ok || !slices.ContainsFunc(a.Options, func(o Option) bool { return o.ID == id }) {
			continue
		}
		for oi := range a.Options {
			if a.Options[oi].ID == id {
				a.Options[oi].Status = OptionSelected
			} else {
				a.Options[oi].Status = OptionDraft
			}
		}
	}
	return c
}

// CheckChoice says whether the client may pick option in area of the
// snapshot: the area must offer it among several.
func CheckChoice(snap *Proposal, areaID, optionID int64) error {
	a, ok := snap.Area(areaID)
	if !ok {
		return Invalid("AreaId", "is not an area of this proposal")
	}
	if !slices.ContainsFunc(a.Options, func(o Option) bool { return o.ID == optionID }) {
		return Invalid("AreaOptionId", "is not an option of the area %q", a.Name)
	}
	return nil
}

// LinkState is what a client link can do now.
type LinkState string

const (
	// LinkOpen: the client may choose, accept or decline.
	LinkOpen LinkState = "Open"
	// LinkReplaced: a later send made a new link.
	LinkReplaced LinkState = "Replaced"
	// LinkExpired: ExpiresOn passed undecided.
	LinkExpired LinkState = "Expired"
	// LinkAccepted, LinkDeclined: the client (or the office) decided.
	LinkAccepted LinkState = "Accepted"
	LinkDeclined LinkState = "Declined"
	// LinkClosed: the office moved the proposal out of the statuses a
	// client decides in (back to Draft, Delayed, Completed…).
	LinkClosed LinkState = "Closed"
)

// StateOfLink decides what the link named linkID can do on p at now.
// The order matters: a replaced link says so even if the proposal was
// decided on the new one; a decision stands after the date passes.
func StateOfLink(p *Proposal, linkID string, now time.Time) LinkState {
	l := p.ClientLink
	switch {
	case l == nil || l.ID != linkID:
		return LinkReplaced
	case p.Status == StatusAccepted:
		return LinkAccepted
	case p.Status == StatusDeclined:
		return LinkDeclined
	case p.Status == StatusExpired:
		return LinkExpired
	case p.Status != StatusSubmitted && p.Status != StatusViewedByClient && p.Status != StatusEmailFailed:
		return LinkClosed
	case !now.Before(l.ExpiresOn.Time):
		return LinkExpired
	}
	return LinkOpen
}

// ExpiryDue reports whether the scheduler should move p to Expired at
// now: its link is past ExpiresOn and the client has not decided.
func ExpiryDue(p *Proposal, now time.Time) bool {
	l := p.ClientLink
	if l == nil || now.Before(l.ExpiresOn.Time) {
		return false
	}
	switch p.Status {
	case StatusSubmitted, StatusViewedByClient, StatusEmailFailed:
		return true
	}
	return false
}

// OpenCoalesce is how long after a recorded open another open of the
// same proposal is not recorded again: a reload, the page after a
// choice, a viewer's many tabs. Each recorded open is a write.
const OpenCoalesce = time.Minute

// OpenToRecord says whether a client's open of p at now is recorded: the
// first one, the one that moves Submitted to ViewedByClient, and then at
// most one per OpenCoalesce.
func OpenToRecord(p *Proposal, now time.Time) bool {
	last := p.ClientLastOpenedDate
	return p.Status == StatusSubmitted || last.IsZero() || now.Sub(last.Time) >= OpenCoalesce || now.Before(last.Time)
}

// ClientOpened records a client's open of p at now: clientLastOpenedDate,
// and the first open of a Submitted proposal moves it to ViewedByClient
// (first reports that move).
func ClientOpened(p *Proposal, now time.Time) (first bool) {
	p.ClientLastOpenedDate = At(now)
	if p.Status == StatusSubmitted {
		p.Status = StatusViewedByClient
		return true
	}
	return false
}

// ClientAccepted records the client's acceptance at now on p, whose
// client saw snap with choices: the proposal is Accepted, and in each
// area the chosen option (the counted one where the client picked
// none) is Selected and the others Declined.
func ClientAccepted(p, snap *Proposal, choices map[int64]int64, now time.Time) {
	chosen := WithChoices(snap, choices)
	for ai := range chosen.Areas {
		ca := &chosen.Areas[ai]
		pick := CountedOption(ca)
		a, ok := p.Area(ca.ID)
		if !ok || pick == nil {
			continue
		}
		for oi := range a.Options {
			if a.Options[oi].ID == pick.ID {
				a.Options[oi].Status = OptionSelected
			} else {
				a.Options[oi].Status = OptionDeclined
			}
		}
	}
	p.Status = StatusAccepted
	p.ClientLastDecisionDate = At(now)
}

// ClientDeclined records the client's refusal at now.
func ClientDeclined(p *Proposal, now time.Time) {
	p.Status = StatusDeclined
	p.ClientLastDecisionDate = At(now)
}
