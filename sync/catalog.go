package syncer

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"proposaldesk/app"
)

// The catalog's read endpoints. In a file of their own: the
// signed client may move to a sub-package, and these move with it.

// Catalog searches the account's catalog (GET /public/catalog) with
// app.CatalogQuery's parameters.
func (c *Client) Catalog(ctx context.Context, q app.CatalogQuery) (app.CatalogResponse, error) {
	resp, err := c.send(ctx, call{method: http.MethodGet, path: "/public/catalog", query: q.Values()})
	if err != nil {
		return app.CatalogResponse{}, err
	}
	res, err := decode[app.CatalogResponse](resp, "catalog")
	if res.Items == nil {
		res.Items = []app.CatalogItem{}
	}
	return res, err
}

// CatalogItem reads one catalog item (GET /public/catalog/{ItemId}).
func (c *Client) CatalogItem(ctx context.Context, id int64) (app.CatalogItem, error) {
	resp, err := c.send(ctx, call{method: http.MethodGet, path: "/public/catalog/" + app.FormatID(id)})
	if err != nil {
		return app.CatalogItem{}, err
	}
	return decode[app.CatalogItem](resp, "catalog item")
}

// CatalogChanges reads a page of at most limit catalog changes after the
// cursor since ("" from the beginning; limit 0 is the server's default)
// (GET /public/catalog/changes, extension).
func (c *Client) CatalogChanges(ctx context.Context, since string, limit int) (app.CatalogChanges, error) {
	q := url.Values{}
	if since != "" {
		q.Set("since", since)
	}
	if limit > 0 {
		q.Set("Limit", strconv.Itoa(limit))
	}
	resp, err := c.send(ctx, call{method: http.MethodGet, path: "/public/catalog/changes", query: q})
	if err != nil {
		return app.CatalogChanges{}, err
	}
	ch, err := decode[app.CatalogChanges](resp, "catalog changes")
	if ch.Items == nil {
		ch.Items = []app.CatalogItem{}
	}
	if ch.DeletedIDs == nil {
		ch.DeletedIDs = []int64{}
	}
	return ch, err
}
