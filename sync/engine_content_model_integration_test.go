package syncer

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The content model test: two laptops (one salesperson's two, or hers
// and the office's) and the real server. Each laptop adds, renames, reprices, nests, moves, reorders
// and removes items, options and areas, and copies proposals offline
// and edits the copy at once, syncing at random moments; one laptop
// talks through a proxy that loses answers, and is restarted on its
// store now and then. So copies and edits race the other laptop's moves
// and removals.
//
// Every item carries a tag in its description that no edit changes (a
// copy keeps it), and every value typed is unique, so the end state
// says which item each value landed on. At the end, both laptops synced
// and online:
//
//  1. nothing is wedged: every outbox entry is gone, or failed or in
//     conflict with its reason, or waits behind one that is;
//  2. a value typed for an item is on no other item (a copy of that item
//     is the same item);
//  3. every edit is on the server (the field holds its value, or a later
//     edit of the same field does), or the item is gone by a removal
//     that reached the server, or it is shown as refused or in conflict;
//  4. each laptop shows what the server has of every proposal.

var (
	contentSeeds = flag.Int("sync.seeds", 0, "seeds of TestEngineContentModel (0: a few)")
	contentTrace = flag.Bool("sync.trace", false, "TestEngineContentModel logs each step, each sync's outcome and each refusal")
)

func TestEngineContentModel(t *testing.T) {
	s := startReal(t)
	seeds := 3
	if testing.Short() {
		seeds = 2
	}
	if *contentSeeds > 0 {
		seeds = *contentSeeds
	}
	var total cmCounts
	for seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			c := runContentModel(t, s, uint64(seed))
			total.add(c)
		})
	}
	t.Logf("%d seeds: %s", seeds, total)
}

// cmCounts is what a run did and found.
type cmCounts struct {
	edits, copies, copyEdits, acked, failed, conflicts, blocked int
	// Of the fields acknowledged edits typed: holding the value, holding
	// a later edit's, gone with their item.
	held, superseded, gone                           int
	lostAnswers, restarts, localRefusals, violations int
}

func (c *cmCounts) add(o cmCounts) {
	c.edits += o.edits
	c.copies += o.copies
	c.copyEdits += o.copyEdits
	c.acked += o.acked
	c.failed += o.failed
	c.conflicts += o.conflicts
	c.blocked += o.blocked
	c.held += o.held
	c.superseded += o.superseded
	c.gone += o.gone
	c.lostAnswers += o.lostAnswers
	c.restarts += o.restarts
	c.localRefusals += o.localRefusals
	c.violations += o.violations
}

func (c cmCounts) String() string {
	return fmt.Sprintf("edits %d (copies %d, edits of fresh copies %d): landed %d, refused %d, conflict %d, waiting behind those %d; "+
		"fields landed: held %d, superseded %d, gone with the item %d; refused locally %d; lost answers %d, restarts %d; violations %d",
		c.edits, c.copies, c.copyEdits, c.acked, c.failed, c.conflicts, c.blocked, c.held, c.superseded, c.gone,
		c.localRefusals, c.lostAnswers, c.restarts, c.violations)
}

// cmLaptop is one laptop.
type cmLaptop struct {
	name  string
	d     *desk
	proxy *tcpProxy // nil: talks to the server directly
	actor app.User
	ids   map[string]int64
}

// cmEdit is one edit a laptop made (its outbox entry seq) and what it
// typed: field → value. Fields: name, quantity, sellPrice (the value),
// parent (the parent's tag, "" un-nests), option (the option's key),
// position (not checked: other edits shift it), and for a removal
// item, option or area (the removed part's tag or key).
type cmEdit struct {
	order  int
	laptop int
	seq    uint64
	prop   string
	tag    string
	vals   map[string]string

	// resent: when the entry left the outbox it had been sent in an
	// earlier sync (its answer lost), so it may have landed then.
	// goneBefore: the server had had its item, and had it no longer
	// when the sync in which the entry left the outbox began.
	resent, goneBefore bool
}

