package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"proposaldesk/app"
)

// The read endpoints and the key exchange. The proposal writes are the
// sync package's (sync/mutations.go), sent through Client.Send.

// ExchangeResult is the key exchange's answer.
type ExchangeResult struct {
	// APIKey is meta.apiKey: the key to sign later requests with.
	APIKey      string
	UserID      string
	UserName    string
	DisplayName string
	Roles       []string
	Permissions []string
	// DeviceToken is meta.deviceToken: proof that this device signed in
	// as this user, to present with the next sign-in (ExchangeDevice) so
	// that others' failed sign-ins at the same address do not lock the
	// user out. Empty from a server that issues none.
	DeviceToken string
}

// flexString decodes a JSON string or number as a string (userId is a
// string in the spec; a server may send a number).
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
		return nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return err
	}
	*s = flexString(n.String())
	return nil
}

type exchangeBody struct {
	UserID      flexString        `json:"userId"`
	UserName    string            `json:"userName"`
	DisplayName string            `json:"displayName"`
	Roles       []string          `json:"roles"`
	Permissions []string          `json:"permissions"`
	Meta        map[string]string `json:"meta"`
}

// Exchange trades an email and password for a user API key (operation
// 15), signed with an empty user key. On success the client signs every
// later request with the new key; store it (the desktop uses its Keyring).
func (c *Client) Exchange(ctx context.Context, email, password string) (ExchangeResult, error) {
	return c.ExchangeDevice(ctx, email, password, "")
}

// ExchangeDevice is Exchange presenting the device token an earlier
// sign-in of this user on this device was given ("" for none).
func (c *Client) ExchangeDevice(ctx context.Context, email, password, deviceToken string) (ExchangeResult, error) {
	q := url.Values{"UserName": {email}, "Password": {password}}
	if deviceToken != "" {
		q.Set("DeviceToken", deviceToken)
	}
	resp, err := c.Send(ctx, Call{
		Method:    http.MethodGet,
		Path:      "/authenticate/apikeyexchange",
		Query:     q,
		Anonymous: true,
	})
	if err != nil {
		return ExchangeResult{}, err
	}
	b, err := Decode[exchangeBody](resp, "key exchange")
	if err != nil {
		return ExchangeResult{}, err
	}
	key := b.Meta["apiKey"]
	if key == "" {
		return ExchangeResult{}, fmt.Errorf("key exchange: the answer has no meta.apiKey")
	}
	c.SetUserKey(key)
	return ExchangeResult{APIKey: key, UserID: string(b.UserID), UserName: b.UserName,
		DisplayName: b.DisplayName, Roles: b.Roles, Permissions: b.Permissions, DeviceToken: b.Meta["deviceToken"]}, nil
}

// ProposalQuery is the proposal list's query. Zero fields are not sent,
// so the zero value asks for the server's defaults (first page of 25,
// newest-modified first, not archived).
type ProposalQuery struct {
	SearchText    string
	Statuses      []app.Status
	ContactID     int64
	SalesPersonID int64
	ModifiedAfter time.Time
	// IsArchive: nil or false lists proposals not archived; true only
	// archived ones.
	IsArchive     *bool
	SortBy        app.SortField
	SortDirection string // "Asc" or "Desc"
	PageNumber    int
	PageSize      int
}

// Values is the query string's parameters.
func (q ProposalQuery) Values() url.Values {
	v := url.Values{}
	if q.SearchText != "" {
		v.Set("SearchText", q.SearchText)
	}
	for _, s := range q.Statuses {
		v.Add("Statuses", string(s))
	}
	setID(v, "ContactId", q.ContactID)
	setID(v, "SalesPersonId", q.SalesPersonID)
	if !q.ModifiedAfter.IsZero() {
		v.Set("ModifiedAfter", q.ModifiedAfter.UTC().Format(app.TimeLayout))
	}
	if q.IsArchive != nil {
		v.Set("IsArchive", strconv.FormatBool(*q.IsArchive))
	}
	if q.SortBy != "" {
		v.Set("SortBy", string(q.SortBy))
	}
	if q.SortDirection != "" {
		v.Set("SortDirection", q.SortDirection)
	}
	setInt(v, "PageNumber", q.PageNumber)
	setInt(v, "PageSize", q.PageSize)
	return v
}

func setID(v url.Values, name string, id int64) {
	if id != 0 {
		v.Set(name, strconv.FormatInt(id, 10))
	}
}

func setInt(v url.Values, name string, n int) {
	if n != 0 {
		v.Set(name, strconv.Itoa(n))
	}
}

// ListProposals is operation 1: one page of the account's proposals.
func (c *Client) ListProposals(ctx context.Context, q ProposalQuery) (app.ListResponse, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/proposals", Query: q.Values()})
	if err != nil {
		return app.ListResponse{}, err
	}
	return Decode[app.ListResponse](resp, "proposal list")
}

// ProposalResponse is a proposal read with its validators.
type ProposalResponse struct {
	Proposal app.ProposalDetail
	// ETag is the header as sent (`"7"`); pass it as WriteOptions.IfMatch.
	ETag string
	// LastModified is the Last-Modified header (zero if absent).
	LastModified time.Time
}

// GetProposal is operation 3.
func (c *Client) GetProposal(ctx context.Context, proposalID int64) (ProposalResponse, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: ProposalPath(proposalID)})
	if err != nil {
		return ProposalResponse{}, err
	}
	p, err := Decode[app.ProposalDetail](resp, "proposal")
	if err != nil {
		return ProposalResponse{}, err
	}
	return ProposalResponse{Proposal: p, ETag: resp.Header.Get("ETag"), LastModified: lastModified(resp.Header)}, nil
}

