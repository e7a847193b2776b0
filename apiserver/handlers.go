package apiserver

import (
	"net/http"
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
		page, count, err := tx.List(q)
		if err != nil {
			return result{}, err
		}
		if page == nil {
			page = []app.ListItem{}
		}
		return jsonResult(app.ListResponse{Proposals: page, Count: count})
	})
}

// 2. POST /public/proposals
func (s *Server) createProposal(c *call) error {
	f, err := c.decodeBody([]field{{"SalesPersonId", fID}, {"Name", fString}})
	if err != nil {
		return err
	}
	m := &app.CreateProposal{}
	m.SalesPersonID, _ = f.id("SalesPersonId")
	if name, ok := f.str("Name"); ok && strings.TrimSpace(name) != "" {
		m.Name = &name
	}
	return s.applyMutation(c, m, false)
}

// 3. GET /public/proposals/{ProposalId}
func (s *Server) getProposal(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		opts := c.viewOptions()
		key := renderKey{id: p.ID, version: p.Version, costs: opts.ViewCosts}
		res := result{status: http.StatusOK}
		if body, ok := s.rendered.get(key); ok {
			res.body = body
		} else {
			if res, err = jsonResult(app.DetailView(p, opts)); err != nil {
				return result{}, err
			}
			s.rendered.put(key, res.body)
		}
		res.etag, res.lastModified = etagOf(p.Version), p.LastModifiedDate.Time
		return res, nil
	})
}

// 4. POST /public/proposals/{ProposalId}
func (s *Server) updateProposal(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"Name", fString}, {"SalesPersonId", fID}})
	if err != nil {
		return err
	}
	m := &app.UpdateProposal{ID: id}
	if name, ok := f.str("Name"); ok {
		m.Name = &name
	}
	if sp, ok := f.id("SalesPersonId"); ok {
		m.SalesPersonID = &sp
	}
	return s.applyMutation(c, m, false)
}

// requiredText reads a text field that must be present (it may be empty,
// which clears the value).
// textBody reads the one required text field of ops 5, 6, 11 and 12.
func textBody(c *call, name string) (string, error) {
	f, err := c.decodeBody([]field{{name, fString}})
	if err != nil {
		return "", err
	}
	return requiredText(f, name)
}

func requiredText(f fields, name string) (string, error) {
	v, ok := f.str(name)
	if !ok {
		return "", app.Invalid(name, "is required (send an empty string to clear it)")
	}
	return v, nil
}

// 5. POST /public/proposals/{ProposalId}/description
func (s *Server) setDescription(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	text, err := textBody(c, "Description")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.SetDescription{ID: id, Description: text}, false)
}

// 6. POST /public/proposals/{ProposalId}/internalnotes
func (s *Server) setInternalNotes(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	text, err := textBody(c, "InternalNotes")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.SetInternalNotes{ID: id, InternalNotes: text}, false)
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
		res, err := jsonResult(app.ChangeOrderDetailView(co, c.viewOptions()))
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

// 9. POST /public/proposals/{ProposalId}/area
func (s *Server) createArea(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"Name", fString}})
	if err != nil {
		return err
	}
	name, _ := f.str("Name")
	return s.applyMutation(c, &app.CreateArea{ID: id, Name: name}, false)
}

// 10. POST /public/proposals/{ProposalId}/area/{AreaId}/option
func (s *Server) createOption(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	areaID, err := c.pathID("AreaId")
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"ClientDescription", fString}, {"InternalNotes", fString}})
	if err != nil {
		return err
	}
	m := &app.CreateOption{ID: id, AreaID: areaID}
	m.ClientDescription, _ = f.str("ClientDescription")
	m.InternalNotes, _ = f.str("InternalNotes")
	return s.applyMutation(c, m, false)
}

// 11. POST /public/proposals/{ProposalId}/area-options/{AreaOptionId}/clientdescription
func (s *Server) setOptionClientDescription(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	optID, err := c.pathID("AreaOptionId")
	if err != nil {
		return err
	}
	text, err := textBody(c, "ClientDescription")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.SetOptionClientDescription{ID: id, OptionID: optID, ClientDescription: text}, false)
}

// 12. POST /public/proposals/{ProposalId}/area-options/{AreaOptionId}/installernotes
func (s *Server) setOptionInstallerNotes(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	optID, err := c.pathID("AreaOptionId")
	if err != nil {
		return err
	}
	text, err := textBody(c, "InstallerNotes")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.SetOptionInstallerNotes{ID: id, OptionID: optID, InstallerNotes: text}, false)
}

// matchPath checks that IDs repeated in an optional body agree with the
// path.
func matchPath(f fields, name string, want int64) error {
	if v, ok := f.id(name); ok && v != want {
		return app.Invalid(name, "is %d in the body but %d in the path", v, want)
	}
	return nil
}

// assignIDs reads ops 13 and 14's two path IDs: the proposal and the
// contact or location (named by param). The optional JSON body may repeat
// both, and must then agree with the path.
func assignIDs(c *call, param string) (proposalID, otherID int64, err error) {
	if proposalID, err = c.pathID("ProposalId"); err != nil {
		return 0, 0, err
	}
	if otherID, err = c.pathID(param); err != nil {
		return 0, 0, err
	}
	f, err := c.decodeBody([]field{{"ProposalId", fID}, {param, fID}})
	if err != nil {
		return 0, 0, err
	}
	if err := matchPath(f, "ProposalId", proposalID); err != nil {
		return 0, 0, err
	}
	return proposalID, otherID, matchPath(f, param, otherID)
}

// 13. POST /public/proposals/{ProposalId}/contact/{ContactId}
func (s *Server) assignContact(c *call) error {
	id, contactID, err := assignIDs(c, "ContactId")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.AssignContact{ID: id, ContactID: contactID}, true)
}

// 14. POST /public/proposals/{ProposalId}/location/{LocationId}
func (s *Server) assignLocation(c *call) error {
	id, locID, err := assignIDs(c, "LocationId")
	if err != nil {
		return err
	}
	return s.applyMutation(c, &app.AssignLocation{ID: id, LocationID: locID}, false)
}

// POST /public/proposals/{ProposalId}/status (extension)
func (s *Server) changeStatus(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"Status", fString}})
	if err != nil {
		return err
	}
	v, ok := f.str("Status")
	if !ok {
		return app.Invalid("Status", "is required")
	}
	st, err := app.ParseStatus(v)
	if err != nil {
		return app.Invalid("Status", "%v", err)
	}
	return s.applyMutation(c, &app.ChangeStatus{ID: id, Status: st}, false)
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
