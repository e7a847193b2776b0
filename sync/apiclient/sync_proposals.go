package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// SyncPage is GET /public/sync/proposals' answer with each proposal
// still as its JSON, for the caller to decode (in parallel) and to keep:
// each is a part of the response body, not yet validated (decoding it
// validates it).
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
	page, err := decodeSyncPage(resp.Body)
	if err != nil {
		return SyncPage{}, fmt.Errorf("decode proposals for sync: %w", err)
	}
	return page, nil
}

// decodeSyncPage splits the page (jsonsplit.go) instead of decoding it.
func decodeSyncPage(body []byte) (SyncPage, error) {
	page := SyncPage{Proposals: []json.RawMessage{}, Missing: []int64{}}
	err := objectMembers(body, func(key string, v []byte) error {
		switch key {
		case "storeId":
			return json.Unmarshal(v, &page.StoreID)
		case "missing":
			return json.Unmarshal(v, &page.Missing)
		case "proposals":
			els, err := arrayElements(v)
			for _, el := range els {
				page.Proposals = append(page.Proposals, el)
			}
			return err
		}
		return nil // a member this client does not know, as encoding/json
	})
	if page.Missing == nil {
		page.Missing = []int64{}
	}
	return page, err
}
