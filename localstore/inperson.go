package localstore

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/report"
)

// In-person acceptances taken on this laptop. The edit itself is queued
// like any other (app.AcceptInPerson); beside it the store keeps what
// the client signed and the evidence, in the same transaction as the
// edit, for as long as the salesperson does not dismiss it:
//
//   - so the signed PDF can be made on the laptop at once, offline, and
//     again later (SignedPDF);
//   - so a refusal never loses the signature: when the server answers
//     ProposalChanged (or a replay on a newer server copy finds the
//     client view changed), the edit fails, the local proposal returns
//     to the server's version, and the signer, the signature and the
//     chosen options stay here, beside the server's current proposal,
//     until the salesperson dismisses them (DismissAcceptance).
//
// Each acceptance is kept under the outbox entry that sends it, not
// under its proposal: after a refusal the client may sign the proposal
// as it is now, and the first signature stays beside the second until
// it is dismissed.
//
// The bucket is made by its first write, so no migration adds it and
// older programs ignore it:
//
//	acceptances   outbox seq → Acceptance (JSON)
var bucketAcceptances = []byte("acceptances")

// Acceptance is an in-person acceptance as this laptop took it.
type Acceptance struct {
	ProposalID int64 `json:"proposalId"`
	// Seq is the outbox entry that sends it.
	Seq uint64 `json:"seq"`
	// Decision is the edit's evidence (app.ClientDecision): the signer,
	// the signature, the device time and ID, the hash, the choices.
	Decision app.DecisionEvidence `json:"decision"`
	// Seen is the proposal as the client saw it when signing (the local
	// view before the acceptance), the one the edit's hash is of.
	Seen *app.Proposal `json:"seen"`
	// Taken is this laptop's clock when it stored the acceptance.
	Taken time.Time `json:"taken"`
}

// AcceptanceState is where an acceptance taken here stands.
type AcceptanceState string

const (
	// AcceptanceQueued: not yet taken by the server.
	AcceptanceQueued AcceptanceState = "queued"
	// AcceptanceRecorded: the server took it; its copy is the evidence
	// of record.
	AcceptanceRecorded AcceptanceState = "recorded"
	// AcceptanceChanged: the proposal changed on the server after the
	// client signed; nothing was accepted.
	AcceptanceChanged AcceptanceState = "changed"
	// AcceptanceRefused: refused for another reason (the proposal was
	// decided meanwhile, a permission); Entry says why.
	AcceptanceRefused AcceptanceState = "refused"
)

// ProposalChangedWords is what the salesperson reads when the server's
// proposal is no longer the one the client signed.
const ProposalChangedWords = "The proposal changed on the server after the client signed: review the changes and ask the client again."

// AcceptanceStatus is an acceptance with its state now.
type AcceptanceStatus struct {
	Acceptance
	State AcceptanceState
	// Entry is the outbox entry while it is there (nil once the server
	// took it or it was dismissed).
	Entry *Entry
	// Server is the server's copy of the proposal as the last sync
	// read it (nil before the first).
	Server *app.Proposal
}

// The evidence's fields, as app.AcceptInPerson's Evidence names them.
func (a *Acceptance) Signer() string         { return a.Decision.Data["signerName"] }
func (a *Acceptance) SignatureImage() string { return a.Decision.Data["signaturePng"] }
func (a *Acceptance) DeviceTime() string     { return a.Decision.Data["deviceTime"] }
func (a *Acceptance) DeviceID() string       { return a.Decision.Data["deviceId"] }
func (a *Acceptance) ViewHash() string       { return a.Decision.Data["viewHash"] }

// putAcceptance keeps the client's decision m made on seen, queued as
// seq.
func (t *txn) putAcceptance(m app.ClientDecision, seen *app.Proposal, seq uint64, now time.Time) error {
	b, err := t.tx.CreateBucketIfNotExists(bucketAcceptances)
	if err != nil {
		return err
	}
	return putJSON(b, seqKey(seq), Acceptance{ProposalID: m.ProposalID(), Seq: seq, Decision: m.Evidence(), Seen: seen, Taken: now})
}

// eachAcceptance calls fn with every acceptance kept, oldest first.
func (t *txn) eachAcceptance(fn func(a Acceptance) error) error {
	b := t.tx.Bucket(bucketAcceptances)
	if b == nil {
		return nil
	}
	return b.ForEach(func(_, v []byte) error {
		var a Acceptance
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		return fn(a)
	})
}

// acceptance reads the newest acceptance of proposal id (resolved): the
// one taken after any that were refused.
func (t *txn) acceptance(id int64) (Acceptance, bool, error) {
	var out Acceptance
	found := false
	id = t.resolve(id)
	err := t.eachAcceptance(func(a Acceptance) error {
		if a.ProposalID == id {
			out, found = a, true
		}
		return nil
	})
	return out, found, err
}

// acceptanceSentBy reads the acceptance queued as seq.
func (t *txn) acceptanceSentBy(seq uint64) (Acceptance, bool, error) {
	var a Acceptance
	b := t.tx.Bucket(bucketAcceptances)
	if b == nil {
		return a, false, nil
	}
	ok, err := getJSON(b, seqKey(seq), &a)
	return a, ok, err
}

