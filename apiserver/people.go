package apiserver

import (
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// peopleResponse is a page of contacts; peopleCount counts every match.
type peopleResponse struct {
	People []app.Contact `json:"people"`
	Count  int           `json:"peopleCount"`
}

// GET /public/people
func (s *Server) listPeople(c *call) error {
	q, err := app.ParseContactQuery(c.r.URL.Query())
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		page, count, err := tx.Contacts(q)
		if err != nil {
			return result{}, err
		}
		if page == nil {
			page = []app.Contact{}
		}
		return jsonResult(peopleResponse{People: page, Count: count})
	})
}

func contactOf(tx store.Tx, id int64) (app.Contact, error) {
	ct, ok, err := tx.Contact(id)
	if err != nil {
		return app.Contact{}, err
	}
	if !ok {
		return app.Contact{}, app.Errorf(app.KindNotFound, "person %d not found in this account", id)
	}
	return ct, nil
}

// GET /public/people/{PersonId}
func (s *Server) getPerson(c *call) error {
	id, err := c.pathID("PersonId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		ct, err := contactOf(tx, id)
		if err != nil {
			return result{}, err
		}
		return jsonResult(ct)
	})
}

// POST /public/people
func (s *Server) createPerson(c *call) error {
	var in app.NewContact
	if _, err := c.decodeParams(in.Params()); err != nil {
		return err
	}
	if _, err := in.Contact(0); err != nil {
		return err
	}
	return s.update(c, func(tx store.Tx) (result, error) {
		ct, err := in.Contact(tx.NextID())
		if err != nil {
			return result{}, err
		}
		if err := tx.PutContact(ct); err != nil {
			return result{}, err
		}
		return jsonResult(ct)
	})
}

// GET /public/people/{PersonId}/location
func (s *Server) listLocations(c *call) error {
	id, err := c.pathID("PersonId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		if _, err := contactOf(tx, id); err != nil {
			return result{}, err
		}
		locs, err := tx.Locations(id)
		if err != nil {
			return result{}, err
		}
		if locs == nil {
			locs = []app.ContactLocation{}
		}
		return jsonResult(locs)
	})
}

// POST /public/people/{PersonId}/location. A new primary location takes
// the flag from the contact's other locations.
func (s *Server) createLocation(c *call) error {
	id, err := c.pathID("PersonId")
	if err != nil {
		return err
	}
	var in app.NewLocation
	if _, err := c.decodeParams(in.Params()); err != nil {
		return err
	}
	if _, err := in.Location(0, id); err != nil {
		return err
	}
	return s.update(c, func(tx store.Tx) (result, error) {
		if _, err := contactOf(tx, id); err != nil {
			return result{}, err
		}
		loc, err := in.Location(tx.NextID(), id)
		if err != nil {
			return result{}, err
		}
		if loc.IsPrimary {
			others, err := tx.Locations(id)
			if err != nil {
				return result{}, err
			}
			for _, o := range others {
				if o.IsPrimary {
					o.IsPrimary = false
					if err := tx.PutLocation(o); err != nil {
						return result{}, err
					}
				}
			}
		}
		if err := tx.PutLocation(loc); err != nil {
			return result{}, err
		}
		return jsonResult(loc)
	})
}