type contentRun struct {
	t    *testing.T
	s    *realServer
	r    *rand.Rand
	seed uint64
	n    int
	laps [2]*cmLaptop
	me   app.User

	props  []string           // proposal keys (their names), in order made
	copyOf map[string]string  // copy → source
	made   map[string]*cmEdit // copy → the edit that made it
	edits  []*cmEdit
	// The tags of each proposal on the server after the last sync, and
	// ever.
	serverHas, onServer map[string]map[string]bool
	// owner: for each checked field, each value typed → the proposal
	// and tag it was typed for.
	owner map[string]map[string][2]string
	// Where each tag was ever seen, in any view: under which parent
	// tags, in which options, in which areas.
	everParent, everOption, everArea map[string]map[string]bool
	log                              []string
	counts                           cmCounts
}

// cmItem is an item as the test sees it.
type cmItem struct {
	id                    int64
	tag, parentTag, opt   string
	area                  string
	name, quantity, price string
}

func optionKey(a app.Area, o app.Option) string { return a.Name + "/" + o.ClientDescription }

// cmItems are p's items in order, with their tags.
func cmItems(p *app.Proposal) []cmItem {
	var out []cmItem
	for _, a := range p.Areas {
		for _, o := range a.Options {
			tags := map[int64]string{}
			for _, it := range o.Items {
				tags[it.ID] = it.Description
			}
			for _, it := range o.Items {
				parent := ""
				if it.ParentID != 0 {
					parent = tags[it.ParentID]
					if parent == "" {
						parent = fmt.Sprint("?", it.ParentID)
					}
				}
				out = append(out, cmItem{id: it.ID, tag: it.Description, parentTag: parent, opt: optionKey(a, o), area: a.Name,
					name: it.Name, quantity: it.Quantity.String(), price: it.SellPrice.String()})
			}
		}
	}
	return out
}

func runContentModel(t *testing.T, s *realServer, seed uint64) cmCounts {
	c := &contentRun{t: t, s: s, r: rand.New(rand.NewPCG(seed, 23)), seed: seed, me: s.appUser(t, app.RoleSales),
		copyOf: map[string]string{}, made: map[string]*cmEdit{}, onServer: map[string]map[string]bool{}, owner: map[string]map[string][2]string{},
		everParent: map[string]map[string]bool{}, everOption: map[string]map[string]bool{}, everArea: map[string]map[string]bool{}}
	a := &cmLaptop{name: "A", d: s.newDesk(t, s.URL, app.RoleSales, nil, nil), actor: c.me, ids: map[string]int64{}}
	// B is the same salesperson's other laptop, or (odd seeds) the
	// office's.
	roleB := app.RoleSales
	if seed%2 == 1 {
		roleB = app.RoleAdmin
	}
	proxy := startProxy(t, s.URL)
	b := &cmLaptop{name: "B", d: s.newDesk(t, proxy.URL(), roleB, nil, []Option{WithHTTPClient(noKeepAlive()), WithMaxAttempts(1)}),
		proxy: proxy, actor: s.appUser(t, roleB), ids: map[string]int64{}}
	c.laps = [2]*cmLaptop{a, b}
	a.d.sync(t)
	b.d.sync(t)

	// A makes the proposal: two areas, three options, a few items.
	key := fmt.Sprintf("CM s%d base", seed)
	p := c.mustEdit(0, "", &app.CreateProposal{SalesPersonID: c.me.ID, Name: &key})
	a.ids[key] = p.ID
	c.props = append(c.props, key)
	c.createArea(0, key)
	c.createArea(0, key)
	v := c.view(0, key)
	c.createOption(0, key, v.Areas[0])
	for range 5 {
		c.addItem(0, key)
	}
	c.sync(0)
	c.sync(1)

	steps := 70 + c.r.IntN(30)
	for range steps {
		c.step()
	}
	c.settle()
	c.check()
	t.Logf("seed %d: %s", seed, c.counts)
	return c.counts
}

