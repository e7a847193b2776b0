package compat_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"proposaldesk/apiserver/apitest"
	"proposaldesk/app"
)

// TestPortalClientEndToEnd runs the Portal-style client through the
// exchange, a list page, a detail and a form-encoded write, and checks
// the write through the client's own reads and the server's store.
func TestPortalClientEndToEnd(t *testing.T) {
	srv, err := apitest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	sales := srv.Users[app.RoleSales]
	c := &portalClient{base: srv.URL, appID: srv.AppID, secret: srv.AppSecret, http: &http.Client{}}

	if err := c.signIn(sales.Email, sales.Password); err != nil {
		t.Fatal(err)
	}

	status, body, err := c.get("/public/proposals?PageSize=10&SortBy=Name")
	if err != nil || status != http.StatusOK {
		t.Fatalf("list: %d %v %s", status, err, body)
	}
	var list struct {
		Proposals []struct {
			ID int64 `json:"id"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("list: %v: %s", err, body)
	}
	found := false
	for _, p := range list.Proposals {
		found = found || p.ID == srv.Draft
	}
	if !found {
		t.Fatalf("list lacks proposal %d: %s", srv.Draft, body)
	}

	detailPath := fmt.Sprintf("/public/proposals/%d", srv.Draft)
	status, body, err = c.get(detailPath)
	if err != nil || status != http.StatusOK {
		t.Fatalf("detail: %d %v %s", status, err, body)
	}
	var before struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(body, &before); err != nil || before.Name != "Smith home theater" {
		t.Fatalf("detail: %v: %s", err, body)
	}

	const text = "Wall mount & calibrate = 100% \"done\"\nsecond line"
	status, body, err = c.postForm(detailPath+"/description", url.Values{"Description": {text}})
	if err != nil || status != http.StatusOK {
		t.Fatalf("form write: %d %v %s", status, err, body)
	}
	status, body, err = c.get(detailPath)
	if err != nil || status != http.StatusOK {
		t.Fatalf("detail after write: %d %v %s", status, err, body)
	}
	var after struct {
		ProjectDescription string `json:"projectDescription"`
	}
	if err := json.Unmarshal(body, &after); err != nil || after.ProjectDescription != text {
		t.Fatalf("description after write: %v: %s", err, body)
	}
	p, err := srv.Proposal(srv.Draft)
	if err != nil || p.ProjectDescription != text {
		t.Fatalf("stored description %q, %v", p.ProjectDescription, err)
	}
}
