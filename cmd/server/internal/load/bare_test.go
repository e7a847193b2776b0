package load

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"proposaldesk/app/signing"
)

// TestBareHandler: the baseline answers a correctly signed GET with the
// body, and anything else with 401.
func TestBareHandler(t *testing.T) {
	body := []byte(`{"id":1}`)
	srv := httptest.NewServer(BareHandler("http://api.example", "s3cret", body))
	defer srv.Close()
	sign := func(secret, url string) map[string]string {
		return signing.Request{Method: "GET", URL: url, AppID: "a", Secret: secret, UserKey: "k", Now: time.Now()}.Headers()
	}
	for _, tt := range []struct {
		name    string
		headers map[string]string
		status  int
	}{
		{"signed for the real server's URL", sign("s3cret", "http://api.example/public/proposals/1"), http.StatusOK},
		{"wrong secret", sign("other", "http://api.example/public/proposals/1"), http.StatusUnauthorized},
		{"another path", sign("s3cret", "http://api.example/public/proposals/2"), http.StatusUnauthorized},
		{"unsigned", nil, http.StatusUnauthorized},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/public/proposals/1", nil)
			for k, v := range tt.headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status == http.StatusOK && (string(got) != string(body) || resp.ContentLength != int64(len(body))) {
				t.Errorf("body %q (length %d), want %q", got, resp.ContentLength, body)
			}
		})
	}
}
