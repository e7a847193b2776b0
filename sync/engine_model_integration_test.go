package syncer

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"proposaldesk/app"
)

// The model-based test: random sequences of offline edits, syncs,
// server-side edits (the office) and crashes (an answer lost, then the
// app restarted on its store), checked against an in-memory model of
// what the server must end up with.
//
// The desktop writes the name, the description, new areas ("Desk n"),
// new options and option client descriptions; the office writes the
// installer notes, new areas ("Office n") and option installer notes.
// The two never write the same field, so every edit of both must land:
// the model is the union. Same-field collisions are the conflict tests'
// business.

// modelArea is an area as the model expects it on the server.
type modelArea struct {
	options []modelOption
}

type modelOption struct {
	client, installer string
}

// model is what the server must hold of the proposal.
type model struct {
	name, description, notes string
	areas                    map[string]*modelArea // by name
}

func TestEngineModelBased(t *testing.T) {
	s := startReal(t)
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { runModel(t, s, uint64(seed)) })
	}
}

func runModel(t *testing.T, s *realServer, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 99))
	office := s.admin(t)
	p := serverDraft(t, s, fmt.Sprint("Model ", seed))
	m := &model{name: p.Name, areas: map[string]*modelArea{}}
	for _, a := range p.Areas {
		ma := &modelArea{}
		for _, o := range a.Options {
			ma.options = append(ma.options, modelOption{client: o.ClientDescription, installer: o.InstallerDescription})
		}
		m.areas[a.Name] = ma
	}

	proxy := startProxy(t, s.URL)
	copts := []Option{WithHTTPClient(noKeepAlive()), WithMaxAttempts(1)}
	d := s.newDesk(t, proxy.URL(), app.RoleSales, nil, copts)
	d.sync(t)
	path := d.st.Path()
	actor := s.appUser(t, app.RoleSales)

	// optionAt finds an area's option in the local view by index.
	localView := func() *app.Proposal {
		rec, err := d.st.Record(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Local
	}
	areaName := func(v *app.Proposal, areaID int64) string {
		for _, a := range v.Areas {
			if a.ID == areaID {
				return a.Name
			}
		}
		return ""
	}
	n := 0
	steps := 40 + r.IntN(20)
	var log []string
	for step := range steps {
		n++
		switch op := r.IntN(20); {
		case op < 10: // an offline edit on the desktop
			v := localView()
			var mut app.Mutation
			apply := func() {}
			switch r.IntN(5) {
			case 0:
				name := fmt.Sprintf("Model %d renamed %d", seed, n)
				mut = &app.UpdateProposal{ID: p.ID, Name: &name}
				apply = func() { m.name = name }
			case 1:
				text := fmt.Sprint("Description ", n)
				mut = &app.SetDescription{ID: p.ID, Description: text}
				apply = func() { m.description = text }
			case 2:
				name := fmt.Sprint("Desk ", n)
				mut = &app.CreateArea{ID: p.ID, Name: name}
				apply = func() { m.areas[name] = &modelArea{options: []modelOption{{}}} }
			case 3:
				a := v.Areas[r.IntN(len(v.Areas))]
				name := a.Name
				text := fmt.Sprint("Option ", n)
				mut = &app.CreateOption{ID: p.ID, AreaID: a.ID, ClientDescription: text}
				apply = func() { m.areas[name].options = append(m.areas[name].options, modelOption{client: text}) }
			case 4:
				a := v.Areas[r.IntN(len(v.Areas))]
				i := r.IntN(len(a.Options))
				o := a.Options[i]
				name, text := areaName(v, a.ID), fmt.Sprint("Client text ", n)
				mut = &app.SetOptionClientDescription{ID: p.ID, OptionID: o.ID, ClientDescription: text}
				apply = func() { m.areas[name].options[i].client = text }
			}
			if _, err := d.eng.Edit(bg, p.ID, mut); err != nil {
				if app.KindOf(err) == app.KindOptionLimitReached {
					continue // the local rules refuse it, as the server would
				}
				t.Fatalf("step %d: %s: %v", step, mut.Kind(), err)
			}
			apply()
			log = append(log, fmt.Sprintf("desk %s", mut.Kind()))
		case op < 13: // the office edits the server copy
			g := serverProposal(t, s, p.ID)
			var err error
			switch r.IntN(3) {
			case 0:
				text := fmt.Sprint("Office notes ", n)
				_, err = office.SetInternalNotes(bg, p.ID, text, WriteOptions{})
				m.notes = text
			case 1:
				name := fmt.Sprint("Office ", n)
				_, err = office.CreateArea(bg, p.ID, name, WriteOptions{})
				m.areas[name] = &modelArea{options: []modelOption{{}}}
			case 2:
				a := g.Areas[r.IntN(len(g.Areas))]
				i := r.IntN(len(a.Options))
				text := fmt.Sprint("Installer ", n)
				_, err = office.SetOptionInstallerNotes(bg, p.ID, a.Options[i].ID, text, WriteOptions{})
				m.areas[a.Name].options[i].installer = text
			}
			if err != nil {
				t.Fatalf("step %d: office: %v", step, err)
			}
			log = append(log, "office")
		case op < 17: // a sync
			_ = d.eng.SyncOnce(bg)
			log = append(log, "sync")
		default: // a crash: an answer lost, the app killed and restarted
			proxy.then(proxyStep{Action: proxyCut, Keep: r.IntN(2) * 30})
			_ = d.eng.SyncOnce(bg)
			if err := d.st.Close(); err != nil {
				t.Fatal(err)
			}
			d.st = openLocal(t, path)
			d.eng = NewEngine(d.st, d.c, actor)
			log = append(log, "crash")
		}
	}
	for range 10 {
		if err := d.eng.SyncOnce(bg); err == nil && d.eng.State().Pending == 0 {
			break
		}
	}
	if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 || st.LastError != nil {
		entries, _ := d.st.Entries()
		t.Fatalf("seed %d: the outbox did not drain: %+v\nentries %+v\nsteps %v", seed, st, entries, log)
	}

	// The server against the model.
	g := serverProposal(t, s, p.ID)
	got := map[string][]modelOption{}
	for _, a := range g.Areas {
		if _, dup := got[a.Name]; dup {
			t.Fatalf("seed %d: area %q twice", seed, a.Name)
		}
		for _, o := range a.Options {
			got[a.Name] = append(got[a.Name], modelOption{client: o.ClientDescription, installer: o.InstallerDescription})
		}
	}
	want := map[string][]modelOption{}
	for name, a := range m.areas {
		want[name] = a.options
	}
	if g.Name != m.name || g.ProjectDescription != m.description || g.InternalNotes != m.notes {
		t.Fatalf("seed %d: server %q / %q / %q, model %q / %q / %q\nsteps %v", seed, g.Name, g.ProjectDescription, g.InternalNotes,
			m.name, m.description, m.notes, log)
	}
	if !maps.EqualFunc(got, want, func(a, b []modelOption) bool { return slices.Equal(a, b) }) {
		t.Fatalf("seed %d: areas\n got %v\nwant %v\nsteps %v", seed, got, want, log)
	}
	// And the desktop shows what the server has.
	d.sync(t)
	rec, err := d.st.Record(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Local.Version != g.Version || rec.Local.Name != g.Name || len(rec.Local.Areas) != len(g.Areas) {
		t.Fatalf("seed %d: local version %d, server %d", seed, rec.Local.Version, g.Version)
	}
}
