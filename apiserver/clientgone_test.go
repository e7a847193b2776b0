package apiserver

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// A request whose client went away is logged with status 499 at the
// information level, not as an internal error; a cancellation inside a
// request whose client is still there stays an internal error.
func TestClientGoneIsNotAnInternalError(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("GET", "/public/proposals", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	e.s.writeError(rec, r, fmt.Errorf("list: %w", context.Canceled))
	if rec.Code != StatusClientClosedRequest || rec.Body.Len() != 0 {
		t.Errorf("client gone: %d %q, want 499 and no body", rec.Code, rec.Body)
	}
	if strings.Contains(e.logs.String(), "internal error") {
		t.Errorf("client gone logged as an internal error:\n%s", e.logs)
	}

	r = httptest.NewRequest("GET", "/public/proposals", nil)
	rec = httptest.NewRecorder()
	e.s.writeError(rec, r, fmt.Errorf("list: %w", context.Canceled))
	if rec.Code != 500 || !strings.Contains(e.logs.String(), "internal error") {
		t.Errorf("a cancellation with the client there: %d, log %q; want 500 and an internal error", rec.Code, e.logs)
	}
}
