package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// GET /public/sync/proposals?ids= (extension): the proposals of one
// chunk of a laptop's pull in one signed request, written from the
// stored JSON without decoding or encoding it (that was most of a first
// sync's server time): as it is for a reader with ViewCosts, with the
// items' costs replaced by null otherwise (costscrub.go).
func (s *Server) syncProposals(c *call) error {
	ids, err := app.ParseSyncIDs(c.r.URL.Query())
	if err != nil {
		return err
	}
	costs := c.viewOptions().ViewCosts
	storeID, err := json.Marshal(s.st.StoreID())
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		body := append(make([]byte, 0, 4<<10), `{"storeId":`...)
		body = append(body, storeID...)
		body = append(body, `,"proposals":[`...)
		found := make(map[int64]bool, len(ids))
		err := tx.ProposalsJSON(ids, func(id int64, doc []byte) error {
			if len(found) > 0 {
				body = append(body, ',')
			}
			found[id] = true
			if costs {
				body = append(body, doc...)
				return nil
			}
			var err error
			if body, err = hideCostsJSON(body, doc); err != nil {
				return fmt.Errorf("proposal %d: %w", id, err)
			}
			return nil
		})
		if err != nil {
			return result{}, err
		}
		body = append(body, `],"missing":[`...)
		n := 0
		for _, id := range ids {
			if !found[id] {
				if n > 0 {
					body = append(body, ',')
				}
				n++
				body = strconv.AppendInt(body, id, 10)
			}
		}
		return result{status: http.StatusOK, body: append(body, "]}"...)}, nil
	})
}
