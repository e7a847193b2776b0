package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"proposaldesk/internal/jsonscan"
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

// decodeSyncPage splits the page instead of decoding it: decoding it
// into json.RawMessage values validated, scanned and copied all of it
// before each proposal was decoded (a quarter of a first sync's CPU).
// Each proposal is a part of body, validated when it is decoded.
func decodeSyncPage(body []byte) (SyncPage, error) {
	page := SyncPage{Proposals: []json.RawMessage{}, Missing: []int64{}}
	end, err := jsonscan.Object(body, 0, func(key []byte, v int) (int, error) {
		end, err := jsonscan.ValueEnd(body, v)
		if err != nil {
			return 0, err
		}
		switch string(key) {
		case `"storeId"`:
			err = json.Unmarshal(body[v:end], &page.StoreID)
		case `"missing"`:
			err = json.Unmarshal(body[v:end], &page.Missing)
		case `"proposals"`:
			if string(body[v:end]) == "null" {
				break
			}
			_, err = jsonscan.Array(body, v, func(el int) (int, error) {
				elEnd, err := jsonscan.ValueEnd(body, el)
				if err == nil {
					page.Proposals = append(page.Proposals, body[el:elEnd])
				}
				return elEnd, err
			})
		}
		// Other members: one this client does not know, as encoding/json.
		return end, err
	})
	if err == nil {
		err = jsonscan.End(body, end)
	}
	if page.Missing == nil {
		page.Missing = []int64{}
	}
	return page, err
}
