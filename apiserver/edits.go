package apiserver

import (
	"net/http"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Every edit of a proposal is served by one handler, from the edit's own
// description in app (app.Mutation's Route and Params): path IDs and body
// fields are read into a fresh mutation of the route's kind, which is
// applied by ApplyEdit inside the write's transaction.

// editRoutes are the routes of every registered kind of edit.
func (s *Server) editRoutes() []routeDef {
	var out []routeDef
	for _, k := range app.MutationKinds() {
		m, _ := app.NewMutation(k)
		r := m.Route()
		out = append(out, routeDef{
			Route: Route{Method: r.Method, Pattern: r.Path, Operation: m.Operation(), Extension: r.Extension, Edit: k},
			h:     s.editHandler(k),
		})
	}
	return out
}

func (s *Server) editHandler(k app.MutationKind) handlerFunc {
	return func(c *call) error {
		m, err := c.decodeEdit(k)
		if err != nil {
			return err
		}
		if d, ok := m.(app.ClientDecision); ok { // with its evidence
			return s.applyDecision(c, d)
		}
		return s.applyMutation(c, m, m.Route().NoContent)
	}
}

// decodeEdit reads a request into a mutation of kind k: the path's IDs,
// then the body's fields, each named in its error.
func (c *call) decodeEdit(k app.MutationKind) (app.Mutation, error) {
	m, ok := app.NewMutation(k)
	if !ok {
		return nil, app.Errorf(app.KindInternal, "bug: no kind %s", k)
	}
	route := m.Route()
	path := app.PathParams(m)
	for _, p := range path {
		id, err := c.pathID(p.Name)
		if err != nil {
			return nil, err
		}
		if err := p.Set(id); err != nil {
			return nil, err
		}
	}
	var echo []field
	if route.BodyRepeatsPath {
		for _, p := range path {
			echo = append(echo, field{p.Name, fID})
		}
	}
	f, err := c.decodeParams(app.BodyParams(m), echo...)
	if err != nil {
		return nil, err
	}
	if route.BodyRepeatsPath {
		for _, p := range path {
			v, _ := p.Value()
			if err := matchPath(f, p.Name, v.(int64)); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// decodeParams reads the body into the declared params (and the extra
// fields, returned undecoded): each given value is set and a required
// one must be given. The declared limits (length, range, enumeration)
// are app's to check, in Apply and in the people inputs, so the desktop
// refuses the same values offline.
func (c *call) decodeParams(params []app.Param, extra ...field) (fields, error) {
	spec := make([]field, 0, len(params)+len(extra))
	for _, p := range params {
		spec = append(spec, field{p.Name, wireType(p)})
	}
	spec = append(spec, extra...)
	f, err := c.decodeBody(spec)
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		v, given := f[p.Name]
		if s, isText := v.(string); given && isText && p.OmitBlank && strings.TrimSpace(s) == "" {
			given = false
		}
		if !given {
			if p.Required {
				return nil, errRequired(p)
			}
			continue
		}
		if err := p.Set(v); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func wireType(p app.Param) fieldType {
	switch p.Type {
	case app.ParamID, app.ParamInt:
		if p.ZeroID {
			return fIDOrZero
		}
		return fID
	case app.ParamBool:
		return fBool
	case app.ParamMoney, app.ParamQuantity, app.ParamPercent:
		return fNumber
	case app.ParamChoices:
		return fList
	}
	return fString
}

func errRequired(p app.Param) error {
	if p.Type == app.ParamText {
		return app.Invalid(p.Name, "is required (send an empty string to clear it)")
	}
	return app.Invalid(p.Name, "is required")
}

// matchPath checks that IDs repeated in an optional body agree with the
// path.
func matchPath(f fields, name string, want int64) error {
	if v, ok := f.id(name); ok && v != want {
		return app.Invalid(name, "is %d in the body but %d in the path", v, want)
	}
	return nil
}

// applyMutation runs one proposal write: load, If-Match, app.Apply, store,
// and answer with the new detail (or with status 204 and no body when
// noContent).
func (s *Server) applyMutation(c *call, m app.Mutation, noContent bool) error {
	return s.update(c, func(tx store.Tx) (result, error) {
		next, err := ApplyEdit(tx, c.user.User, c.now, m, c.ifMatch)
		if err != nil {
			return result{}, err
		}
		if noContent {
			return result{status: http.StatusNoContent, etag: etagOf(next.Version)}, nil
		}
		opts := c.user.Role.ViewOptions()
		copied := app.CopiedFrom(m)
		return result{status: http.StatusOK, etag: etagOf(next.Version), render: func() ([]byte, error) {
			d := app.DetailView(next, opts)
			d.CopiedFrom = copied
			return d.AppendJSON(nil)
		}}, nil
	})
}

// ApplyEdit is every edit's write, inside tx: it loads the proposal m
// writes to (none for a create), lets check refuse its version (If-Match;
// nil checks nothing), applies m as actor with app's rules, and stores
// the result. The fixture server of other packages' tests
// (apiserver/apitest) writes through it too.
func ApplyEdit(tx store.Tx, actor app.User, now time.Time, m app.Mutation, check func(version int64) error) (*app.Proposal, error) {
	var cur *app.Proposal
	if id := m.ProposalID(); id != 0 {
		p, err := tx.Proposal(id)
		if err != nil {
			return nil, err
		}
		if check != nil {
			if err := check(p.Version); err != nil {
				return nil, err
			}
		}
		cur = p
	}
	next, err := app.Apply(cur, m, EditEnv(tx, actor, now))
	if err != nil {
		return nil, err
	}
	if err := tx.PutProposal(next); err != nil {
		return nil, err
	}
	if err := recordEvents(tx, now, m, next); err != nil {
		return nil, err
	}
	return next, nil
}

// EditEnv is the rule engine's environment for a write in tx.
func EditEnv(tx store.Tx, actor app.User, now time.Time) app.Env {
	env := app.Env{
		Now:        now,
		Actor:      actor,
		Account:    tx.Account().AppAccount(),
		Directory:  tx,
		NewID:      tx.NextID,
		NextNumber: tx.NextNumber,
	}
	if c, ok := tx.(app.Catalog); ok { // a store that keeps the catalog
		env.Catalog = c
	}
	return env
}