// step does one random thing on a random laptop.
func (c *contentRun) step() {
	li := c.r.IntN(2)
	L := c.laps[li]
	switch op := c.r.IntN(100); {
	case op < 14:
		c.sync(li)
	case op < 18 && L.proxy != nil:
		// The answer to one request is lost after the server acted.
		L.proxy.then(proxyStep{Action: proxyCut, Keep: c.r.IntN(2) * 30})
		c.logf("%s lost answer", L.name)
		c.counts.lostAnswers++
		c.sync(li)
	case op < 20 && L.proxy != nil:
		c.restart(li)
	case op < 23:
		c.copyAndEdit(li)
	default:
		// Most edits go to the first proposal, so that the laptops' edits
		// meet; the rest spread over the copies.
		keys := c.known(li)
		key := keys[0]
		if c.r.IntN(2) == 0 {
			key = keys[c.r.IntN(len(keys))]
		}
		tag := c.contentEdit(li, key, op, "")
		// Now and then more edits of the same item follow (a nest, then
		// a move that un-nests it), each judged on its own.
		for tag != "" && c.r.IntN(3) == 0 {
			c.contentEdit(li, key, 40+c.r.IntN(55), tag)
		}
	}
}

// contentEdit makes one random edit of proposal key on laptop li.
func (c *contentRun) contentEdit(li int, key string, op int, tag string) (edited string) {
	v := c.view(li, key)
	items := cmItems(v)
	if tag != "" {
		items = slices.DeleteFunc(items, func(it cmItem) bool { return it.tag != tag })
		if len(items) == 0 {
			return ""
		}
	}
	if len(items) == 0 || op < 40 {
		if len(v.Areas) == 0 || op%7 == 0 {
			c.createArea(li, key)
			return
		}
		if op%5 == 0 {
			c.createOption(li, key, v.Areas[c.r.IntN(len(v.Areas))])
			return
		}
		c.addItem(li, key)
		return
	}
	it := items[c.r.IntN(len(items))]
	edited = it.tag
	switch {
	case op < 52:
		c.changeItem(li, key, it, "name")
	case op < 60:
		c.changeItem(li, key, it, "quantity")
	case op < 66:
		c.changeItem(li, key, it, "sellPrice")
	case op < 72: // nest under another top-level item of its option
		var under []cmItem
		for _, u := range items {
			if u.opt == it.opt && u.tag != it.tag && u.parentTag == "" && u.tag != it.parentTag {
				under = append(under, u)
			}
		}
		if len(under) == 0 {
			return
		}
		u := under[c.r.IntN(len(under))]
		c.record(li, key, it.tag, map[string]string{"parent": u.tag},
			&app.ChangeItem{ID: v.ID, ItemID: it.id, ParentID: &u.id})
	case op < 75:
		if it.parentTag == "" {
			return
		}
		c.record(li, key, it.tag, map[string]string{"parent": ""},
			&app.ChangeItem{ID: v.ID, ItemID: it.id, ParentID: ptrTo(int64(0))})
	case op < 82: // move to another option, un-nesting it
		type opt struct {
			id  int64
			key string
		}
		var opts []opt
		for _, a := range v.Areas {
			for _, o := range a.Options {
				if optionKey(a, o) != it.opt {
					opts = append(opts, opt{o.ID, optionKey(a, o)})
				}
			}
		}
		if len(opts) == 0 {
			return
		}
		o := opts[c.r.IntN(len(opts))]
		m := &app.ChangeItem{ID: v.ID, ItemID: it.id, OptionID: &o.id}
		vals := map[string]string{"option": o.key}
		if it.parentTag != "" {
			m.ParentID = ptrTo(int64(0))
			vals["parent"] = ""
		}
		c.record(li, key, it.tag, vals, m)
	case op < 87:
		c.record(li, key, it.tag, map[string]string{"position": ""},
			&app.ChangeItem{ID: v.ID, ItemID: it.id, Position: ptrTo(int64(c.r.IntN(4)))})
	case op < 94:
		c.record(li, key, it.tag, map[string]string{"item": it.tag}, &app.RemoveItem{ID: v.ID, ItemID: it.id})
	case op < 98:
		for _, a := range v.Areas {
			if a.Name == it.area && len(a.Options) > 1 {
				o := a.Options[c.r.IntN(len(a.Options))]
				c.record(li, key, "", map[string]string{"option": optionKey(a, o)}, &app.RemoveOption{ID: v.ID, OptionID: o.ID})
			}
		}
	default:
		if len(v.Areas) > 1 {
			a := v.Areas[c.r.IntN(len(v.Areas))]
			c.record(li, key, "", map[string]string{"area": a.Name}, &app.RemoveArea{ID: v.ID, AreaID: a.ID})
		}
	}
	return edited
}

