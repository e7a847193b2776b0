package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/app"
)

// snapshotOf is what a client can see of a store, per account: the
// proposals, the feed from the start, the list, users and contacts, and
// the people feed (contacts with locations, positions).
func snapshotOf(t *testing.T, st store.Store) string {
	t.Helper()
	ctx := context.Background()
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.Encode(map[string]any{"storeId": st.StoreID(), "accounts": accts})
	for _, a := range accts {
		err := st.View(ctx, a.ID, func(tx store.Tx) error {
			ids, err := tx.ProposalIDs()
			if err != nil {
				return err
			}
			for _, id := range ids {
				p, err := tx.Proposal(id)
				if err != nil {
					return err
				}
				enc.Encode(p)
			}
			feed, next, err := tx.Changes("")
			list, n, err2 := tx.List(app.DefaultListQuery())
			users, err3 := tx.Users()
			contacts, nc, err4 := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 1000})
			people, err5 := tx.PeopleChanges("", app.MaxPeopleChangesLimit)
			enc.Encode([]any{feed, next, list, n, users, contacts, nc, people})
			return errors.Join(err, err2, err3, err4, err5)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestMigrateData copies a used bbolt data folder into PostgreSQL: every
// record, the feed and the store ID match, a client's key and its
// Idempotency-Key keep working against a server on the copy, and new IDs
// and numbers continue after the copied ones.
func TestMigrateData(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	data := t.TempDir()
	p := startServe(t, data, "--demo")
	c := login(t, p.baseURL, readDemo(t, data))
	id := c.newProposal(t, "Before the move")
	path := "/public/proposals/" + strconv.FormatInt(id, 10)
	sendOnce := func(c *apiClient) int {
		req := c.request("POST", path+"/area", strings.NewReader(`{"Name":"Kitchen"}`), "application/json")
		req.Header.Set("Idempotency-Key", "move-1")
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := sendOnce(c); st != http.StatusOK {
		t.Fatalf("create area: %d", st)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.wait(t, 25*time.Second)

	db := pgtest.NewDatabase(t)
	if out := mustRun(t, "migrate-data", "--from", data, "--database", db); !strings.Contains(out, "copied") {
		t.Errorf("migrate-data: %s", out)
	}
	if out, code := runCmd(t, "migrate-data", "--from", data, "--database", db); code == 0 || !strings.Contains(out, "empty") {
		t.Errorf("second copy into the same database: %d %s", code, out)
	}
	src, err := boltstore.Open(filepath.Join(data, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	want := snapshotOf(t, src)
	src.Close()
	dst, err := pgstore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	got := snapshotOf(t, dst)
	dst.Close()
	if got != want {
		t.Errorf("the copy differs:\n got %.2000s\nwant %.2000s", got, want)
	}

	p2 := startServe(t, t.TempDir(), "--database", db)
	c2 := *c
	c2.base = p2.baseURL
	if st := sendOnce(&c2); st != http.StatusOK {
		t.Errorf("replayed Idempotency-Key on the copy: %d", st)
	}
	var d detail
	if _, err := c2.call("GET", path, nil, &d); err != nil || len(d.Areas) != 1 {
		t.Fatalf("the same key reads the copy: %v, %d areas (the replay must not add one)", err, len(d.Areas))
	}
	if id2 := c2.newProposal(t, "After the move"); id2 <= id {
		t.Errorf("new ID %d not after the copied %d", id2, id)
	}
}