// ChangeOrderResponse is a change order read with its validators.
type ChangeOrderResponse struct {
	ChangeOrder  app.ChangeOrderDetail
	ETag         string
	LastModified time.Time
}

// GetChangeOrder is operation 7.
func (c *Client) GetChangeOrder(ctx context.Context, proposalID, changeOrderID int64) (ChangeOrderResponse, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet,
		Path: ProposalPath(proposalID) + "/changeorders/" + app.FormatID(changeOrderID)})
	if err != nil {
		return ChangeOrderResponse{}, err
	}
	co, err := Decode[app.ChangeOrderDetail](resp, "change order")
	if err != nil {
		return ChangeOrderResponse{}, err
	}
	return ChangeOrderResponse{ChangeOrder: co, ETag: resp.Header.Get("ETag"), LastModified: lastModified(resp.Header)}, nil
}

// ListChangeOrders is operation 8 (an empty slice when there are none).
func (c *Client) ListChangeOrders(ctx context.Context, proposalID int64) ([]app.ChangeOrderSummary, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: ProposalPath(proposalID) + "/changeorders"})
	if err != nil {
		return nil, err
	}
	list, err := Decode[[]app.ChangeOrderSummary](resp, "change orders")
	if list == nil && err == nil {
		list = []app.ChangeOrderSummary{}
	}
	return list, err
}

// PeopleQuery is the people list's query; zero fields are not sent.
type PeopleQuery struct {
	SearchText    string
	ContactTypes  []app.ContactType
	SortBy        string // FirstName, LastName, CompanyName
	SortDirection string // Asc, Desc
	PageNumber    int
	PageSize      int
}

// Values is the query string's parameters.
func (q PeopleQuery) Values() url.Values {
	v := url.Values{}
	if q.SearchText != "" {
		v.Set("SearchText", q.SearchText)
	}
	for _, t := range q.ContactTypes {
		v.Add("ContactTypes", string(t))
	}
	if q.SortBy != "" {
		v.Set("SortBy", q.SortBy)
	}
	if q.SortDirection != "" {
		v.Set("SortDirection", q.SortDirection)
	}
	setInt(v, "PageNumber", q.PageNumber)
	setInt(v, "PageSize", q.PageSize)
	return v
}

// PeopleResponse is a page of contacts; Count counts every match.
type PeopleResponse struct {
	People []app.Contact `json:"people"`
	Count  int           `json:"peopleCount"`
}

// ListPeople lists the account's contacts (GET /public/people).
func (c *Client) ListPeople(ctx context.Context, q PeopleQuery) (PeopleResponse, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/people", Query: q.Values()})
	if err != nil {
		return PeopleResponse{}, err
	}
	return Decode[PeopleResponse](resp, "people")
}

// GetPerson reads one contact (GET /public/people/{PersonId}).
func (c *Client) GetPerson(ctx context.Context, personID int64) (app.Contact, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: PersonPath(personID)})
	if err != nil {
		return app.Contact{}, err
	}
	return Decode[app.Contact](resp, "person")
}

// ListLocations lists a contact's locations
// (GET /public/people/{PersonId}/location).
func (c *Client) ListLocations(ctx context.Context, personID int64) ([]app.ContactLocation, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: PersonPath(personID) + "/location"})
	if err != nil {
		return nil, err
	}
	list, err := Decode[[]app.ContactLocation](resp, "locations")
	if list == nil && err == nil {
		list = []app.ContactLocation{}
	}
	return list, err
}

// ListUsers lists the account's users who can be salespeople
// (GET /public/users, extension).
func (c *Client) ListUsers(ctx context.Context) ([]app.Salesperson, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/users"})
	if err != nil {
		return nil, err
	}
	return Decode[[]app.Salesperson](resp, "users")
}

// ChangesResponse is the changes feed's answer.
type ChangesResponse struct {
	// StoreID names the server's data set; a new one means the server was
	// restored from a backup: download everything again, keep unsent edits.
	StoreID string `json:"storeId"`
	// Cursor is what to pass as since next time.
	Cursor string `json:"cursor"`
	// ProposalIDs changed after since (archived or out-of-view ones too).
	ProposalIDs []int64 `json:"proposalIds"`
}

// Changes lists the proposals changed after the cursor since ("" from the
// beginning) (GET /public/changes, extension).
func (c *Client) Changes(ctx context.Context, since string) (ChangesResponse, error) {
	q := url.Values{}
	if since != "" {
		q.Set("since", since)
	}
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/changes", Query: q})
	if err != nil {
		return ChangesResponse{}, err
	}
	ch, err := Decode[ChangesResponse](resp, "changes")
	if ch.ProposalIDs == nil {
		ch.ProposalIDs = []int64{}
	}
	return ch, err
}

// ProposalPath is the path of a proposal: "/public/proposals/7".
func ProposalPath(id int64) string { return "/public/proposals/" + app.FormatID(id) }

// PersonPath is the path of a contact: "/public/people/8".
func PersonPath(id int64) string { return "/public/people/" + app.FormatID(id) }

func lastModified(h http.Header) time.Time {
	t, err := http.ParseTime(h.Get("Last-Modified"))
	if err != nil {
		return time.Time{}
	}
	return t
}
