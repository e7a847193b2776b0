package syncer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"proposaldesk/app"
)

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// A loopback proxy drops connections, delays them past the client's
// timeout, and cuts answers after the server committed: the desktop
// syncs until its outbox is empty, and every edit is on the server
// exactly once.
func TestEngineUnreliableNetworkEveryEditLandsOnce(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Unreliable")
	q := serverDraft(t, s, "Unreliable 2")
	// Sign-in and the first full sync (every cache, the catalog) go
	// straight to the server with the default timeout: on a busy
	// machine they can take longer than the faulty path allows, and
	// they are not what this test is about. The edits and every sync
	// after go through the proxy.
	first := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	first.sync(t)
	proxy := startProxy(t, s.URL)
	c := s.client(t, proxy.URL(), WithHTTPClient(noKeepAlive()), WithSleep(noSleep), WithTimeout(400*time.Millisecond),
		WithUserKey(first.c.UserKey()))
	d := &desk{st: first.st, c: c, eng: NewEngine(first.st, c, s.appUser(t, app.RoleSales))}

	const n = 12
	for i := range n {
		lp := d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: fmt.Sprintf("Room %02d", i)})
		a := lp.Areas[len(lp.Areas)-1]
		d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: a.ID, ClientDescription: fmt.Sprintf("Room %02d second", i)})
		d.edit(t, q.ID, &app.SetDescription{ID: q.ID, Description: fmt.Sprintf("Version %d", i)})
	}
	r := rand.New(rand.NewPCG(7, 11))
	var plan []proxyStep
	for range 150 {
		switch r.IntN(6) {
		case 5: // a burst the client's own retries cannot ride out
			for range 4 {
				plan = append(plan, proxyStep{Action: proxyDrop})
			}
		case 0:
			plan = append(plan, proxyStep{Action: proxyDrop})
		case 1:
			plan = append(plan, proxyStep{Action: proxyDelay, Delay: time.Duration(r.IntN(700)) * time.Millisecond})
		case 2:
			plan = append(plan, proxyStep{Action: proxyCut, Keep: r.IntN(2) * 40})
		default:
			plan = append(plan, proxyStep{Action: proxyPass})
		}
	}
	proxy.then(plan...)
	var errs int
	for range 200 {
		err := d.eng.SyncOnce(bg)
		if err == nil && d.eng.State().Pending == 0 {
			break
		}
		errs++
	}
	if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 || st.LastError != nil {
		t.Fatalf("after %d failed syncs: %+v", errs, st)
	}
	conns, cuts := proxy.stats()
	t.Logf("%d connections, %d answers cut, %d syncs did not complete", conns, cuts, errs)
	if cuts == 0 || errs == 0 {
		t.Fatalf("the proxy did not disturb anything (%d cuts, %d failed syncs)", cuts, errs)
	}
	g := serverProposal(t, s, p.ID)
	if len(g.Areas) != 1+n {
		t.Fatalf("server has %d areas, want %d", len(g.Areas), 1+n)
	}
	for i, a := range g.Areas[1:] {
		if a.Name != fmt.Sprintf("Room %02d", i) || len(a.Options) != 2 || a.Options[1].ClientDescription != fmt.Sprintf("Room %02d second", i) {
			t.Fatalf("area %d: %q with %d options", i, a.Name, len(a.Options))
		}
	}
	if gq := serverProposal(t, s, q.ID); gq.ProjectDescription != fmt.Sprintf("Version %d", n-1) {
		t.Fatalf("Q: %q", gq.ProjectDescription)
	}
	rec, _ := d.st.Record(p.ID)
	if rec.Local.Version != g.Version || len(rec.Local.Areas) != 1+n {
		t.Fatalf("local %d areas at version %d, server version %d", len(rec.Local.Areas), rec.Local.Version, g.Version)
	}
}
