package apiserver

import (
	"context"
	"time"

	"proposaldesk/apiserver/clientpage"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// ExpireDue moves every proposal whose link has passed its date
// undecided to Expired, and says how many it moved. Each is settled in
// its account's write transaction, where app.ExpiryDue decides again:
// with several replicas running it at once, the account's write lock
// lets one of them expire a proposal and the others find nothing to do.
func (s *Server) ExpireDue(ctx context.Context) (int, error) {
	now := s.now()
	due, err := s.st.DueClientExpiries(ctx, now, 500)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ref := range due {
		moved := false
		err := s.st.Update(ctx, ref.AccountID, func(tx store.Tx) error {
			moved = false
			p, err := tx.Proposal(ref.ProposalID)
			if err != nil {
				return err
			}
			if !app.ExpiryDue(p, now) {
				// Decided, reopened or sent again meanwhile: keep the
				// index to what is still pending.
				return tx.SetClientExpiry(p.ID, pendingExpiry(p))
			}
			moved = true
			return clientpage.Expire(tx, p, now)
		})
		if err != nil {
			return n, err
		}
		if moved {
			n++
		}
	}
	return n, nil
}

// pendingExpiry is when p's link still has to expire (zero: never).
func pendingExpiry(p *app.Proposal) time.Time {
	if p.ClientLink == nil || !app.ExpiryDue(p, p.ClientLink.ExpiresOn.Time) {
		return time.Time{}
	}
	return p.ClientLink.ExpiresOn.Time
}

// RunExpiries runs ExpireDue every interval until ctx ends.
func (s *Server) RunExpiries(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.ExpireDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("client link expiry", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
