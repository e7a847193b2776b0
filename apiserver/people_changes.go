package apiserver

import (
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// GET /public/people/changes?since=&Limit= (extension): the account's
// contacts with their locations, changed after a cursor, a page at a
// time, so a laptop keeps its copy with a constant number of requests.
func (s *Server) peopleChanges(c *call) error {
	since, limit, err := parseFeedPage(c.r.URL.Query(), app.DefaultPeopleChangesLimit, app.MaxPeopleChangesLimit)
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		ch, err := tx.PeopleChanges(since, limit)
		if err != nil {
			return result{}, err
		}
		ch.StoreID = s.st.StoreID()
		return jsonResult(ch)
	})
}
