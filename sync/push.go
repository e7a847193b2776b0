package syncer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// Push: the outbox goes to the server in queue order. Each entry carries
// its own Idempotency-Key (made once, when it was queued) and, for a
// proposal write, If-Match with the server version its edit was made
// on. An entry is marked sent before it goes out; one still sent after
// a crash or a lost answer is sent again with the same key, so the
// server applies it once and answers as it did the first time.

// maxPreconditionRetries bounds the re-read-and-resend rounds of one
// entry when the proposal keeps changing under it.
const maxPreconditionRetries = 3

// errStopPush ends a push round early; the cause is wrapped.
type stopPush struct{ err error }

func (s *stopPush) Error() string { return s.err.Error() }
func (s *stopPush) Unwrap() error { return s.err }

// ruleKinds are the refusals that settle an entry as failed: sending it
// again would be refused again until the user changes something.
var ruleKinds = map[app.Kind]bool{
	app.KindValidationFailed: true, app.KindAreaNameTaken: true, app.KindOptionLimitReached: true,
	app.KindPermissionDenied: true, app.KindNotFound: true, app.KindProposalLocked: true,
	app.KindNoContactAssigned: true, app.KindInvalidTransition: true,
	app.KindIdempotencyKeyReused: true, app.KindPayloadTooLarge: true,
	app.KindUnsupportedMediaType: true, app.KindInvalidPaging: true,
	app.KindProposalChanged: true,
}

// push sends every sendable entry. It returns nil when each was settled
// or deliberately skipped (blocked, waiting on a skipped create), and an
// error when the round stopped (server unreachable, 5xx, signed out).
func (e *Engine) push(ctx context.Context) error {
	entries, err := e.st.Pending(0)
	if err != nil {
		return err
	}
	total := len(entries)
	e.progress(PhasePush, 0, total)
	// unsettled: entries of this round not acknowledged; an entry that
	// depends on one of them waits. stopped: proposals whose queue order
	// must hold (an earlier entry could not be settled).
	unsettled := map[uint64]bool{}
	stopped := map[int64]bool{}
	for i, snap := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := e.pushEntry(ctx, snap.Seq, unsettled, stopped)
		e.progress(PhasePush, i+1, total)
		if err != nil {
			return err
		}
	}
	return nil
}

// pushEntry settles one entry if it can be sent now.
func (e *Engine) pushEntry(ctx context.Context, seq uint64, unsettled map[uint64]bool, stopped map[int64]bool) error {
	for attempt := 0; ; attempt++ {
		// Read it again: an earlier ack may have replaced temporary IDs,
		// a rebase its base version, a conflict or failure its state.
		cur, err := e.st.Entry(seq)
		if app.KindOf(err) == app.KindNotFound {
			return nil // acknowledged or discarded meanwhile
		}
		if err != nil {
			return err
		}
		skip := func() error {
			unsettled[seq] = true
			if cur.ProposalID != 0 && cur.State != localstore.StateFailed && cur.State != localstore.StateConflict && !cur.Blocked {
				stopped[cur.ProposalID] = true
			}
			return nil
		}
		if cur.State != localstore.StatePending && cur.State != localstore.StateSent {
			unsettled[seq] = true
			return nil
		}
		if cur.Blocked {
			unsettled[seq] = true
			return nil
		}
		for _, d := range cur.DependsOn {
			if unsettled[d] {
				return skip()
			}
		}
		if cur.ProposalID != 0 && stopped[cur.ProposalID] {
			return skip()
		}
		if attempt > maxPreconditionRetries {
			return skip()
		}
		if hasTemporaryIDs(&cur) {
			for _, d := range cur.DependsOn {
				if _, err := e.st.Entry(d); app.KindOf(err) != app.KindNotFound {
					return skip() // its create is still queued: wait
				}
			}
			// Every create it depends on was acknowledged, yet it
			// still names a temporary ID: nothing will replace it.
			e.log.Warn("sync: entry still refers to a temporary ID", "seq", seq)
			unsettled[seq] = true
			return e.st.FailUnsendable(ctx, seq, localstore.ReasonNeverCreated)
		}
		retry, err := e.send(ctx, &cur)
		if err != nil {
			var stop *stopPush
			if errors.As(err, &stop) {
				return stop.err
			}
			return err
		}
		if !retry {
			return nil
		}
	}
}