// changeItem types a new unique value into one field of an item.
func (c *contentRun) changeItem(li int, key string, it cmItem, field string) {
	c.n++
	id := c.laps[li].ids[key]
	m := &app.ChangeItem{ID: id, ItemID: it.id}
	var val string
	switch field {
	case "name":
		val = fmt.Sprint("v", c.n)
		m.Name = &val
	case "quantity":
		m.Quantity = qty(fmt.Sprint(c.n))
		val = m.Quantity.String()
	case "sellPrice":
		m.SellPrice = money(fmt.Sprintf("%d.07", c.n))
		val = m.SellPrice.String()
	}
	c.record(li, key, it.tag, map[string]string{field: val}, m)
}

// addItem adds a tagged item, with a typed name, quantity and price, to
// a random option.
func (c *contentRun) addItem(li int, key string) {
	v := c.view(li, key)
	var opts []int64
	for _, a := range v.Areas {
		for _, o := range a.Options {
			opts = append(opts, o.ID)
		}
	}
	if len(opts) == 0 {
		return
	}
	c.n++
	tag, name := fmt.Sprint("t", c.n), fmt.Sprint("v", c.n)
	m := &app.AddItem{ID: v.ID, OptionID: opts[c.r.IntN(len(opts))], ItemType: ptrTo(app.ItemPart), Name: &name, Description: &tag,
		Quantity: qty(fmt.Sprint(c.n)), SellPrice: money(fmt.Sprintf("%d.07", c.n))}
	c.record(li, key, tag, map[string]string{"name": name, "quantity": m.Quantity.String(), "sellPrice": m.SellPrice.String()}, m)
}

func (c *contentRun) createArea(li int, key string) {
	c.n++
	id := c.laps[li].ids[key]
	c.record(li, key, "", nil, &app.CreateArea{ID: id, Name: fmt.Sprint("a", c.n)})
}

func (c *contentRun) createOption(li int, key string, a app.Area) {
	c.n++
	id := c.laps[li].ids[key]
	c.record(li, key, "", nil, &app.CreateOption{ID: id, AreaID: a.ID, ClientDescription: fmt.Sprint("o", c.n)})
}

// copyAndEdit copies a proposal on laptop li, not synced, and edits the
// copy at once: renames, new quantities, removals.
func (c *contentRun) copyAndEdit(li int) {
	L := c.laps[li]
	keys := c.known(li)
	src := keys[c.r.IntN(len(keys))]
	c.n++
	key := fmt.Sprintf("CM s%d c%d", c.seed, c.n)
	cp, ok := c.record(li, src, "", nil, &app.CopyProposal{ID: L.ids[src], Name: &key})
	if !ok {
		return
	}
	L.ids[key] = cp.ID
	c.props = append(c.props, key)
	c.copyOf[key] = src
	c.made[key] = c.edits[len(c.edits)-1]
	c.counts.copies++
	for range 1 + c.r.IntN(4) {
		items := cmItems(c.view(li, key))
		if len(items) == 0 {
			return
		}
		it := items[c.r.IntN(len(items))]
		before := len(c.edits)
		switch c.r.IntN(4) {
		case 0, 1:
			c.changeItem(li, key, it, "name")
		case 2:
			c.changeItem(li, key, it, "quantity")
		default:
			c.record(li, key, it.tag, map[string]string{"item": it.tag}, &app.RemoveItem{ID: cp.ID, ItemID: it.id})
		}
		c.counts.copyEdits += len(c.edits) - before
	}
}

