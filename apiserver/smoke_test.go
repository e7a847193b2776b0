package apiserver

import (
	"net/http"
	"testing"
)

func TestSmoke(t *testing.T) {
	e := newEnv(t)
	r := e.get(e.main.admin, pathf("/public/proposals/%d", e.main.draft))
	d := detail(t, r)
	if d.ID != e.main.draft || r.header.Get("ETag") == "" || r.header.Get("Last-Modified") == "" {
		t.Fatalf("%+v %v", d.ID, r.header)
	}
	r = e.get(e.main.admin, "/public/proposals")
	wantStatus(t, r, http.StatusOK)
	t.Logf("%s", r.body[:200])
}
