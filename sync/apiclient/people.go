package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"proposaldesk/app"
)

// PeopleChanges reads a page of at most limit contacts, with their
// locations, changed after the cursor since ("" from the beginning;
// limit 0 is the server's default) (GET /public/people/changes,
// extension).
func (c *Client) PeopleChanges(ctx context.Context, since string, limit int) (app.PeopleChanges, error) {
	q := url.Values{}
	if since != "" {
		q.Set("since", since)
	}
	if limit > 0 {
		q.Set("Limit", strconv.Itoa(limit))
	}
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/people/changes", Query: q})
	if err != nil {
		return app.PeopleChanges{}, err
	}
	ch, err := Decode[app.PeopleChanges](resp, "people changes")
	if ch.People == nil {
		ch.People = []app.ContactWithLocations{}
	}
	return ch, err
}
