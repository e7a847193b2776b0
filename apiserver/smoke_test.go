package apiserver

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"proposaldesk/apiserver/openapi"
)

// The OpenAPI document is served unsigned, exactly as embedded.
func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	res, err := http.Get(e.srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json = %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !bytes.Equal(body, openapi.JSON()) {
		t.Error("served document differs from the embedded one")
	}
	if res.Header.Get("Date") == "" {
		t.Error("no Date header")
	}
}
