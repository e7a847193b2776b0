package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
)

// SyncPage is GET /public/sync/proposals' answer with each proposal
// still as its JSON, for the caller to decode (in parallel) and to keep.
type SyncPage struct {
	StoreID   string            `json:"storeId"`
	Proposals []json.RawMessage `json:"proposals"`
	Missing   []int64           `json:"missing"`
}

// SyncProposals reads the proposals ids (at most app.MaxSyncProposals)
// in one request (GET /public/sync/proposals, extension): those the
// account has, as the server stores them, and the IDs it does not have.
func (c *Client) SyncProposals(ctx context.Context, ids []int64) (SyncPage, error) {
	b := make([]byte, 0, len(ids)*8)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/sync/proposals", Query: url.Values{"ids": {string(b)}}})
	if err != nil {
		return SyncPage{}, err
	}
	return Decode[SyncPage](resp, "proposals for sync")
}
