package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"proposaldesk"
)

// TestVersion: `server --version` (and `server version`) print the
// VERSION file's number, serve logs it at start and /healthz serves it.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		out := mustRun(t, arg)
		if out != "Proposal Desk server "+proposaldesk.Version+"\n" {
			t.Errorf("server %s printed %q, want the version %s", arg, out, proposaldesk.Version)
		}
	}

	p := startServe(t, t.TempDir())
	if !strings.Contains(p.logs(), `"version":"`+proposaldesk.Version+`"`) {
		t.Errorf("serve's start log does not carry the version %s:\n%s", proposaldesk.Version, p.logs())
	}
	resp, err := http.Get(p.baseURL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Status, Version string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("/healthz is not JSON: %v", err)
	}
	if resp.StatusCode != http.StatusOK || body.Status != "ok" || body.Version != proposaldesk.Version {
		t.Errorf("/healthz: %d %+v, want 200 ok %s", resp.StatusCode, body, proposaldesk.Version)
	}
}