// hasTemporaryIDs reports whether the entry would send an ID that only
// exists on this computer.
func hasTemporaryIDs(en *localstore.Entry) bool {
	switch en.Kind {
	case localstore.EntryLocation:
		return en.ContactID < 0
	case localstore.EntryProposal:
		m, err := en.Decode()
		if err != nil {
			return false
		}
		return app.HasTemporaryRefs(m)
	}
	return false
}

// send sends one entry and settles it. retry: the entry was rebased on
// a newer server copy (412) and should be sent again. A *stopPush error
// ends the round.
func (e *Engine) send(ctx context.Context, en *localstore.Entry) (retry bool, err error) {
	if reason := en.CannotSend(); reason != "" {
		// Its request cannot be built: sending it again would fail
		// again, so it waits in Review and the round goes on.
		e.log.Warn("sync: entry cannot be sent", "seq", en.Seq, "reason", reason)
		return false, e.st.FailUnsendable(ctx, en.Seq, reason)
	}
	if err := e.st.MarkSent(ctx, en.Seq); err != nil {
		return false, err
	}
	opts := WriteOptions{IdempotencyKey: en.IdempotencyKey}
	switch en.Kind {
	case localstore.EntryContact:
		c, err := e.c.CreatePerson(ctx, *en.Contact, opts)
		if err != nil {
			return false, e.refused(ctx, en, err)
		}
		return false, e.st.AckContact(ctx, en.Seq, c)
	case localstore.EntryLocation:
		l, err := e.c.CreateLocation(ctx, en.ContactID, *en.Location, opts)
		if err != nil {
			return false, e.refused(ctx, en, err)
		}
		if err := e.st.AckLocation(ctx, en.Seq, l); err != nil {
			return false, err
		}
		// A new primary location takes the flag from the others: read
		// the contact's locations again.
		if locs, err := e.c.ListLocations(ctx, en.ContactID); err == nil {
			return false, e.st.ApplyPull(ctx, func(tx *localstore.PullTx) error {
				return tx.PutLocations(en.ContactID, locs)
			})
		}
		return false, nil
	case localstore.EntrySend:
		return false, e.sendToClient(ctx, en, opts)
	}

	m, err := en.Decode()
	if err != nil {
		return false, err
	}
	if en.BaseVersion > 0 {
		if m.ProposalID() != 0 { // a create has no version to match
			opts.IfMatch = strconv.FormatInt(en.BaseVersion, 10)
		}
	}
	res, err := e.c.Do(ctx, m, opts)
	if app.KindOf(err) == app.KindPreconditionFailed {
		// The proposal changed on the server: take its copy (localstore
		// merges field by field and marks the edits that collide as
		// conflicts), then send what still applies on the new base.
		if err := e.refetch(ctx, m.ProposalID()); err != nil {
			return false, err
		}
		return true, nil
	}
	if err != nil {
		return false, e.refused(ctx, en, err)
	}
	var sp *app.Proposal
	if res.Proposal != nil {
		sp = ProposalFromDetail(*res.Proposal)
	} else {
		// 204 (AssignContact): read the proposal it wrote.
		id := m.ProposalID()
		got, err := e.c.GetProposal(ctx, id)
		if err != nil {
			return false, stopOn(err)
		}
		sp = ProposalFromDetail(got.Proposal)
	}
	if err := e.withChangeOrders(ctx, sp); err != nil {
		return false, stopOn(err)
	}
	if _, err := e.st.Ack(ctx, en.Seq, sp); err != nil {
		return false, fmt.Errorf("acknowledge outbox entry %d: %w", en.Seq, err)
	}
	e.noteClientLink(sp)
	return false, nil
}

