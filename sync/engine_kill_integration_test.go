package syncer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The crash test: a sync runs in a child process (this test binary run
// again) that is killed with SIGKILL at a random moment. The parent then
// opens the local store, syncs to completion and checks that the server
// holds every queued edit exactly once: areas with options (temporary
// IDs chained), texts, and a copy made offline and edited at once.
//
// SYNCER_KILL_RUNS sets the number of runs (default 50); for a soak:
//
//	SYNCER_KILL_RUNS=500 go test -run TestEngineSurvivesSIGKILL -v ./sync/

const childEnv = "SYNCER_SYNC_CHILD"

// The child's lines on stdout: the store is open and the sync starts;
// the sync is done (and how long it took, in ms).
const (
	childReady = "SYNC-CHILD-READY"
	childDone  = "SYNC-CHILD-DONE"
)

// childConfig is what the parent hands the child.
type childConfig struct {
	DB        string   `json:"db"`
	BaseURL   string   `json:"baseUrl"`
	AppID     string   `json:"appId"`
	AppSecret string   `json:"appSecret"`
	Email     string   `json:"email"`
	APIKey    string   `json:"apiKey,omitempty"` // when the keyring is memory-only
	Actor     app.User `json:"actor"`
}

// TestHelperSyncChild is the child: open the store, sync once, exit.
func TestHelperSyncChild(t *testing.T) {
	raw := os.Getenv(childEnv)
	if raw == "" {
		t.Skip("runs only as the child of TestEngineSurvivesSIGKILL")
	}
	var cfg childConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	key := cfg.APIKey
	if key == "" {
		creds, err := NewKeyring().Load(cfg.BaseURL, cfg.Email)
		if err != nil {
			t.Fatalf("keyring: %v", err)
		}
		key = creds.APIKey
	}
	st, err := localstore.OpenWith(cfg.DB, localstore.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := NewClient(Connection{BaseURL: cfg.BaseURL, AppID: cfg.AppID, AppSecret: cfg.AppSecret},
		WithUserKey(key), WithHTTPClient(noKeepAlive()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fmt.Println(childReady)
	if err := NewEngine(st, c, cfg.Actor).SyncOnce(bg); err != nil {
		t.Fatal(err)
	}
	fmt.Println(childDone, time.Since(start).Milliseconds())
}

func TestEngineSurvivesSIGKILL(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("not in the child")
	}
	runs := 50
	if v, err := strconv.Atoi(os.Getenv("SYNCER_KILL_RUNS")); err == nil && v > 0 {
		runs = v
	}
	s := startReal(t)
	p := serverDraft(t, s, "Crash test")
	q := serverDraft(t, s, "Crash test 2")
	proxy := startProxy(t, s.URL)
	// Every request waits a little at the proxy, so that kills land in
	// the middle of pushes and pulls, not only before or after them.
	proxy.always(proxyStep{Action: proxyDelay, Delay: 4 * time.Millisecond})

	dbPath := filepath.Join(t.TempDir(), "desk.db")
	st := openLocal(t, dbPath)
	d := s.newDesk(t, s.URL, app.RoleSales, st, nil)
	d.sync(t)
	user := s.user(t, app.RoleSales, true)
	cfg := childConfig{DB: dbPath, BaseURL: proxy.URL(), AppID: s.AppID, AppSecret: s.AppSecret,
		Email: user.Email, Actor: s.appUser(t, app.RoleSales)}
	kr := NewKeyring(WithKeyringTimeout(5 * time.Second))
	if err := kr.Save(cfg.BaseURL, cfg.Email, Credentials{APIKey: d.c.UserKey(), AppSecret: s.AppSecret}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kr.Delete(cfg.BaseURL, cfg.Email) })
	if !kr.Persistent() {
		t.Log("no Secret Service: the child gets the API key from its environment")
		cfg.APIKey = d.c.UserKey()
	}
	rawCfg, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}

	r := rand.New(rand.NewPCG(2026, 11))
	var names []string // every area queued so far, in order
	var lastDesc string
	var killedMidway, finished int
	syncTime := 100 * time.Millisecond // running estimate of a child's sync
	var childTime, parentTime time.Duration
	total := 0
	for run := range runs {
		if run > 0 && run%10 == 0 {
			// A fresh proposal now and then keeps the records small (a
			// sync rewrites a whole proposal on every acknowledgement).
			total += len(names)
			p, names = serverDraft(t, s, fmt.Sprintf("Crash test %d", run)), nil
			d.sync(t)
		}
		// Queue edits: areas with an option each (temporary IDs chained),
		// option texts, and descriptions on a second proposal.
		k := 1 + r.IntN(4)
		for j := range k {
			name := fmt.Sprintf("Run %03d room %d", run, j)
			lp := d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: name})
			a := lp.Areas[len(lp.Areas)-1]
			lp = d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: a.ID})
			o := lp.Areas[len(lp.Areas)-1].Options[1]
			d.edit(t, p.ID, &app.SetOptionClientDescription{ID: p.ID, OptionID: o.ID, ClientDescription: name + " second"})
			lastDesc = fmt.Sprintf("Run %03d description %d", run, j)
			d.edit(t, q.ID, &app.SetDescription{ID: q.ID, Description: lastDesc})
			names = append(names, name)
		}
		// And a copy made offline and edited at once: an item added to
		// p, p copied, the copy's item renamed and given a quantity.
		item, copyName := fmt.Sprintf("Run %03d item", run), fmt.Sprintf("Run %03d copy", run)
		lp := d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: p.Areas[0].Options[0].ID, ItemType: ptrTo(app.ItemPart), Name: &item, SellPrice: money("10.00")})
		copyItems := len(lp.Areas[0].Options[0].Items)
		cp := d.edit(t, p.ID, &app.CopyProposal{ID: p.ID, Name: &copyName})
		d.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, item), Name: strp(item + ", copied"), Quantity: qty(fmt.Sprint(run + 1))})
		if err := d.st.Close(); err != nil {
			t.Fatal(err)
		}

		t0 := time.Now()
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSyncChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+string(rawCfg))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill at a random point of the sync itself: after the child
		// says it starts, within about the time a sync takes.
		lines := make(chan string, 8)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		delay := time.Duration(r.Int64N(int64(syncTime))) + time.Millisecond
		killed := false
		for line := range lines {
			if line == childReady && !killed && run%10 != 9 { // every tenth sync runs to its end
				time.AfterFunc(delay, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
				killed = true
			}
			if ms, ok := strings.CutPrefix(line, childDone+" "); ok {
				if v, err := strconv.Atoi(ms); err == nil {
					// Track how long a sync takes, to aim the next kills.
					syncTime = (3*syncTime + time.Duration(v)*time.Millisecond) / 4
				}
			}
		}
		if err := cmd.Wait(); err == nil {
			finished++
		} else if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killedMidway++
		} else {
			t.Fatalf("run %d: the child failed: %v", run, err)
		}

		childTime += time.Since(t0)
		t1 := time.Now()
		// Restart: the store opens, the outbox replays, nothing is lost
		// or doubled.
		d.st = openLocal(t, dbPath)
		d.eng = NewEngine(d.st, d.c, d.eng.actor)
		d.sync(t)
		if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 {
			entries, _ := d.st.Entries()
			t.Fatalf("run %d: after the restart sync: %+v, entries %+v", run, st, entries)
		}
		g := serverProposal(t, s, p.ID)
		var got []string
		for _, a := range g.Areas[1:] {
			got = append(got, a.Name)
			if len(a.Options) != 2 || a.Options[1].ClientDescription != a.Name+" second" {
				t.Fatalf("run %d: area %q has %d options (%+v)", run, a.Name, len(a.Options), a.Options)
			}
		}
		if !slices.Equal(got, names) {
			t.Fatalf("run %d (killed after %s): the server has areas\n%q\nwant\n%q", run, delay, got, names)
		}
		if gq := serverProposal(t, s, q.ID); gq.ProjectDescription != lastDesc {
			t.Fatalf("run %d: description %q, want %q", run, gq.ProjectDescription, lastDesc)
		}
		// The copy is on the server once, with its edit on its item.
		if n := len(named(t, d, copyName)); n != 1 {
			t.Fatalf("run %d: %d proposals named %q", run, n, copyName)
		}
		gc := serverProposal(t, s, findByName(t, d, copyName).ID)
		if got := gc.Areas[0].Options[0].Items; len(got) != copyItems || got[len(got)-1].Name != item+", copied" ||
			got[len(got)-1].Quantity != app.MustQuantity(fmt.Sprint(run+1)) {
			t.Fatalf("run %d: the server's copy has items %+v, want %d ending with %q × %d", run, got, copyItems, item+", copied", run+1)
		}
		parentTime += time.Since(t1)
	}
	t.Logf("children %s, parent's restarts and checks %s", childTime, parentTime)
	t.Logf("%d runs: %d killed mid-sync, %d finished before the kill; %d areas; a sync takes about %s",
		runs, killedMidway, finished, total+len(names), syncTime)
	if killedMidway < runs/3 {
		t.Fatalf("only %d of %d runs were killed mid-sync", killedMidway, runs)
	}
}
