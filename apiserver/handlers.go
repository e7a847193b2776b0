package apiserver

import (
	"net/http"
	"strconv"
	"strings"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// view reads in the caller's account and writes the result fn renders.
func (s *Server) view(c *call, fn func(tx store.Tx) (result, error)) error {
	var res result
	err := s.st.View(c.r.Context(), c.account.ID, func(tx store.Tx) error {
		var err error
		res, err = fn(tx)
		return err
	})
	if err != nil {
		return err
	}
	return c.write(res)
}

func (c *call) viewOptions() app.ViewOptions { return c.user.Role.ViewOptions() }

// 1. GET /public/proposals
func (s *Server) listProposals(c *call) error {
	q, err := app.ParseListQuery(c.r.URL.Query())
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		rows, count, err := tx.ListJSON(q)
		if err != nil {
			return result{}, err
		}
		return result{status: http.StatusOK, body: listBody(rows, count)}, nil
	})
}

// 3. GET /public/proposals/{ProposalId}
func (s *Server) getProposal(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	opts := c.viewOptions()
	// A version's rendering carries its ETag and Last-Modified.
	cached := func(version int64) (result, bool) {
		return s.rendered.get(renderKey{id: id, version: version, costs: opts.ViewCosts})
	}
	if m, ok := s.st.(store.VersionMemo); ok {
		if version, ok := m.MemoVersion(c.account.ID, id); ok {
			if res, ok := cached(version); ok {
				return c.write(res)
			}
		}
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		// The version first: a cached rendering of it needs nothing more.
		version, err := tx.ProposalVersion(id)
		if err != nil {
			return result{}, err
		}
		if res, ok := cached(version); ok {
			return res, nil
		}
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		d := app.DetailView(p, opts)
		res, err := jsonResult(&d)
		if err != nil {
			return result{}, err
		}
		res.etag, res.lastModified = etagOf(p.Version), p.LastModifiedDate.Time
		s.rendered.put(renderKey{id: id, version: p.Version, costs: opts.ViewCosts}, res)
		return res, nil
	})
}

// 7. GET /public/proposals/{ProposalId}/changeorders/{ChangeOrderId}
func (s *Server) getChangeOrder(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	coID, err := c.pathID("ChangeOrderId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		co, err := p.ChangeOrder(coID)
		if err != nil {
			return result{}, err
		}
		d := app.ChangeOrderDetailView(co, c.viewOptions())
		res, err := jsonResult(&d)
		res.etag, res.lastModified = etagOf(p.Version), co.LastModifiedDate.Time
		return res, err
	})
}

// 8. GET /public/proposals/{ProposalId}/changeorders
func (s *Server) listChangeOrders(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		out := make([]app.ChangeOrderSummary, len(p.ChangeOrders))
		for i := range p.ChangeOrders {
			out[i] = app.ChangeOrderSummaryView(&p.ChangeOrders[i])
		}
		return jsonResult(out)
	})
}

// GET /public/proposals/{ProposalId}/items (extension)
func (s *Server) listItems(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		res, err := jsonResult(app.ItemsView(p, c.viewOptions()))
		res.etag, res.lastModified = etagOf(p.Version), p.LastModifiedDate.Time
		return res, err
	})
}

// GET /public/users (extension)
func (s *Server) listUsers(c *call) error {
	return s.view(c, func(tx store.Tx) (result, error) {
		users, err := tx.Users()
		if err != nil {
			return result{}, err
		}
		out := make([]app.Salesperson, len(users))
		for i, u := range users {
			out[i] = u.Salesperson()
		}
		return jsonResult(out)
	})
}

// changesResponse is the sync feed's answer.
type changesResponse struct {
	StoreID     string  `json:"storeId"`
	Cursor      string  `json:"cursor"`
	ProposalIDs []int64 `json:"proposalIds"`
}

// maxCursor bounds the since parameter.
const maxCursor = 256

// GET /public/changes?since= (extension)
func (s *Server) changes(c *call) error {
	var since string
	for k, vs := range c.r.URL.Query() {
		if strings.EqualFold(k, "since") && len(vs) > 0 {
			since = vs[0]
		}
	}
	if len(since) > maxCursor {
		return app.Invalid("since", "is not a cursor this server issued")
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		ids, next, err := tx.Changes(since)
		if err != nil {
			return result{}, err
		}
		if ids == nil {
			ids = []int64{}
		}
		return jsonResult(changesResponse{StoreID: s.st.StoreID(), Cursor: next, ProposalIDs: ids})
	})
}

// listBody is json.Marshal(app.ListResponse) for rows already encoded
// (encoding the page's rows was most of a list request's cost);
// TestListBodyIsListResponse holds it to that.
func listBody(rows [][]byte, count int) []byte {
	n := 40
	for _, r := range rows {
		n += len(r) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"proposals":[`...)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r...)
	}
	b = append(b, `],"proposalCount":`...)
	b = strconv.AppendInt(b, int64(count), 10)
	return append(b, '}')
}
