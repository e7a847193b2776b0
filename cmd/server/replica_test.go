package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/lockout"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/app"
	"proposaldesk/cmd/server/internal/load"
)

// startReplicas starts two demo servers on one fresh PostgreSQL database,
// at once (one seeds, under the demo lock), each with its own data folder
// for its demo.json, and signs in to each.
func startReplicas(t *testing.T) ([2]*apiClient, [2]*proc) {
	cs, ps, _ := startReplicasCreds(t)
	return cs, ps
}

// startReplicasCreds is startReplicas with the demo credentials.
func startReplicasCreds(t *testing.T) ([2]*apiClient, [2]*proc, demo.Credentials) {
	t.Helper()
	db := pgtest.NewDatabase(t)
	var ps [2]*proc
	var datas [2]string
	var wg sync.WaitGroup
	for i := range ps {
		datas[i] = t.TempDir()
		wg.Go(func() { ps[i] = startServe(t, datas[i], "--demo", "--database", db, "--db-max-conns", "8") })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	var cs [2]*apiClient
	var creds demo.Credentials
	for i, p := range ps {
		creds = readDemo(t, datas[i])
		if creds.BaseURL != p.baseURL {
			t.Errorf("replica %d: demo.json baseUrl %q, listening on %q", i, creds.BaseURL, p.baseURL)
		}
		cs[i] = login(t, p.baseURL, creds) // the passwords reached both
	}
	return cs, ps, creds
}

// TestReplicas: two serve processes on one database behave as one server.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	cs, _, creds := startReplicasCreds(t)
	for _, c := range cs {
		for _, probe := range []string{"/healthz", "/readyz"} {
			resp, err := http.Get(c.base + probe)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("%s%s: %v %v", c.base, probe, resp, err)
			} else {
				resp.Body.Close()
			}
		}
	}

	// A write on one is read on the other at once.
	id := cs[0].newProposal(t, "Made on replica 0")
	path := "/public/proposals/" + strconv.FormatInt(id, 10)
	var d detail
	if _, err := cs[1].call("GET", path, nil, &d); err != nil || d.ID != id {
		t.Fatalf("replica 1 reading replica 0's write: %v %+v", err, d)
	}

	// 16 racing create-area calls over both lose none.
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if _, err := cs[i%2].call("POST", path+"/area", map[string]any{"Name": fmt.Sprint("Room ", i)}, nil); err != nil {
				t.Errorf("create area %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if _, err := cs[1].call("GET", path, nil, &d); err != nil || len(d.Areas) != 16 {
		t.Fatalf("after 16 racing create-area: %d areas, %v", len(d.Areas), err)
	}

	// 10 racing create-option calls on one area leave exactly three.
	area := d.Areas[0]
	var ok atomic.Int32
	for i := range 10 {
		wg.Go(func() {
			optPath := fmt.Sprintf("%s/area/%d/option", path, area.ID)
			if st, _ := cs[i%2].call("POST", optPath, map[string]any{"ClientDescription": fmt.Sprint("opt ", i)}, nil); st == http.StatusOK {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	cs[0].call("GET", path, nil, &d)
	for _, a := range d.Areas {
		if a.ID == area.ID && len(a.Options) != 3 {
			t.Errorf("area has %d options after 10 racing creates (%d succeeded); want 3", len(a.Options), ok.Load())
		}
	}

	// One Idempotency-Key sent to both replicas at once applies once.
	before := len(d.Areas)
	statuses := make([]int, 2)
	for i := range cs {
		wg.Go(func() {
			req := cs[i].request("POST", path+"/area", strings.NewReader(`{"Name":"Once"}`), "application/json")
			req.Header.Set("Idempotency-Key", "same-key-both-replicas")
			resp, err := cs[i].hc.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	wg.Wait()
	cs[1].call("GET", path, nil, &d)
	if len(d.Areas) != before+1 || statuses[0] != http.StatusOK || statuses[1] != http.StatusOK {
		t.Errorf("same key on two replicas: %d areas (want %d), statuses %v", len(d.Areas), before+1, statuses)
	}

	// Failed sign-ins count at both: wrong passwords spread over the two
	// replicas (each alone under the free allowance) lock the user out at
	// either, however a load balancer spreads the attempts.
	admin, _ := creds.User(demo.MainAccountName, app.RoleAdmin, true)
	hc := &http.Client{Timeout: 30 * time.Second}
	exchange := func(i int, password string) error {
		_, _, err := load.ExchangeOnce(context.Background(), hc, cs[i].base, creds.AppID, creds.AppSecret, admin.Email, password)
		return err
	}
	free := lockout.Default.Pair.Free
	for i := range free + 2 {
		if err := exchange(i%2, "not the password"); err == nil {
			t.Fatal("a wrong password was accepted")
		}
	}
	if err := exchange(1, admin.Password); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("after %d failures over two replicas, the correct password: %v; want 429 (the counts are shared)", free+2, err)
	}
}

// TestReplicaKilledUnderLoad: writers on both replicas add areas; one
// replica is killed with SIGKILL mid-load. Every write either replica
// acknowledged is there, read through the survivor, which kept serving.
func TestReplicaKilledUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	cs, ps := startReplicas(t)
	const writers = 6
	ids := make([]int64, writers)
	acked := make([]map[string]bool, writers)
	for w := range writers {
		ids[w] = cs[0].newProposal(t, fmt.Sprint("Kill test ", w))
		acked[w] = map[string]bool{}
	}
	var mu sync.Mutex
	var killed atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			wc := *cs[w%2]
			wc.hc = &http.Client{Timeout: 10 * time.Second}
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("Room %d-%d", w, n)
				status, err := wc.call("POST", "/public/proposals/"+strconv.FormatInt(ids[w], 10)+"/area", map[string]any{"Name": name}, nil)
				if err != nil {
					if w%2 == 0 && (status == 0 || killed.Load()) {
						return // the killed replica's writers stop
					}
					t.Errorf("write %s: %v", name, err)
					return
				}
				mu.Lock()
				acked[w][name] = true
				mu.Unlock()
			}
		})
	}
	// Each writer's replica has acknowledged some of its writes.
	ackedBy := func(w int) int {
		mu.Lock()
		defer mu.Unlock()
		return len(acked[w])
	}
	waitUntil(t, "4 acknowledged writes of every writer", 60*time.Second, func() bool {
		for w := range writers {
			if ackedBy(w) < 4 {
				return false
			}
		}
		return true
	})
	killed.Store(true)
	if err := ps[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	ps[0].wait(t, 10*time.Second)
	// The survivor keeps taking writes.
	before := ackedBy(1)
	waitUntil(t, "more writes acknowledged by the survivor", 30*time.Second, func() bool { return ackedBy(1) >= before+4 })
	close(stop)
	wg.Wait()
	total := 0
	for w := range writers {
		var d detail
		if _, err := cs[1].call("GET", "/public/proposals/"+strconv.FormatInt(ids[w], 10), nil, &d); err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, a := range d.Areas {
			have[a.Name] = true
		}
		for name := range acked[w] {
			total++
			if !have[name] {
				t.Errorf("acknowledged area %q of proposal %d is missing", name, ids[w])
			}
		}
	}
	if total < 20 {
		t.Errorf("only %d writes acknowledged", total)
	}
	t.Logf("%d acknowledged writes checked", total)
}

// TestReplicaSurvivesDatabaseRestart: while PostgreSQL is down a replica
// answers 503 with errorCode Unavailable in the API's error body and
// /readyz fails (/healthz does not); when the database is back the same
// process serves again.
func TestReplicaSurvivesDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	data := t.TempDir()
	p := startServe(t, data, "--demo", "--database", pgtest.NewDatabase(t))
	c := login(t, p.baseURL, readDemo(t, data))
	id := c.newProposal(t, "Before the outage")
	path := "/public/proposals/" + strconv.FormatInt(id, 10)
	probe := func(name string) int {
		resp, err := http.Get(p.baseURL + name)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cluster := pgtest.Shared(t)
	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			cluster.Start()
		}
	}()
	status, err := c.call("GET", path, nil, nil)
	if status != http.StatusServiceUnavailable || err == nil || !strings.Contains(err.Error(), `"errorCode":"Unavailable"`) {
		t.Errorf("GET with the database down: %d %v", status, err)
	}
	if st := probe("/readyz"); st != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database down: %d", st)
	}
	if st := probe("/healthz"); st != http.StatusOK {
		t.Errorf("/healthz with the database down: %d", st)
	}
	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	// Until the pool has a live connection again the server says 503
	// "try again shortly", as it should; a client waits for readiness.
	deadline := time.Now().Add(30 * time.Second)
	for probe("/readyz") != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("/readyz never reported the database back")
		}
		time.Sleep(50 * time.Millisecond) // polling a probe: nothing to wait on
	}
	var d detail
	if _, err := c.call("GET", path, nil, &d); err != nil || d.ID != id {
		t.Errorf("GET after the restart: %v", err)
	}
}
