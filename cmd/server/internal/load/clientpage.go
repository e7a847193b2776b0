package load

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// ScenarioClientPage: each client is a customer viewing their own sent
// proposal's page (GET /c/{token}, no signature). Every view records an
// open, so it is a write.
const ScenarioClientPage = "client-page"

// clientLinks sends n proposals of ids (those that may be sent) and
// returns their client links, made for this run.
func clientLinks(ctx context.Context, c *client, ids []int64, n int) ([]string, error) {
	var links []string
	for _, id := range ids {
		if len(links) == n {
			break
		}
		status, body, err := c.do(ctx, http.MethodPost, "/public/proposals/"+strconv.FormatInt(id, 10)+"/send", map[string]any{})
		if err != nil {
			return nil, fmt.Errorf("send proposal %d: %w", id, err)
		}
		if status != http.StatusOK {
			continue // no customer, or not in a sendable status
		}
		var d struct {
			ClientLink struct {
				URL string `json:"url"`
			} `json:"clientLink"`
		}
		if err := json.Unmarshal(body, &d); err != nil || d.ClientLink.URL == "" {
			return nil, fmt.Errorf("send proposal %d: %w: %s", id, errBadResponse, truncate(body))
		}
		// The link as this run reaches the server.
		links = append(links, c.base+d.ClientLink.URL[strings.Index(d.ClientLink.URL, "/c/"):])
	}
	if len(links) < n {
		return nil, fmt.Errorf("client-page: only %d of the first proposals could be sent, need %d", len(links), n)
	}
	return links, nil
}

// clientPage views the worker's link once, each time from another
// address (X-Forwarded-For: run the server with --trust-forwarded):
// the page limits requests per address, and a real viewer sends a few,
// not thousands.
func (w *worker) clientPage(ctx context.Context) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.link, nil)
	if err != nil {
		return 0, nil, err
	}
	w.seq++
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", w.id, w.seq/250%250, 1+w.seq%250))
	resp, err := w.c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	w.buf.Reset()
	_, err = io.Copy(&w.buf, resp.Body)
	return resp.StatusCode, w.buf.Bytes(), err
}
