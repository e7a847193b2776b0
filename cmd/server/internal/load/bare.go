package load

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"proposaldesk/app/signing"
)

// The bare baseline: what a signed GET costs when nothing but net/http and
// the HMAC check run. wrk drives the real server and this one with the
// same signed headers, and the ratio of the two shows what the server
// itself adds (the target is at least 0.85 on the detail GET).

// WrkTarget is one signed GET that wrk can send again and again: the URL
// and its headers (signed once; valid for signing.MaxSkew).
type WrkTarget struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    []byte            `json:"-"`
}

// SignedGet exchanges the user's password for a key, signs a GET of
// pathAndQuery and fetches it once, so the baseline can answer with the
// same bytes.
func SignedGet(ctx context.Context, cfg Config, pathAndQuery string) (WrkTarget, error) {
	if err := CheckLoopback(cfg.BaseURL); err != nil {
		return WrkTarget{}, err
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	key, _, err := Exchange(ctx, hc, cfg.BaseURL, cfg.AppID, cfg.AppSecret, cfg.User, cfg.Password)
	if err != nil {
		return WrkTarget{}, err
	}
	c := &client{base: strings.TrimRight(cfg.BaseURL, "/"), appID: cfg.AppID, secret: cfg.AppSecret, userKey: key, hc: hc}
	status, body, err := c.do(ctx, http.MethodGet, pathAndQuery, nil)
	if err != nil {
		return WrkTarget{}, err
	}
	if status != http.StatusOK {
		return WrkTarget{}, fmt.Errorf("GET %s: HTTP %d: %s", pathAndQuery, status, truncate(body))
	}
	u := c.base + pathAndQuery
	return WrkTarget{URL: u, Body: body, Headers: signing.Request{Method: http.MethodGet, URL: u,
		AppID: cfg.AppID, Secret: cfg.AppSecret, UserKey: key, Now: time.Now()}.Headers()}, nil
}

// BareHandler answers every GET whose signature (under secret, for the
// URL at base plus the request URI) is valid with body, and 401 otherwise.
func BareHandler(base, secret string, body []byte) http.Handler {
	base = strings.TrimRight(base, "/")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header
		msg := signing.Message(r.Method, base+r.RequestURI, h.Get("Content-Type"), h.Get(signing.HeaderDate), h.Get(signing.HeaderUserKey))
		if !signing.Valid(secret, msg, h.Get(signing.HeaderSignature)) {
			http.Error(w, "signature", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
}

// ServeBare serves BareHandler on ln until ctx ends.
func ServeBare(ctx context.Context, ln net.Listener, base, secret string, body []byte) error {
	srv := &http.Server{Handler: BareHandler(base, secret, body), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}
