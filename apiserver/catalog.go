package apiserver

import (
	"net/url"
	"strconv"
	"strings"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// The catalog's read routes: search, one item, and the changes feed the
// desktop keeps its offline copy with. Costs follow the role's view.

// Paging of the catalog changes feed (Limit).
const (
	DefaultCatalogChangesLimit = 1000
	MaxCatalogChangesLimit     = 5000
)

// GET /public/catalog
func (s *Server) listCatalog(c *call) error {
	q, err := app.ParseCatalogQuery(c.r.URL.Query())
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		page, count, err := tx.SearchCatalog(q)
		if err != nil {
			return result{}, err
		}
		opts := c.viewOptions()
		for i := range page {
			page[i] = app.CatalogView(page[i], opts)
		}
		return jsonResult(app.CatalogResponse{Items: page, Count: count})
	})
}

// GET /public/catalog/{ItemId}
func (s *Server) getCatalogItem(c *call) error {
	id, err := c.pathID("ItemId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		it, ok, err := tx.CatalogItem(id)
		if err != nil {
			return result{}, err
		}
		if !ok {
			return result{}, app.Errorf(app.KindNotFound, "catalog item %d not found", id)
		}
		return jsonResult(app.CatalogView(it, c.viewOptions()))
	})
}

// GET /public/catalog/changes?since=&Limit= (extension)
func (s *Server) catalogChanges(c *call) error {
	since, limit, err := parseCatalogChanges(c.r.URL.Query())
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		ch, err := tx.CatalogChanges(since, limit)
		if err != nil {
			return result{}, err
		}
		ch.StoreID = s.st.StoreID()
		opts := c.viewOptions()
		for i := range ch.Items {
			ch.Items[i] = app.CatalogView(ch.Items[i], opts)
		}
		return jsonResult(ch)
	})
}

func parseCatalogChanges(values url.Values) (since string, limit int, err error) {
	return parseFeedPage(values, DefaultCatalogChangesLimit, MaxCatalogChangesLimit)
}

// parseFeedPage reads a paged feed's since and Limit (def when absent,
// at most most).
func parseFeedPage(values url.Values, def, most int) (since string, limit int, err error) {
	limit = def
	for k, vs := range values {
		if len(vs) == 0 {
			continue
		}
		switch {
		case strings.EqualFold(k, "since"):
			since = vs[0]
		case strings.EqualFold(k, "Limit") && strings.TrimSpace(vs[0]) != "":
			n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
			if err != nil || n < 1 || n > most {
				return "", 0, app.InvalidPaging("Limit", "must be a whole number from 1 to %d, not %q", most, vs[0])
			}
			limit = n
		}
	}
	if len(since) > maxCursor {
		return "", 0, app.Invalid("since", "is not a cursor this server issued")
	}
	return since, limit, nil
}