// status works out where a stands from its entry and the server copy.
func (t *txn) status(a Acceptance) (AcceptanceStatus, error) {
	st := AcceptanceStatus{Acceptance: a, State: AcceptanceRecorded}
	rec, ok, err := t.record(a.ProposalID)
	if err != nil {
		return st, err
	}
	if ok {
		st.Server = rec.Server
	}
	e, err := t.entry(a.Seq)
	if app.KindOf(err) == app.KindNotFound {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.Entry = e
	switch {
	case e.State == StateFailed && e.ErrorKind == app.KindProposalChanged:
		st.State = AcceptanceChanged
	case e.State == StateFailed || e.State == StateConflict:
		st.State = AcceptanceRefused
	default:
		st.State = AcceptanceQueued
	}
	return st, nil
}

// AcceptanceOf is the newest in-person acceptance taken here of a
// proposal: the one its signed PDF is of.
func (s *Store) AcceptanceOf(proposalID int64) (AcceptanceStatus, bool, error) {
	return s.acceptanceStatus(func(t *txn) (Acceptance, bool, error) { return t.acceptance(proposalID) })
}

// AcceptanceSentBy is the in-person acceptance queued as outbox entry
// seq, while it is kept.
func (s *Store) AcceptanceSentBy(seq uint64) (AcceptanceStatus, bool, error) {
	return s.acceptanceStatus(func(t *txn) (Acceptance, bool, error) { return t.acceptanceSentBy(seq) })
}

func (s *Store) acceptanceStatus(find func(t *txn) (Acceptance, bool, error)) (AcceptanceStatus, bool, error) {
	var out AcceptanceStatus
	var found bool
	err := s.view(func(t *txn) error {
		a, ok, err := find(t)
		if err != nil || !ok {
			return err
		}
		found = true
		out, err = t.status(a)
		return err
	})
	return out, found, err
}

// Acceptances are the in-person acceptances this laptop holds, newest
// first, several of one proposal when the client signed again after a
// refusal.
func (s *Store) Acceptances() ([]AcceptanceStatus, error) {
	var out []AcceptanceStatus
	err := s.view(func(t *txn) error {
		return t.eachAcceptance(func(a Acceptance) error {
			st, err := t.status(a)
			if err != nil {
				return err
			}
			out = append(out, st)
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}

// DismissAcceptance forgets the acceptance queued as outbox entry seq:
// the entry, when still in the outbox, is discarded (with the edits
// waiting for it), and the signature and what the client saw are
// deleted. Other acceptances of the same proposal stay. The salesperson
// does this once they have reviewed a refused one.
func (s *Store) DismissAcceptance(ctx context.Context, seq uint64) error {
	var queued bool
	err := s.update(ctx, func(t *txn) error {
		if _, ok, err := t.acceptanceSentBy(seq); err != nil || !ok {
			return err
		}
		if _, err := t.entry(seq); err == nil {
			queued = true
		}
		return t.b(bucketAcceptances).Delete(seqKey(seq))
	})
	if err != nil || !queued {
		return err
	}
	return s.Discard(ctx, seq)
}

// remapAcceptance follows from → to in the acceptances: an acceptance
// of a proposal made offline is found under the server's ID.
func (t *txn) remapAcceptance(from, to int64) error {
	b := t.tx.Bucket(bucketAcceptances)
	if b == nil {
		return nil
	}
	var moved []Acceptance
	err := t.eachAcceptance(func(a Acceptance) error {
		if a.ProposalID == from {
			// Only the proposal: the choices name parts of Seen, the
			// proposal as it was signed, whose IDs stay as they were
			// then.
			a.ProposalID = to
			moved = append(moved, a)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Written after the walk: bbolt's ForEach may not modify its bucket.
	for _, a := range moved {
		if err := putJSON(b, seqKey(a.Seq), a); err != nil {
			return err
		}
	}
	return nil
}

// LaptopCopyNote is the certificate's line on the laptop's copy of the
// signed PDF: the server's copy, after the sync, is the evidence.
const LaptopCopyNote = "Made on the laptop before sync: the server's copy of this PDF, after the sync, is the evidence of record."

// SignedPDF writes the client PDF of what the client signed (the view
// they saw, their chosen options) with the certificate page, from what
// this laptop holds: no network needed.
func (a *Acceptance) SignedPDF(w io.Writer) error {
	if a.Seen == nil {
		return fmt.Errorf("localstore: the acceptance of proposal %d has no signed view", a.ProposalID)
	}
	chosen := app.WithChoices(app.ClientSnapshot(a.Seen), a.Decision.Choices)
	view := app.DetailView(chosen, app.ViewOptions{})
	doc := report.FromProposal(&view)
	at, err := time.Parse(time.RFC3339, a.DeviceTime())
	if err != nil {
		at = a.Taken
	}
	d := a.Decision.Data
	cert := report.Certificate{
		Decision: "Accepted", Signer: a.Signer(), At: at,
		UserAgent: "In person on device " + a.DeviceID() + "; device clock " + a.DeviceTime() +
			". " + LaptopCopyNote,
		SnapshotHash: a.ViewHash(), ConsentText: d["consentText"], ConsentVersion: d["consentVersion"],
		Signature: app.SignaturePNG(d),
	}
	if err := report.Signed(w, &doc, cert, report.Options{}); err != nil {
		return fmt.Errorf("render the signed PDF: %w", err)
	}
	return nil
}
