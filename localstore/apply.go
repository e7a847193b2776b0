package localstore

import (
	"proposaldesk/app"
)

// applyRules is app.Apply for the desktop. It differs in one respect:
// app's AssignContact and AssignLocation refuse IDs ≤ 0 in Validate, yet
// a contact or location made offline has a temporary negative ID until
// the server acknowledges it. Such an ID is handed to the rules as a
// positive alias far above any real ID, and the directory answers for
// the alias with the cached row, whose own (negative) ID is what ends up
// in the proposal. Every other rule runs unchanged.
func applyRules(view *app.Proposal, m app.Mutation, env app.Env) (*app.Proposal, error) {
	switch x := m.(type) {
	case *app.AssignContact:
		if x.ContactID < 0 {
			c := *x
			c.ContactID = alias(x.ContactID)
			m = &c
		}
	case *app.AssignLocation:
		if x.LocationID < 0 {
			c := *x
			c.LocationID = alias(x.LocationID)
			m = &c
		}
	default:
		return app.Apply(view, m, env)
	}
	env.Directory = aliasDirectory{env.Directory}
	return app.Apply(view, m, env)
}

// aliasBase starts the alias range: alias(-n) = aliasBase + n.
const aliasBase = int64(1) << 62

func alias(temp int64) int64 { return aliasBase - temp }

func unalias(id int64) int64 {
	if id > aliasBase {
		return aliasBase - id
	}
	return id
}

type aliasDirectory struct{ app.Directory }

func (d aliasDirectory) Contact(id int64) (app.Contact, bool) {
	return d.Directory.Contact(unalias(id))
}
func (d aliasDirectory) Location(id int64) (app.ContactLocation, bool) {
	return d.Directory.Location(unalias(id))
}
func (d aliasDirectory) ContactLocations(id int64) []app.ContactLocation {
	return d.Directory.ContactLocations(unalias(id))
}
