package apiserver

import (
	"net/http"
	"time"

	"proposaldesk/apiserver/clientpage"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// applyDecision is the write of a client's decision taken on the
// salesperson's laptop (POST .../accept-in-person): the edit through
// ApplyEdit like any other (app refuses a client view that is no longer
// the server's with ProposalChanged), then its evidence in the same
// transaction, with the laptop's address.
func (s *Server) applyDecision(c *call, m app.ClientDecision) error {
	who := clientpage.Requester{IP: s.clientAddr(c.r), UserAgent: c.r.UserAgent(), Actor: app.ActorUser(c.user.User)}
	return s.update(c, func(tx store.Tx) (result, error) {
		seen, err := tx.Proposal(m.ProposalID())
		if err != nil {
			return result{}, err
		}
		next, err := ApplyEdit(tx, c.user.User, c.now, m, c.ifMatch)
		if err != nil {
			return result{}, err
		}
		if seen.ClientLink != nil { // the sent link no longer expires anything
			if err := tx.SetClientExpiry(seen.ID, time.Time{}); err != nil {
				return result{}, err
			}
		}
		if _, err := clientpage.RecordDecision(tx, seen, next, m.Evidence(), who, c.now); err != nil {
			return result{}, err
		}
		opts := c.user.Role.ViewOptions()
		return result{status: http.StatusOK, etag: etagOf(next.Version), render: func() ([]byte, error) {
			d := app.DetailView(next, opts)
			return d.AppendJSON(nil)
		}}, nil
	})
}
