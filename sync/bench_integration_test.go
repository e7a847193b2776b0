package syncer

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The sync engine's speed against a real server on loopback, with a real
// (fsynced) local bbolt file.
//
//	go test -run '^$' -bench 'FirstSync2000|Push1000' -benchtime 3x ./sync/
//
// Targets: the first sync of 2,000 proposals under 20 s; pushing 1,000
// queued edits under 15 s.

// BenchmarkFirstSync2000 downloads an account of 2,000 proposals (the
// demo data grown) into an empty local store: changes feed, 2,000
// details with the default concurrency, users, contacts and their
// locations, committed a chunk (DefaultPullChunk proposals) at a time.
func BenchmarkFirstSync2000(b *testing.B) {
	d := startDemo(b, 2000)
	c, actor := d.signedIn(b, app.RoleSales)
	page, err := c.ListProposals(bg, ProposalQuery{PageSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st, err := localstore.Open(filepath.Join(b.TempDir(), fmt.Sprint("desk", i, ".db")))
		if err != nil {
			b.Fatal(err)
		}
		eng := NewEngine(st, c, actor)
		b.StartTimer()
		if err := eng.SyncOnce(bg); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_, n, _ := st.Search(app.DefaultListQuery())
		if n != page.Count {
			b.Fatalf("the local store lists %d proposals, the server %d", n, page.Count)
		}
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sync")
}

// BenchmarkPush1000 pushes 1,000 queued offline edits over 100
// proposals (10 each: a description, a rename, two areas with an extra
// option each, option texts and installer notes; temporary IDs chained)
// and reports the push alone and the whole sync (push, then the pull of
// the 100 changed proposals).
func BenchmarkPush1000(b *testing.B) {
	s := startReal(b)
	me := s.appUser(b, app.RoleSales)
	c := s.signedIn(b, s.URL, app.RoleSales)
	var pushTotal, syncTotal time.Duration
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		st := openLocal(b, "")
		eng := NewEngine(st, c, me)
		var ids []int64
		for j := range 100 {
			p, err := c.CreateProposal(bg, me.ID, fmt.Sprintf("Bench %d/%d", i, j), WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		if err := eng.SyncOnce(bg); err != nil {
			b.Fatal(err)
		}
		edits := 0
		edit := func(id int64, m app.Mutation) *app.Proposal {
			p, err := eng.Edit(bg, id, m)
			if err != nil {
				b.Fatal(err)
			}
			edits++
			return p
		}
		for _, id := range ids {
			edit(id, &app.SetDescription{ID: id, Description: "Offline description"})
			edit(id, &app.UpdateProposal{ID: id, Name: strp(fmt.Sprint("Renamed ", id))})
			for k := range 2 {
				p := edit(id, &app.CreateArea{ID: id, Name: fmt.Sprint("Room ", k)})
				a := p.Areas[len(p.Areas)-1]
				p = edit(id, &app.CreateOption{ID: id, AreaID: a.ID})
				o := p.Areas[len(p.Areas)-1].Options[1]
				edit(id, &app.SetOptionClientDescription{ID: id, OptionID: o.ID, ClientDescription: "Text"})
				edit(id, &app.SetOptionInstallerNotes{ID: id, OptionID: a.Options[0].ID, InstallerNotes: "Notes"})
			}
		}
		if edits != 1000 {
			b.Fatalf("%d edits", edits)
		}
		b.StartTimer()
		t0 := time.Now()
		if err := eng.push(bg); err != nil {
			b.Fatal(err)
		}
		pushTotal += time.Since(t0)
		if err := eng.pull(bg); err != nil {
			b.Fatal(err)
		}
		syncTotal += time.Since(t0)
		b.StopTimer()
		if cnt, _ := st.Counts(); cnt.Pending+cnt.Failed+cnt.Conflicts != 0 {
			b.Fatalf("outbox after the push: %+v", cnt)
		}
	}
	b.ReportMetric(pushTotal.Seconds()/float64(b.N), "s/push")
	b.ReportMetric(syncTotal.Seconds()/float64(b.N), "s/sync")
}

// BenchmarkPushItems500 pushes 500 lines added offline to one proposal
// (a salesperson's day on a big job, sent when back online). Each
// acknowledgment replays the edits still queued for the proposal on the
// server's new copy, so this is the case where the replay's cost grows
// with both the queue and the proposal.
func BenchmarkPushItems500(b *testing.B) {
	s := startReal(b)
	me := s.appUser(b, app.RoleSales)
	c := s.signedIn(b, s.URL, app.RoleSales)
	var total time.Duration
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		st := openLocal(b, "")
		eng := NewEngine(st, c, me)
		p, err := c.CreateProposal(bg, me.ID, fmt.Sprintf("Big job %d", i), WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := eng.SyncOnce(bg); err != nil {
			b.Fatal(err)
		}
		local, err := eng.Edit(bg, p.ID, &app.CreateArea{ID: p.ID, Name: "Theater"})
		if err != nil {
			b.Fatal(err)
		}
		opt := local.Areas[0].Options[0].ID
		for j := range 500 {
			price, q := app.Money(1000+j*37), app.Quantity(1+j%4)*app.OneUnit
			if _, err := eng.Edit(bg, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart),
				Name: strp(fmt.Sprint("Part ", j)), SellPrice: &price, Quantity: &q}); err != nil {
				b.Fatal(err)
			}
		}
		total += timedPush(b, eng, st)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/push")
}

// timedPush times eng's push of everything queued in st (the
// benchmark's timer running only for it) and checks that nothing is
// left.
func timedPush(b *testing.B, eng *Engine, st *localstore.Store) time.Duration {
	b.Helper()
	b.StartTimer()
	t0 := time.Now()
	if err := eng.push(bg); err != nil {
		b.Fatal(err)
	}
	d := time.Since(t0)
	b.StopTimer()
	if cnt, _ := st.Counts(); cnt.Pending+cnt.Failed+cnt.Conflicts != 0 {
		b.Fatalf("outbox after the push: %+v", cnt)
	}
	return d
}
