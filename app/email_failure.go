package app

import (
	"strings"
	"time"
)

// EmailFailure is why the mail carrying the client's link did not go
// out: the mail server refused it for good, or it could not be delivered
// for so long that the server gave up. It is kept on the proposal
// (emailFailure, an extension) so the salesperson sees it after a sync.
type EmailFailure struct {
	Reason string `json:"reason"`
	To     string `json:"to"` // the recipients, comma-separated
	At     Time   `json:"at"`
}

func (f *EmailFailure) appendJSON(b []byte) []byte {
	b = appendStringField(b, `{"reason":`, f.Reason)
	b = appendStringField(b, `,"to":`, f.To)
	b = appendTime(b, `,"at":`, f.At)
	return append(b, '}')
}

// RecordEmailFailure is p after the mail about it queued at queuedAt was
// refused for good with f, or false when nothing changes: a mail queued
// before the proposal's last send (lastSubmittedDate) is an old link's,
// and the failure of the mail that went out since is not this one's.
// Otherwise the failure is recorded, and a proposal still waiting for
// the client (Submitted) moves to EmailFailed; one that moved on (viewed
// through a copied link, decided, back to Draft) keeps its status, with
// the failure beside it. Like an edit, the change takes a new version
// and modified date, so every laptop downloads it at its next sync; it
// is the system's, so lastModifiedByUserDate and the user stay.
func RecordEmailFailure(p *Proposal, queuedAt time.Time, f EmailFailure, now time.Time) (*Proposal, bool) {
	if p.LastSubmittedDate.After(At(queuedAt).Time) {
		return nil, false
	}
	next := p.Clone()
	f.At = At(now)
	next.EmailFailure = &f
	if next.ClientLink != nil {
		next.ClientLink.Mail = MailFailed
		next.ClientLink.MailNote = "The mail with the link did not go out: " + f.Reason
	}
	next.Version++
	if next.Status == StatusSubmitted {
		next.Status = StatusEmailFailed
		if next.FieldVersions == nil {
			next.FieldVersions = map[Field]int64{}
		}
		next.FieldVersions[FieldStatus] = next.Version
	}
	next.LastModifiedDate = At(now)
	return next, true
}

// RecordEmailAccepted marks the current link's mail as accepted by the
// mail server: the proposal then says so instead of "queued". Nothing
// changes for a mail of an earlier link (queued before the latest
// send) or when the link's mail is not waiting.
func RecordEmailAccepted(p *Proposal, queuedAt, now time.Time) (*Proposal, bool) {
	l := p.ClientLink
	if l == nil || l.Mail != MailQueued || l.SentDate.After(At(queuedAt).Time) {
		return nil, false
	}
	next := p.Clone()
	next.ClientLink.Mail = MailAccepted
	next.ClientLink.MailNote = "The mail with the link was accepted by the mail server for " + strings.Join(l.SentTo, ", ") + "."
	next.Version++
	next.LastModifiedDate = At(now)
	return next, true
}
