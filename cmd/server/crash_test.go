package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
)

// TestCrashSIGKILL kills the server mid-load and checks that every write
// it acknowledged survived and that nothing is half-written: under a
// steady load of a few writers, and in the middle of a burst of 32 whose
// writes share group commits.
func TestCrashSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	for _, tt := range []struct {
		name      string
		writers   int
		killAfter int // acknowledged writes
	}{
		{"steady load", 6, 20},
		{"burst of 32 writers", 32, 32},
	} {
		t.Run(tt.name, func(t *testing.T) { crashUnderWriters(t, tt.writers, tt.killAfter) })
	}
}

// crashUnderWriters starts writers clients adding areas to their own
// proposals, SIGKILLs the server once it acknowledged killAfter writes
// (the writers still writing), and checks the file.
func crashUnderWriters(t *testing.T, writers int, killAfter int) {
	data := t.TempDir()
	p := startServe(t, data, "--demo")
	creds := readDemo(t, data)
	c := login(t, p.baseURL, creds)

	acked := make([]map[string]bool, writers)
	ids := make([]int64, writers)
	for w := range writers {
		ids[w] = c.newProposal(t, fmt.Sprintf("Crash test %d", w))
		acked[w] = map[string]bool{}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var killed atomic.Bool
	total := 0
	for w := range writers {
		wg.Go(func() {
			hc := &http.Client{Timeout: 10 * time.Second}
			wc := *c
			wc.hc = hc
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("Room %d-%d", w, n)
				status, err := wc.call("POST", "/public/proposals/"+strconv.FormatInt(ids[w], 10)+"/area", map[string]any{"Name": name}, nil)
				if err != nil {
					// Once the kill is under way a request may die anywhere,
					// even between the status line and the body.
					if status == 0 || killed.Load() {
						return
					}
					t.Errorf("write %s: %v", name, err)
					return
				}
				mu.Lock()
				acked[w][name] = true
				total++
				mu.Unlock()
			}
		})
	}
	waitUntil(t, fmt.Sprint(killAfter, " acknowledged writes"), 60*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return total >= killAfter
	})
	killed.Store(true)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(t, 10*time.Second)
	close(stop)
	wg.Wait()
	t.Logf("%d writes acknowledged before SIGKILL", total)

	// The file opens and holds every acknowledged area; every proposal of
	// every account decodes and each of its areas has an option.
	st, err := boltstore.Open(filepath.Join(data, dbFile), boltstore.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatalf("database does not open after SIGKILL: %v", err)
	}
	ctx := context.Background()
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, a := range accts {
		err := st.View(ctx, a.ID, func(tx store.Tx) error {
			pids, err := tx.ProposalIDs()
			if err != nil {
				return err
			}
			for _, id := range pids {
				pr, err := tx.Proposal(id)
				if err != nil {
					return fmt.Errorf("proposal %d: %w", id, err)
				}
				checked++
				for _, ar := range pr.Areas {
					if len(ar.Options) == 0 {
						t.Errorf("proposal %d area %q has no option", id, ar.Name)
					}
				}
				if a.Name != demo.MainAccountName {
					continue
				}
				for w := range writers {
					if ids[w] != id {
						continue
					}
					have := map[string]bool{}
					for _, ar := range pr.Areas {
						have[ar.Name] = true
					}
					for name := range acked[w] {
						if !have[name] {
							t.Errorf("acknowledged area %q of proposal %d is missing", name, id)
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if checked < 30 {
		t.Errorf("only %d proposals checked", checked)
	}

	// And the server starts on it again and serves the data.
	p2 := startServe(t, data, "--demo")
	c2 := login(t, p2.baseURL, readDemo(t, data))
	for w := range writers {
		var d detail
		if _, err := c2.call("GET", "/public/proposals/"+strconv.FormatInt(ids[w], 10), nil, &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Areas) < len(acked[w]) {
			t.Errorf("proposal %d: %d areas after restart, %d acknowledged", ids[w], len(d.Areas), len(acked[w]))
		}
	}
	p2.cmd.Process.Signal(syscall.SIGTERM)
	if code := p2.wait(t, 25*time.Second); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
