package apiserver

import (
	"net/http/httptest"
	"regexp"
	"testing"
)

// Made request IDs are 16 characters of lower-case base32 and do not
// repeat; a valid client ID is kept, an invalid one replaced.
func TestRequestIDs(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z2-7]{16}$`)
	seen := map[string]bool{}
	r := httptest.NewRequest("GET", "/", nil)
	for range 10000 {
		id := newRequestID(r)
		if !shape.MatchString(id) || seen[id] {
			t.Fatalf("request ID %q: bad shape or repeated", id)
		}
		seen[id] = true
	}
	r.Header.Set("X-Request-ID", "client-id:42")
	if id := newRequestID(r); id != "client-id:42" {
		t.Errorf("client ID replaced by %q", id)
	}
	r.Header.Set("X-Request-ID", "bad id")
	if id := newRequestID(r); !shape.MatchString(id) {
		t.Errorf("invalid client ID gave %q", id)
	}
}
