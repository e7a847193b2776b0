package apiserver

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	"proposaldesk/apiserver/store"
)

// Cached details follow every change and what each reader may see.
func TestRenderedDetailFollowsWritesAndRoles(t *testing.T) {
	e := newEnv(t)
	path := pathf("/public/proposals/%d", e.main.draft)

	first := e.get(e.main.sales, path)
	wantStatus(t, first, http.StatusOK)
	again := e.get(e.main.sales, path)
	if !bytes.Equal(first.body, again.body) || first.header.Get("ETag") != again.header.Get("ETag") {
		t.Fatal("two reads of an unchanged proposal differ")
	}
	// The cached rendering's header values are the first read's.
	for _, h := range []string{"Last-Modified", "Content-Length"} {
		if first.header.Get(h) == "" || first.header.Get(h) != again.header.Get(h) {
			t.Errorf("%s: first read %q, cached read %q", h, first.header.Get(h), again.header.Get(h))
		}
	}
	if again.header.Get("Content-Length") != strconv.Itoa(len(again.body)) {
		t.Errorf("cached read: Content-Length %s for %d bytes", again.header.Get("Content-Length"), len(again.body))
	}
	if m, ok := e.st.(store.VersionMemo); ok {
		// bbolt: the second read took its stamp from the memo, the path
		// the reads below must keep correct.
		if v, ok := m.MemoVersion(e.main.acct.ID, e.main.draft); !ok || etagOf(v) != again.header.Get("ETag") {
			t.Fatalf("memo %d, %v after two reads; ETag %s", v, ok, again.header.Get("ETag"))
		}
	}

	// A Viewer reading after Sales never gets the Sales rendering (costs).
	viewer := detail(t, e.get(e.main.viewer, path))
	for _, a := range viewer.Areas {
		for _, o := range a.Options {
			for _, it := range o.Items {
				if it.Cost != nil {
					t.Fatalf("viewer sees cost %s of item %d", *it.Cost, it.ID)
				}
			}
		}
	}

	// A write through the API shows at once.
	wantStatus(t, e.postJSON(e.main.sales, path, map[string]any{"Name": "Renamed lobby"}), http.StatusOK)
	renamed := e.get(e.main.sales, path)
	if d := detail(t, renamed); d.Name != "Renamed lobby" {
		t.Errorf("after rename the detail says %q", d.Name)
	} else if renamed.header.Get("ETag") != etagOf(d.Version) ||
		renamed.header.Get("Last-Modified") != d.LastModifiedDate.UTC().Format(http.TimeFormat) {
		t.Errorf("after rename ETag %s, Last-Modified %s; the detail says version %d, modified %v",
			renamed.header.Get("ETag"), renamed.header.Get("Last-Modified"), d.Version, d.LastModifiedDate)
	}
	// So does a change stored without app.Apply (the store moves the version).
	e.update(e.main.acct.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(e.main.draft)
		if err != nil {
			return err
		}
		p.ProjectTerms = "Net 15"
		return tx.PutProposal(p)
	})
	if d := detail(t, e.get(e.main.sales, path)); d.ProjectTerms != "Net 15" {
		t.Errorf("after a direct store write the detail says terms %q", d.ProjectTerms)
	}
}

func TestRenderCacheKeepsItsBudget(t *testing.T) {
	c := newRenderCache(1000)
	for i := range int64(50) {
		c.put(renderKey{id: i, version: 1}, result{body: make([]byte, 100)})
	}
	if c.bytes > 1000 {
		t.Errorf("cache holds %d bytes, budget 1000", c.bytes)
	}
	c.put(renderKey{id: 99}, result{body: make([]byte, 500)}) // over an eighth: not kept
	if _, ok := c.get(renderKey{id: 99}); ok {
		t.Error("an outsized body was cached")
	}
	k := renderKey{id: 7, version: 2, costs: true}
	c.put(k, result{body: []byte("x"), etag: `"2"`})
	if res, ok := c.get(k); !ok || string(res.body) != "x" || res.header == nil ||
		res.header.etag[0] != `"2"` || res.header.contentLength[0] != "1" {
		t.Errorf("a fresh entry is missing or without its header values: %+v", res)
	}
	if _, ok := c.get(renderKey{id: 7, version: 2}); ok {
		t.Error("costs and no-costs renderings share a key")
	}
}