// record makes edit m of proposal key on laptop li and remembers what it
// typed. A refusal by the local rules is no edit (the screen says so at
// once); ok is false then.
func (c *contentRun) record(li int, key, tag string, vals map[string]string, m app.Mutation) (*app.Proposal, bool) {
	t := c.t
	t.Helper()
	L := c.laps[li]
	p, err := L.d.eng.Edit(bg, m.ProposalID(), m)
	var rule *app.Error
	if errors.As(err, &rule) {
		c.counts.localRefusals++
		return nil, false
	}
	if err != nil {
		t.Fatalf("seed %d: %s: %s of %s: %v", c.seed, L.name, m.Kind(), key, err)
	}
	entries, err := L.d.st.Entries()
	if err != nil || len(entries) == 0 {
		t.Fatalf("seed %d: outbox after an edit: %v, %d entries", c.seed, err, len(entries))
	}
	e := &cmEdit{order: len(c.edits), laptop: li, seq: entries[len(entries)-1].Seq, prop: key, tag: tag, vals: vals}
	c.edits = append(c.edits, e)
	c.counts.edits++
	for f, v := range vals {
		if f == "name" || f == "quantity" || f == "sellPrice" {
			if c.owner[f] == nil {
				c.owner[f] = map[string][2]string{}
			}
			c.owner[f][v] = [2]string{key, tag}
		}
	}
	c.logf("%s %s %s %s %v #%d", L.name, key, m.Kind(), tag, vals, e.seq)
	c.observe(p)
	return p, true
}

func (c *contentRun) mustEdit(li int, key string, m app.Mutation) *app.Proposal {
	p, ok := c.record(li, key, "", nil, m)
	if !ok {
		c.t.Fatalf("seed %d: %s refused", c.seed, m.Kind())
	}
	return p
}

// observe notes where each tag of p is.
func (c *contentRun) observe(p *app.Proposal) {
	if p == nil {
		return
	}
	note := func(m map[string]map[string]bool, tag, v string) {
		if m[tag] == nil {
			m[tag] = map[string]bool{}
		}
		m[tag][v] = true
	}
	for _, it := range cmItems(p) {
		if it.parentTag != "" {
			note(c.everParent, it.tag, it.parentTag)
		}
		note(c.everOption, it.tag, it.opt)
		note(c.everArea, it.tag, it.area)
	}
}

func (c *contentRun) logf(format string, args ...any) {
	c.log = append(c.log, fmt.Sprintf(format, args...))
}

// view is laptop li's view of proposal key.
func (c *contentRun) view(li int, key string) *app.Proposal {
	rec, err := c.laps[li].d.st.Record(c.laps[li].ids[key])
	if err != nil {
		c.t.Fatalf("seed %d: %s: record of %s: %v", c.seed, c.laps[li].name, key, err)
	}
	return rec.Local
}