// refused settles an entry the server did not accept: a rule refusal
// marks it failed with the server's message; anything else stops the
// round with the entry left queued.
func (e *Engine) refused(ctx context.Context, en *localstore.Entry, err error) error {
	kind := app.KindOf(err)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !ruleKinds[kind] {
		return &stopPush{err}
	}
	if en.Kind == localstore.EntryProposal && en.ProposalID > 0 && kind != app.KindPermissionDenied {
		if done, err := e.settledOnServer(ctx, en); err != nil || done {
			return err
		}
	}
	if (kind == app.KindProposalLocked || kind == app.KindProposalChanged) && en.ProposalID > 0 {
		// Accepted (or declined, completed) in the office: the server
		// copy makes the proposal read-only here, and the edits that no
		// longer apply show as failed. Changed after the client signed
		// in person: the local proposal returns to the server's, and
		// the acceptance waits, signature kept, for the salesperson
		// (localstore.Acceptance).
		if err := e.refetch(ctx, en.ProposalID); err != nil {
			return err
		}
		if _, err := e.st.Entry(en.Seq); app.KindOf(err) == app.KindNotFound {
			return nil
		} else if err != nil {
			return err
		}
	}
	msg := apiErr.Err.Message
	if msg == "" {
		msg = apiErr.Error()
	}
	return e.st.Fail(ctx, en.Seq, kind, msg)
}

// settledOnServer settles a refused edit as done when the server's copy
// already has its own effect (app.SettledBy, judged on the view it was
// made on, never on the laptop's later one): another laptop made the
// same move first.
func (e *Engine) settledOnServer(ctx context.Context, en *localstore.Entry) (bool, error) {
	m, err := en.Decode()
	if err != nil {
		return false, err
	}
	got, err := e.c.GetProposal(ctx, en.ProposalID)
	if app.KindOf(err) == app.KindNotFound {
		return false, nil
	}
	if err != nil {
		return false, stopOn(err)
	}
	sp := ProposalFromDetail(got.Proposal)
	if !app.SettledBy(m, en.Effect, sp) {
		return false, nil
	}
	if err := e.withChangeOrders(ctx, sp); err != nil {
		return false, stopOn(err)
	}
	e.log.Info("sync: edit already on the server; settled as done", "seq", en.Seq, "kind", m.Kind())
	if _, err := e.st.Ack(ctx, en.Seq, sp); err != nil {
		return false, fmt.Errorf("acknowledge outbox entry %d: %w", en.Seq, err)
	}
	return true, nil
}

// refetch reads a proposal and installs it as the server copy.
func (e *Engine) refetch(ctx context.Context, id int64) error {
	got, err := e.c.GetProposal(ctx, id)
	if app.KindOf(err) == app.KindNotFound {
		return nil
	}
	if err != nil {
		return stopOn(err)
	}
	sp := ProposalFromDetail(got.Proposal)
	if err := e.withChangeOrders(ctx, sp); err != nil {
		return stopOn(err)
	}
	return e.st.PutServerCopy(ctx, sp)
}

// stopOn wraps a request error so that it ends the push round.
func stopOn(err error) error {
	if err == nil {
		return nil
	}
	return &stopPush{err}
}

// withChangeOrders fills in the full change orders of a proposal that
// has any, reusing the ones the store already holds unchanged.
func (e *Engine) withChangeOrders(ctx context.Context, sp *app.Proposal) error {
	if len(sp.ChangeOrders) == 0 {
		return nil
	}
	var held *app.Proposal
	if rec, err := e.st.Record(sp.ID); err == nil {
		held = rec.Server
	}
	for i, co := range sp.ChangeOrders {
		if held != nil {
			found := false
			for _, h := range held.ChangeOrders {
				if h.ID == co.ID && h.LastModifiedDate == co.LastModifiedDate {
					sp.ChangeOrders[i], found = h, true
					break
				}
			}
			if found {
				continue
			}
		}
		got, err := e.c.GetChangeOrder(ctx, sp.ID, co.ID)
		if err != nil {
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
				continue
			}
			return err
		}
		sp.ChangeOrders[i] = ChangeOrderFromDetail(got.ChangeOrder)
	}
	return nil
}
