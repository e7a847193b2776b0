package apiclient

import (
	"context"
	"net/http"
	"time"
)

// pingTimeout bounds one ping: a server that does not answer in this
// time is taken as unreachable.
const pingTimeout = 3 * time.Second

// Ping asks the server once, without retries, whether it answers: a
// signed HEAD of the public API document (no body comes back). Any HTTP
// answer counts (the server is there); no answer is an error matching
// ErrUnreachable or ErrCertificate.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	u, err := c.buildURL("/openapi.json", nil)
	if err != nil {
		return err
	}
	if _, _, _, err := c.attempt(ctx, Call{Method: http.MethodHead, Path: "/openapi.json"}, u, "", nil); err != nil {
		return err
	}
	c.noteAnswer()
	return nil
}