// known are the proposal keys laptop li has.
func (c *contentRun) known(li int) []string {
	var out []string
	for _, k := range c.props {
		if _, ok := c.laps[li].ids[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// sync runs one sync of laptop li, whatever its outcome, then notes
// what the server holds and which proposals the laptop now has.
func (c *contentRun) sync(li int) {
	L := c.laps[li]
	before, err := L.d.st.Entries()
	if err != nil {
		c.t.Fatal(err)
	}
	err = L.d.eng.SyncOnce(bg)
	c.logf("%s sync: %v", L.name, err)
	after, err := L.d.st.Entries()
	if err != nil {
		c.t.Fatal(err)
	}
	have := map[uint64]localstore.Entry{}
	for _, e := range after {
		have[e.Seq] = e
	}
	if *contentTrace {
		for _, e := range before {
			if a, ok := have[e.Seq]; !ok {
				c.logf("   gone #%d", e.Seq)
			} else if a.State != e.State {
				c.logf("   #%d %s → %s %q", e.Seq, e.State, a.State, a.ErrorMessage)
			}
		}
		for _, k := range c.props {
			if g := c.server(k); g != nil {
				c.logf("   server %s: %s", k, cmShape(g))
			}
			if id, ok := L.ids[k]; ok {
				rec, _ := L.d.st.Record(id)
				c.logf("   %s %s (%d): %s", L.name, k, id, cmShape(rec.Local))
			}
		}
	}
	// This laptop's edits that left the outbox in this sync: had the
	// server lost their item before it began?
	was := map[uint64]localstore.State{}
	for _, e := range before {
		was[e.Seq] = e.State
	}
	for _, e := range c.edits {
		st, queued := was[e.seq]
		if _, left := have[e.seq]; e.laptop != li || !queued || left {
			continue
		}
		e.resent = st == localstore.StateSent
		e.goneBefore = e.tag != "" && c.onServer[e.prop][e.tag] && !c.serverHas[e.prop][e.tag]
	}
	c.discover()
	c.serverHas = map[string]map[string]bool{}
	for _, k := range c.props {
		g := c.server(k)
		if g == nil {
			continue
		}
		c.observe(g)
		c.serverHas[k] = map[string]bool{}
		if c.onServer[k] == nil {
			c.onServer[k] = map[string]bool{}
		}
		for _, it := range cmItems(g) {
			c.serverHas[k][it.tag], c.onServer[k][it.tag] = true, true
		}
	}
}

// discover gives each laptop the IDs of proposals it has pulled.
func (c *contentRun) discover() {
	for _, L := range c.laps {
		for _, k := range c.props {
			if _, ok := L.ids[k]; ok {
				continue
			}
			if items := named(c.t, L.d, k); len(items) > 0 {
				L.ids[k] = items[0].ID
			}
		}
	}
}

// serverID is proposal key's ID on the server, 0 when it is not there
// yet.
func (c *contentRun) serverID(key string) int64 {
	for _, L := range c.laps {
		if id, ok := L.ids[key]; ok {
			if id = L.d.st.Resolve(id); id > 0 {
				return id
			}
		}
	}
	return 0
}

// server is the server's proposal key, nil when it is not there.
func (c *contentRun) server(key string) *app.Proposal {
	id := c.serverID(key)
	if id == 0 {
		return nil
	}
	got, err := c.s.admin(c.t).GetProposal(bg, id)
	if app.KindOf(err) == app.KindNotFound {
		return nil
	}
	if err != nil {
		c.t.Fatalf("seed %d: reading %s from the server: %v", c.seed, key, err)
	}
	return ProposalFromDetail(got.Proposal)
}

// restart kills the laptop's app and opens its store again.
func (c *contentRun) restart(li int) {
	L := c.laps[li]
	path := L.d.st.Path()
	if err := L.d.st.Close(); err != nil {
		c.t.Fatal(err)
	}
	L.d.st = openLocal(c.t, path)
	L.d.eng = NewEngine(L.d.st, L.d.c, L.actor)
	c.counts.restarts++
	c.logf("%s restart", L.name)
}

// settle syncs both laptops, online, until neither has anything to send,
// then once more each so that each has pulled the other's last edits.
func (c *contentRun) settle() {
	t := c.t
	for _, L := range c.laps {
		if L.proxy != nil {
			L.proxy.mu.Lock()
			L.proxy.plan = nil
			L.proxy.mu.Unlock()
		}
	}
	for round := 0; ; round++ {
		if round == 10 {
			t.Fatalf("seed %d: the outboxes did not drain in %d rounds\n%s", c.seed, round, strings.Join(c.log, "\n"))
		}
		idle := true
		for li, L := range c.laps {
			c.sync(li)
			entries, err := L.d.st.Pending(0)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				idle = idle && e.Blocked
			}
			idle = idle && L.d.eng.State().LastError == nil
		}
		if idle {
			break
		}
	}
	for li, L := range c.laps {
		L.d.sync(t)
		c.sync(li)
	}
}
