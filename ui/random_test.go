package ui

// A salesperson's session at random, through the widgets: new proposals
// and their names, areas, + Labor / + Fee / + Custom item, catalog picker
// adds, typing into the new lines, quantity and price changes, removals,
// Duplicate and rename, archive, going offline and online, with syncs
// before, during (between keystrokes, the field keeping the cursor) and
// after the typing. A model keeps what the user typed, where, and the
// value the product's own parsing makes of it. At the end, online and
// synced, each value must be in the local store and on the server (or
// shown refused, with the reason), the outbox empty of anything stuck,
// and the save indicators must never have claimed "in sync" or "All
// changes sent" while the screen showed "Not saved" or an edit was
// unsent (checked after every action).
//
// Short runs in CI; longer ones with flags:
//
//	go test ./ui -run TestRandomSessions -ui.long
//	go test ./ui -run TestRandomSessions -ui.seeds=50 -ui.actions=300 -ui.mode=loop
//	go test ./ui -run 'TestRandomSessions/manual/seed=7$' -ui.seed=7 -v

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

var (
	fuzzSeed    = flag.Int64("ui.seed", 0, "TestRandomSessions: run only this seed")
	fuzzSeeds   = flag.Int("ui.seeds", 0, "TestRandomSessions: run seeds 1..N (default: the CI seeds)")
	fuzzActions = flag.Int("ui.actions", 0, "TestRandomSessions: actions per session (default 100; 400 with -ui.long)")
	fuzzLong    = flag.Bool("ui.long", false, "TestRandomSessions: 20 seeds of 400 actions in each sync mode")
	fuzzMode    = flag.String("ui.mode", "", "TestRandomSessions: manual (syncs only when the user asks: Sync now, Ctrl+R, the periodic one), loop (the app's own sync loop, a sync after each edit) or offline (one sync at the end); empty: manual and loop")
)

// The sync modes. In manual the test waits for each sync it starts, so a
// seed replays the same session; in loop the app's loop syncs after
// every edit, racing the typing as it does for a user.
const (
	modeManual = "manual"
	modeLoop   = "loop"
	// modeOffline syncs only at the end: the paths that work without a
	// server in between, which checks the checker (no finding expected
	// from the model, the matching or the parsing).
	modeOffline = "offline"
)

func TestRandomSessions(t *testing.T) {
	type session struct {
		mode string
		seed int64
	}
	// CI: a replayable session, one with the app's sync loop, and one
	// offline until the end (which must pass: it checks the checker).
	// Each writes a real store with fsync: on a busy disk a session takes
	// 5 to 20 s.
	sessions := []session{{modeManual, 1}, {modeLoop, 1}, {modeOffline, 1}}
	seeds, actions := []int64(nil), 100
	if *fuzzLong {
		seeds, actions = nil, 400
		for s := int64(1); s <= 20; s++ {
			seeds = append(seeds, s)
		}
	}
	if *fuzzSeeds > 0 {
		seeds = nil
		for s := int64(1); s <= int64(*fuzzSeeds); s++ {
			seeds = append(seeds, s)
		}
	}
	if *fuzzSeed != 0 {
		seeds = []int64{*fuzzSeed}
	}
	if *fuzzActions > 0 {
		actions = *fuzzActions
	}
	modes := []string{modeManual, modeLoop}
	if *fuzzMode != "" {
		modes = []string{*fuzzMode}
	}
	if seeds != nil || *fuzzMode != "" {
		if seeds == nil {
			seeds = []int64{1, 2}
		}
		sessions = nil
		for _, mode := range modes {
			for _, seed := range seeds {
				sessions = append(sessions, session{mode, seed})
			}
		}
	}
	var all tally
	for _, s := range sessions {
		t.Run(fmt.Sprintf("%s/seed=%d", s.mode, s.seed), func(t *testing.T) {
			all.add(runSession(t, s.seed, s.mode, actions))
		})
	}
	t.Logf("all sessions: %s", all)
}

// tally is what a session counts.
type tally struct {
	sessions, actions, typed, checked, lost, shown, wrong, unsent, refused, wedged, lies, keysLost int
}

func (a *tally) add(b tally) {
	a.sessions += b.sessions
	a.actions += b.actions
	a.typed += b.typed
	a.checked += b.checked
	a.lost += b.lost
	a.shown += b.shown
	a.wrong += b.wrong
	a.unsent += b.unsent
	a.refused += b.refused
	a.wedged += b.wedged
	a.lies += b.lies
	a.keysLost += b.keysLost
}

func (a tally) String() string {
	return fmt.Sprintf("%d sessions, %d actions, %d values typed, %d fields checked: %d lost, %d shown refused, "+
		"%d wrong (untyped values changed, lines missing or extra), %d unsent behind a stuck outbox; "+
		"%d valid edits refused, %d wedged outbox entries, %d indicator lies, %d keystrokes with no field focused",
		a.sessions, a.actions, a.typed, a.checked, a.lost, a.shown, a.wrong, a.unsent, a.refused, a.wedged, a.lies, a.keysLost)
}

// The model: what the user made and typed, in the order they see it.

// mval is one field's expectation: how often the user typed into it, the
// reason shown when its save was refused, and the first action after
// which the screen showed something else.
type mval struct {
	typed   int
	refused string
	wrongAt int
}

type mItem struct {
	typ              app.ItemType
	name             string
	qty              app.Quantity
	price            app.Money
	vName, vQty, vPr mval
	// parent is the package line it is nested under (nil: none).
	parent *mItem
}

type mArea struct {
	name  string
	vName mval
	items []*mItem // its one option's items, in outline order
}

type mProposal struct {
	key      int // P1, P2, … in the order made
	name     string
	vName    mval
	archived bool
	areas    []*mArea
	// diverged says why the screen no longer lays out what the model
	// holds (a line missing or extra): no more content edits on it.
	diverged string
}

func (m *mProposal) String() string { return fmt.Sprintf("P%d %q", m.key, m.name) }

// copyAs is the copy Duplicate makes: same areas and lines, values as
// the user typed them, a Draft not archived.
func (m *mProposal) copyAs(key int) *mProposal {
	cp := &mProposal{key: key, name: "Copy of " + m.name}
	for _, a := range m.areas {
		ca := &mArea{name: a.name}
		copies := map[*mItem]*mItem{}
		for _, it := range a.items {
			c := &mItem{typ: it.typ, name: it.name, qty: it.qty, price: it.price, parent: copies[it.parent]}
			copies[it] = c
			ca.items = append(ca.items, c)
		}
		cp.areas = append(cp.areas, ca)
	}
	return cp
}

// fuzz is one session.
type fuzz struct {
	t     *testing.T
	h     *harness
	d     *Desktop
	rng   *rand.Rand
	seed  int64
	mode  string
	stamp string
	step  int
	log   []string
	props []*mProposal
	cur   *mProposal
	seq   int
	n     tally
	// before are the proposals the store had before the session.
	before map[int64]bool
	// Time spent waiting for syncs, saves and indicators (the report).
	syncs                    int
	inSync, inSettle, inSave time.Duration
	findings                 []string
	lieSeen                  map[string]bool
	rm                       *removed
	typing                   *typed
}

func runSession(t *testing.T, seed int64, mode string, actions int) tally {
	h := newHarness(t)
	h.autoSync = mode == modeLoop
	importCatalog(t, h)
	importPackages(t, h)
	// A removal is saved when the next edit or leaving the proposal ends
	// its undo, not when a timer runs out: that keeps a seed's session
	// the same from run to run.
	old := undoFor
	undoFor = time.Hour
	t.Cleanup(func() { undoFor = old })
	// The client's retries of an unreachable server wait milliseconds,
	// not seconds: the session goes offline often.
	d := h.signInWith(app.RoleSales, Options{SaveDelay: 50 * time.Millisecond,
		ClientOptions: []syncer.Option{syncer.WithBackoff(2*time.Millisecond, 10*time.Millisecond)}})
	z := &fuzz{t: t, h: h, d: d, rng: rand.New(rand.NewSource(seed)), seed: seed, mode: mode,
		stamp: time.Now().Format("150405"), lieSeen: map[string]bool{}}
	z.n.sessions = 1
	z.before = z.ourIDs()
	h.gate.down.Store(mode == modeOffline)
	if n, err := d.sess.st.CatalogSize(); err != nil || n == 0 {
		t.Fatalf("the laptop has no catalog after the first sync (%d items, %v)", n, err)
	}
	for z.step = 1; z.step <= actions; z.step++ {
		z.act()
		z.settle()
	}
	z.n.actions = actions
	z.step = actions + 1
	z.finish()
	z.check()
	z.report()
	// The headless driver never paints, so Fyne's renderer cache keeps
	// every widget ever drawn: a capture runs its clean-up, which drops
	// what no session used for a minute (a long run grew past 2 GB).
	z.canvas().Capture()
	return z.n
}

// drain runs the UI work queued, then notes how a removal still
// offering Undo ended, if it did.
func (z *fuzz) drain() {
	z.h.drain()
	z.resolveRemoval()
	z.checkTyping()
}

// removed is a line taken off the screen whose removal is saved at the
// next edit or when the proposal is left.
type removed struct {
	m        *mProposal
	area     *mArea
	k        int
	it       *mItem
	r        *removal
	errShown error
}

// resolveRemoval: once the removal is no longer offered for Undo it was
// saved, or refused with the reason in the header: the line is back.
func (z *fuzz) resolveRemoval() {
	rm := z.rm
	if rm == nil {
		return
	}
	v := z.view()
	if v.ct != nil && v.ct.pending == rm.r {
		return
	}
	z.rm = nil
	if v.fieldErr != nil && v.fieldErr != rm.errShown {
		rm.area.items = slices.Insert(rm.area.items, min(rm.k, len(rm.area.items)), rm.it)
		z.n.refused++
		z.find("refused", "the removal of %s line %d (%q) was refused when saved: %s", rm.m, rm.k+1, rm.it.name, explainField(v.fieldErr))
	}
}

// logf records an action (or what it saw) for the report.
func (z *fuzz) logf(format string, a ...any) {
	z.log = append(z.log, fmt.Sprintf("%4d %s", z.step, fmt.Sprintf(format, a...)))
}

// find records a failure of class.
func (z *fuzz) find(class, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	z.findings = append(z.findings, fmt.Sprintf("[%s] (action %d) %s", class, z.step, msg))
	z.logf("  !! %s: %s", class, msg)
}

func (z *fuzz) canvas() fyne.Canvas { return z.d.win.Canvas() }
func (z *fuzz) view() *proposalView { return z.d.detail }

// name is a new unique name: the user's word and a tag unique in the
// run (the server is shared by the package's tests).
func (z *fuzz) name(word string) string {
	z.seq++
	return fmt.Sprintf("%s %s-%d-%d", word, z.stamp, z.seed, z.seq)
}

func (z *fuzz) chance(n int) bool { return z.rng.Intn(n) == 0 }

// act runs one random action; one that cannot run now (no proposal yet,
// nothing to remove) gives way to another.
func (z *fuzz) act() {
	type choice struct {
		w  int
		fn func() bool
	}
	choices := []choice{
		{6, z.newProposal}, {4, z.renameProposal}, {6, z.addArea}, {12, z.addLine}, {5, z.pickerAdd},
		{16, z.typeInLine}, {4, z.removeLine}, {3, z.duplicate}, {2, z.archive}, {4, z.open},
		{9, z.syncAction}, {3, z.toggleOffline}, {3, z.pause}, {2, z.leave},
	}
	total := 0
	for _, c := range choices {
		total += c.w
	}
	if len(z.props) == 0 {
		z.newProposal()
		return
	}
	for range 30 {
		r := z.rng.Intn(total)
		for _, c := range choices {
			if r < c.w {
				if c.fn() {
					return
				}
				break
			}
			r -= c.w
		}
	}
	z.syncAction()
}

// settle runs the UI work queued, answers dialogs, and checks the
// indicators and the screen.
func (z *fuzz) settle() {
	z.drain()
	z.dialogs()
	z.checkIndicators()
	z.checkScreen()
}

// dialogs: a dialog the session did not open (an error, "Changed while
// you typed" with nobody else editing) is a finding; it is answered as
// the user would (keep their typing) or closed.
func (z *fuzz) dialogs() {
	d := z.d
	if d.dlg == nil {
		return
	}
	if p := z.view().cui().picker; p != nil && d.dlg == p.dlg {
		return
	}
	text := strings.Join(strings.Fields(texts(z.canvas().Overlays().Top())), " ")
	if b := findButton(z.canvas().Overlays().Top(), "Keep mine"); b != nil {
		z.find("dialog", "asked %q with no one else editing: keeps mine", text)
		test.Tap(b)
	} else {
		z.find("dialog", "%q", text)
		d.closeDialog()
	}
	z.drain()
}

// Typing as the keyboard does: into whatever has the focus.

func (z *fuzz) key(r rune) {
	if f := z.canvas().Focused(); f != nil {
		f.TypedRune(r)
		return
	}
	z.n.keysLost++
}

func (z *fuzz) press(k fyne.KeyName) {
	if f := z.canvas().Focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
}

// shortcut goes to the focused widget, else to the window.
func (z *fuzz) shortcut(s fyne.Shortcut) {
	if f, ok := z.canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	z.canvas().(fyne.Shortcutable).TypedShortcut(s)
}

// click puts the cursor in f, as a click does (the field left saves),
// after scrolling the page to it as the user does (the page draws only
// what is in view, and a field not drawn takes no focus). False when the
// field could not get the cursor: the value is then not typed.
func (z *fuzz) click(f fyne.Focusable) bool {
	v := z.view()
	if o, ok := f.(fyne.CanvasObject); ok && z.d.dlg == nil {
		v.cull(o) // laid out, to have a place
		if y, ok := v.pageY(o); ok {
			v.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y-160)))
			v.cull(o)
		}
	}
	z.canvas().Focus(f)
	z.drain()
	if z.canvas().Focused() != f {
		z.logf("  (the test could not click into the field: not typed)")
		return false
	}
	return true
}

// syncKeepingCursor is a sync that leaves the cursor where it is: Ctrl+R
// or the periodic sync.
func (z *fuzz) syncKeepingCursor() { z.syncWhileTyping("") }

// typeText types text into the focused field, keystroke by keystroke,
// the UI's queued work running between them; sometimes a sync runs
// between two keystrokes.
func (z *fuzz) typeText(text string) {
	r := []rune(text)
	cut := -1
	if len(r) > 1 && z.chance(3) {
		cut = 1 + z.rng.Intn(len(r)-1)
	}
	lost := z.n.keysLost
	for i, c := range r {
		if i == cut {
			z.syncWhileTyping(string(r[:i]))
		}
		z.key(c)
		if z.chance(3) {
			z.drain()
		}
	}
	if n := z.n.keysLost - lost; n > 0 {
		z.logf("  %d keystrokes found no field with the cursor", n)
	}
	if f, ok := z.canvas().Focused().(*field); ok && !slices.Contains(z.view().fields, f) {
		z.logf("  the keys went to a field no longer on screen")
	}
}

// retype replaces the text of the focused field: select all, delete,
// type.
func (z *fuzz) retype(text string) {
	if f, ok := z.canvas().Focused().(*field); ok && z.typing != nil && z.typing.f == f {
		// Typing over a value whose save was still awaited supersedes
		// it: a save of what is typed next is not that value's.
		z.checkTyping()
		if z.typing != nil && z.typing.f == f {
			z.typing = nil
		}
	}
	z.shortcut(&fyne.ShortcutSelectAll{})
	if z.chance(2) {
		z.press(fyne.KeyBackspace)
	}
	z.typeText(text)
}

// endTyping ends a value as users do: Enter, a pause (the save after
// the last keystroke), Tab, a click elsewhere, or nothing (the next
// action decides). It returns the field typed in and whether its save
// was asked for.
func (z *fuzz) endTyping() (*field, bool) {
	f, _ := z.canvas().Focused().(*field)
	switch z.rng.Intn(5) {
	case 0:
		z.logf("  Enter")
		z.press(fyne.KeyReturn)
		z.drain()
		return f, f != nil && f.OnSubmitted != nil
	case 1:
		z.logf("  pause")
		z.waitSave(f)
		return f, true
	case 2:
		z.logf("  Tab")
		tab(z.canvas()) // as the window does: the key goes down, the focus moves
		z.drain()
		return f, true
	case 3:
		z.logf("  click elsewhere")
		z.canvas().Unfocus()
		z.drain()
		return f, true
	}
	return f, false
}

// waitSave waits for the save a pause in typing makes (the field's timer).
func (z *fuzz) waitSave(f *field) {
	if f == nil {
		z.drain()
		return
	}
	began := time.Now()
	defer func() { z.inSave += time.Since(began) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		z.drain()
		if f.timer == nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// refusal is the reason the screen shows for a refused save, if any.
func (z *fuzz) refusal() string {
	v := z.view()
	why := ""
	walk(v.body, func(o fyne.CanvasObject) {
		if h, ok := o.(*hintLine); ok && h.err != nil && why == "" {
			why = h.Text
		}
	})
	if why == "" && v.saved != nil && strings.HasPrefix(v.saved.Text, "Not saved") {
		why = v.saved.Text
	}
	return why
}

// typed is a value typed into a field whose save is awaited: it is
// judged once the field has flushed (Enter, a pause, leaving it, now or
// in a later action).
type typed struct {
	f    *field
	gen  int // the field's gen after the last keystroke; a flush bumps it
	val  *mval
	what string
}

// await watches the save of the value just typed into the focused field
// (before the typing is ended).
func (z *fuzz) await(val *mval, what string) *typed {
	f, _ := z.canvas().Focused().(*field)
	if f == nil {
		return nil
	}
	return &typed{f: f, gen: f.gen, val: val, what: what}
}

// ended: the typing was ended; its save is judged now or later.
func (z *fuzz) ended(w *typed) {
	z.checkTyping()
	z.typing = w
	z.checkTyping()
}

// checkTyping judges the awaited save once the field flushed: still
// holding the text unsaved means refused; a valid value refused is a
// finding, and the reason on screen (if any) is kept for the final
// check, which then counts the value as shown rather than lost.
func (z *fuzz) checkTyping() {
	w := z.typing
	if w == nil {
		return
	}
	f := w.f
	switch {
	case !f.dirty():
		z.typing = nil
		return
	case f.hasTheirs || f.gen == w.gen || f.timer != nil:
		return // not flushed yet, or a question is open
	}
	z.typing = nil
	why := z.refusal()
	z.n.refused++
	if why == "" {
		z.find("refused", "%s: the save of a valid value failed with no reason on screen (the field holds %q, unsaved)", w.what, f.Text)
		return
	}
	w.val.refused = why
	z.find("refused", "%s: a valid value was refused: %s", w.what, why)
}

// Syncs.

// syncWhileTyping syncs with the cursor in the field: Ctrl+R from it, or
// the periodic sync (the app's loop or timer).
func (z *fuzz) syncWhileTyping(sofar string) {
	if z.mode == modeOffline {
		z.rng.Intn(2)
		return
	}
	if z.chance(2) {
		z.logf("  Ctrl+R (typed so far %q)", sofar)
		z.syncBy(func() {
			z.shortcut(&desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault})
		})
		return
	}
	z.logf("  background sync (typed so far %q)", sofar)
	z.syncBy(z.d.SyncNow)
}

func (z *fuzz) syncAction() bool {
	if z.mode == modeOffline {
		return false
	}
	switch {
	case z.mode == modeLoop && z.chance(2):
		z.logf("sync asked, not waited for")
		z.d.SyncNow()
	case z.chance(2):
		z.logf("Sync now (button)")
		z.syncBy(func() { test.Tap(z.d.status.syncNow) })
	default:
		z.logf("background sync")
		z.syncBy(z.d.SyncNow)
	}
	return true
}

// syncBy starts a sync and waits for it to end, running the UI work it
// queues. In the loop mode a sync may be running already (Sync now is
// then disabled): its end counts.
func (z *fuzz) syncBy(start func()) {
	eng := z.d.sess.eng
	before := eng.State()
	began := time.Now()
	z.syncs++
	defer func() { z.inSync += time.Since(began) }()
	start()
	deadline := began.Add(20 * time.Second)
	for {
		z.drain()
		st := eng.State()
		if !st.Syncing && (st.LastSync.After(before.LastSync) || st.LastError != nil && time.Since(began) > 50*time.Millisecond) {
			break
		}
		if !st.Syncing && !before.Syncing && time.Since(began) > 2*time.Second {
			z.logf("  the sync did not start")
			break
		}
		if time.Now().After(deadline) {
			z.find("wedged", "a sync did not end in 20 s")
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	// The engine changes its state before it hands the change to the UI.
	for deadline := time.Now().Add(5 * time.Second); !sameState(z.d.status.state, eng.State()); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			z.find("wedged", "the status bar did not show the sync's end in 5 s")
			break
		}
		z.drain()
	}
}

func (z *fuzz) toggleOffline() bool {
	if z.mode == modeOffline {
		return false
	}
	down := !z.h.gate.down.Load()
	z.h.gate.down.Store(down)
	if down {
		z.logf("offline")
	} else {
		z.logf("online")
	}
	return true
}

func (z *fuzz) pause() bool {
	f, _ := z.canvas().Focused().(*field)
	z.logf("pause")
	z.waitSave(f)
	return true
}

func (z *fuzz) leave() bool {
	z.logf("click elsewhere")
	z.canvas().Unfocus()
	return true
}

// Proposals.

func (z *fuzz) newProposal() bool {
	b := findButton(z.d.win.Content(), "New proposal")
	if b == nil || b.Disabled() {
		z.t.Fatal("no New proposal button")
	}
	m := &mProposal{key: len(z.props) + 1}
	z.props = append(z.props, m)
	z.cur = m
	z.logf("New proposal → P%d", m.key)
	test.Tap(b)
	z.drain()
	if z.chance(4) {
		z.syncKeepingCursor()
	}
	z.typeName(m, false)
	return true
}

func (z *fuzz) renameProposal() bool {
	m := z.cur
	v := z.view()
	if m == nil || v.name == nil || v.name.Disabled() || !z.shows(m) {
		return false
	}
	z.typeName(m, true)
	return true
}

// typeName types a new name into the proposal's name field (clicking it
// first, or where New proposal and Duplicate put the cursor).
func (z *fuzz) typeName(m *mProposal, click bool) {
	name := z.name("Job")
	z.logf("type name of P%d: %q", m.key, name)
	if click {
		if !z.click(z.view().name) {
			return
		}
		z.retype(name)
	} else {
		z.typeText(name) // the default name is selected: typing replaces it
	}
	m.name = name
	m.vName.typed++
	z.n.typed++
	w := z.await(&m.vName, m.String()+" name")
	z.endTyping()
	z.ended(w)
}

func (z *fuzz) duplicate() bool {
	src := z.cur
	if !z.editable() {
		return false
	}
	b := tipButtons(z.view().body, "Duplicate proposal")
	if len(b) == 0 || b[0].Disabled() {
		return false
	}
	cp := src.copyAs(len(z.props) + 1)
	z.props = append(z.props, cp)
	z.cur = cp
	z.logf("Duplicate P%d → P%d", src.key, cp.key)
	test.Tap(b[0])
	z.drain()
	if p := z.view().p; p == nil || p.Name != cp.name {
		z.find("screen", "Duplicate of %s shows %s, not the copy %q", src, shownName(p), cp.name)
	} else if z.layoutDiffers(cp, p) == "" {
		// The copy is of the source as saved: a value the source lost is
		// not lost again in the copy.
		for ai, a := range cp.areas {
			o := &p.Areas[ai].Options[0]
			for k, r := range app.Outline(o) {
				it, x := a.items[k], &o.Items[r.Index]
				if it.typ != x.ItemType || it.name != x.Name || it.qty != x.Quantity || it.price != x.SellPrice {
					z.logf("  the copy's area %d line %d is the source's as saved: %s %q %s × %s", ai+1, k+1, x.ItemType, x.Name, x.Quantity, x.SellPrice)
				}
				it.typ, it.name, it.qty, it.price = x.ItemType, x.Name, x.Quantity, x.SellPrice
			}
		}
	}
	if z.chance(4) {
		z.syncKeepingCursor()
	}
	z.typeName(cp, false)
	return true
}

func shownName(p *app.Proposal) string {
	if p == nil {
		return "no proposal"
	}
	return fmt.Sprintf("%q (%d)", p.Name, p.ID)
}

func (z *fuzz) archive() bool {
	m := z.cur
	if m == nil || !z.shows(m) {
		return false
	}
	label := "Archive"
	if m.archived {
		label = "Restore"
	}
	b := tipButtons(z.view().body, label)
	if len(b) == 0 || b[0].Disabled() {
		return false
	}
	z.logf("%s P%d", label, m.key)
	test.Tap(b[0])
	z.drain()
	if z.view().p != nil && z.view().p.Archived != m.archived {
		m.archived = !m.archived
	} else {
		z.n.refused++
		z.find("refused", "%s of %s did nothing (the screen shows %s): %q", label, m, shownName(z.view().p), z.refusal())
	}
	return true
}

// open opens another proposal of the session from the list, found by
// its name as the user reads it.
func (z *fuzz) open() bool {
	var cands []*mProposal
	for _, m := range z.props {
		if m != z.cur && !m.archived {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return false
	}
	m := cands[z.rng.Intn(len(cands))]
	l := z.d.list
	for i, r := range l.rows {
		if r.Name == m.name {
			z.logf("open P%d from the list", m.key)
			l.list.Select(i)
			z.drain()
			z.cur = m
			return true
		}
	}
	z.logf("P%d %q is not in the list", m.key, m.name)
	return false
}

// Content.

// shows reports whether the screen shows m.
func (z *fuzz) shows(m *mProposal) bool {
	v := z.view()
	return m != nil && v.p != nil && v.name != nil && (v.name.Text == m.name || v.p.Name == m.name)
}

// editable reports whether the current proposal's content can be
// edited by position: the screen lays out what the model holds.
func (z *fuzz) editable() bool {
	m := z.cur
	if m == nil || m.diverged != "" || !z.shows(m) {
		return false
	}
	if why := z.layoutDiffers(m, z.view().p); why != "" {
		m.diverged = why
		z.find("screen", "%s no longer shows what was made: %s", m, why)
		return false
	}
	return true
}

// layoutDiffers compares areas and line counts (what positions mean).
func (z *fuzz) layoutDiffers(m *mProposal, p *app.Proposal) string {
	total := 0
	if len(p.Areas) != len(m.areas) {
		return fmt.Sprintf("%d areas, made %d", len(p.Areas), len(m.areas))
	}
	for ai, a := range m.areas {
		pa := &p.Areas[ai]
		if len(pa.Options) != 1 {
			return fmt.Sprintf("area %q has %d options", pa.Name, len(pa.Options))
		}
		out := app.Outline(&pa.Options[0])
		if len(out) != len(a.items) {
			return fmt.Sprintf("area %q shows %d lines, made %d", pa.Name, len(out), len(a.items))
		}
		for k, r := range out {
			if t := pa.Options[0].Items[r.Index].ItemType; t != a.items[k].typ {
				return fmt.Sprintf("area %q line %d is a %s line, made a %s line", pa.Name, k+1, t, a.items[k].typ)
			}
		}
		total += len(a.items)
	}
	if n := len(z.screenRows()); n != total {
		return fmt.Sprintf("the screen has %d line rows, made %d", n, total)
	}
	return ""
}

// screenRows are the item rows as the screen lays them out, top to
// bottom: what the user sees, whatever IDs the rows edit.
func (z *fuzz) screenRows() []*itemRow {
	v := z.view()
	byName := map[*field]*itemRow{}
	for _, r := range v.cui().rows {
		byName[r.fields[colName]] = r
	}
	var out []*itemRow
	walk(v.body, func(o fyne.CanvasObject) {
		if f, ok := o.(*field); ok && byName[f] != nil {
			out = append(out, byName[f])
		}
	})
	return out
}

// row is the row on screen of the k-th line of area ai (nil when the
// screen does not lay out the lines the model holds).
func (z *fuzz) row(ai, k int) *itemRow {
	m := z.cur
	rows := z.screenRows()
	total, at := 0, 0
	for i, a := range m.areas {
		if i == ai {
			at = total + k
		}
		total += len(a.items)
	}
	if len(rows) != total || ai >= len(m.areas) || k >= len(m.areas[ai].items) {
		return nil
	}
	return rows[at]
}

// lastType is the type of the last line of area ai as shown.
func (z *fuzz) lastType(ai int) app.ItemType {
	o := &z.view().p.Areas[ai].Options[0]
	out := app.Outline(o)
	if len(out) == 0 {
		return ""
	}
	return o.Items[out[len(out)-1].Index].ItemType
}

func (z *fuzz) lineCount(ai int) int {
	v := z.view()
	if v.p == nil || ai >= len(v.p.Areas) || len(v.p.Areas[ai].Options) == 0 {
		return -1
	}
	return len(app.Outline(&v.p.Areas[ai].Options[0]))
}

func (z *fuzz) addArea() bool {
	m := z.cur
	if !z.editable() {
		return false
	}
	var entry *plainEntry
	walk(z.view().body, func(o fyne.CanvasObject) {
		if e, ok := o.(*plainEntry); ok && strings.HasPrefix(e.PlaceHolder, "New area name") {
			entry = e
		}
	})
	if entry == nil {
		return false
	}
	name := z.name("Room")
	z.logf("add area %q to P%d", name, m.key)
	if !z.click(entry) {
		return true
	}
	z.typeText(name)
	if z.chance(2) {
		z.press(fyne.KeyReturn)
	} else {
		test.Tap(findButton(z.view().body, "Add area"))
	}
	z.drain()
	a := &mArea{name: name, vName: mval{typed: 1}}
	z.n.typed++
	// (Counted against the model: a removal refused by this flush is
	// back in it.)
	if p := z.view().p; p == nil || len(p.Areas) != len(m.areas)+1 {
		z.n.checked++
		if why := z.refusal(); why != "" {
			z.n.refused++
			z.n.shown++
			z.find("refused", "Add area %q to %s: %s", name, m, why)
			return true
		}
		shown := ""
		walk(z.view().body, func(o fyne.CanvasObject) {
			if e, ok := o.(*plainEntry); ok && strings.HasPrefix(e.PlaceHolder, "New area name") {
				shown = e.Text
			}
		})
		z.n.lost++
		z.find("lost", "Add area %q in %s added nothing and said nothing; the name box on screen holds %q", name, m, shown)
		return true
	}
	m.areas = append(m.areas, a)
	return true
}

// lineKinds are the add buttons of an option and the lines they make.
var lineKinds = []struct {
	button string
	typ    app.ItemType
	name   string
}{
	{"Custom item", app.ItemCustomItem, "Custom item"},
	{"Labor", app.ItemLabor, "Labor"},
	{"Fee", app.ItemFee, "Fee"},
}

func (z *fuzz) addLine() bool {
	m := z.cur
	if !z.editable() || len(m.areas) == 0 {
		return false
	}
	ai := z.rng.Intn(len(m.areas))
	kind := lineKinds[z.rng.Intn(len(lineKinds))]
	bs := tipButtons(z.view().body, kind.button)
	if len(bs) != len(m.areas) || bs[ai].Disabled() {
		return false
	}
	z.logf("+ %s in P%d area %d", kind.button, m.key, ai+1)
	test.Tap(bs[ai])
	z.drain()
	if z.lineCount(ai) != len(m.areas[ai].items)+1 || z.lastType(ai) != kind.typ {
		why := z.refusal()
		z.n.refused++
		z.find("refused", "+ %s in %s area %d added nothing: %s", kind.button, m, ai+1, why)
		return true
	}
	it := &mItem{typ: kind.typ, name: kind.name, qty: app.OneUnit}
	a := m.areas[ai]
	a.items = append(a.items, it)
	k := len(a.items) - 1
	if z.chance(5) {
		return true // named later, or never
	}
	if z.chance(4) {
		z.syncKeepingCursor()
	}
	// The new line's name has the cursor, selected: typing names it.
	z.typeLineValue(m, ai, k, colName, false)
	for _, col := range []int{colQuantity, colSell} {
		if z.chance(2) {
			z.typeLineValue(m, ai, k, col, true)
		}
	}
	return true
}

// pickLine is a line of the current proposal at random (area, place).
func (z *fuzz) pickLine() (ai, k int, ok bool) {
	m := z.cur
	if !z.editable() {
		return 0, 0, false
	}
	n := 0
	for _, a := range m.areas {
		n += len(a.items)
	}
	if n == 0 {
		return 0, 0, false
	}
	i := z.rng.Intn(n)
	for ai, a := range m.areas {
		if i < len(a.items) {
			return ai, i, true
		}
		i -= len(a.items)
	}
	panic("bug: no line picked")
}

func (z *fuzz) typeInLine() bool {
	ai, k, ok := z.pickLine()
	if ok {
		z.typeLineValue(z.cur, ai, k, []int{colName, colQuantity, colSell}[z.rng.Intn(3)], true)
	}
	return ok
}

// quantities and prices as people type them; the model takes the value
// the app's own parsing makes of each (setParam).
var (
	quantities = []string{"1", "2", "3", "4", "6", "12", "2.5", "0.75", "1,000", "10.125"}
	prices     = []string{"0", "95", "12.50", "1,250", "$45.5", "0.99", "300.10", "7"}
)

// typeLineValue types a value into a line's column: a name, quantity or
// price, clicking the field first (click) or where the cursor is.
func (z *fuzz) typeLineValue(m *mProposal, ai, k, col int, click bool) {
	if click && (m.diverged != "" || !z.shows(m) || z.layoutDiffers(m, z.view().p) != "") {
		return
	}
	it := m.areas[ai].items[k]
	var text string
	var val *mval
	switch col {
	case colName:
		text, val = z.name("Item"), &it.vName
	case colQuantity:
		text, val = quantities[z.rng.Intn(len(quantities))], &it.vQty
	default:
		text, val = prices[z.rng.Intn(len(prices))], &it.vPr
	}
	what := fmt.Sprintf("P%d area %d line %d %s", m.key, ai+1, k+1, itemParams[col])
	z.logf("type %s: %q", what, text)
	if click {
		r := z.row(ai, k)
		if r == nil || col >= len(r.fields) || r.fields[col].Disabled() {
			z.find("screen", "%s has no field to type in", what)
			return
		}
		if !z.click(r.fields[col]) {
			return
		}
		z.retype(text)
	} else {
		z.typeText(text)
	}
	mc := &app.ChangeItem{}
	if err := setParam(mc, itemParams[col], text); err != nil {
		z.t.Fatalf("bug in the test: %q is not a valid %s: %v", text, itemParams[col], err)
	}
	switch col {
	case colName:
		it.name = *mc.Name
	case colQuantity:
		it.qty = *mc.Quantity
	default:
		it.price = *mc.SellPrice
	}
	val.typed++
	z.n.typed++
	w := z.await(val, what)
	z.endTyping()
	z.ended(w)
}

func (z *fuzz) removeLine() bool {
	m := z.cur
	ai, k, ok := z.pickLine()
	if !ok {
		return false
	}
	r := z.row(ai, k)
	if r == nil {
		return false
	}
	z.logf("remove P%d area %d line %d (✕)", m.key, ai+1, k+1)
	a := m.areas[ai]
	it := a.items[k]
	if slices.ContainsFunc(a.items, func(x *mItem) bool { return x.parent == it }) {
		return false // a package line takes its items along: not modelled
	}
	test.Tap(r.remove)
	z.drain() // an earlier removal, refused as this one saved it, is back in a
	if z.lineCount(ai) != len(a.items)-1 {
		z.n.refused++
		z.find("refused", "removing %s area %d line %d did nothing: %s", m, ai+1, k+1, z.refusal())
		return true
	}
	k = slices.Index(a.items, it)
	a.items = slices.Delete(a.items, k, k+1)
	pend := z.view().cui().pending
	if pend != nil {
		z.rm = &removed{m: m, area: a, k: k, it: it, r: pend, errShown: z.view().fieldErr}
	}
	if pend != nil && pend.undo != nil && z.chance(5) {
		z.logf("  Undo")
		z.rm = nil
		test.Tap(pend.undo)
		z.drain()
		if z.lineCount(ai) == len(a.items)+1 {
			a.items = slices.Insert(a.items, k, it)
		} else {
			z.find("screen", "Undo did not bring back %s area %d line %d", m, ai+1, k+1)
		}
	}
	return true
}

// pickerAdd adds one or two catalog items with Add item…: arrows to a
// match, a quantity typed, Enter; Esc closes. A sync may run while the
// picker is open.
func (z *fuzz) pickerAdd() bool {
	m := z.cur
	if !z.editable() || len(m.areas) == 0 {
		return false
	}
	ai := z.rng.Intn(len(m.areas))
	bs := tipButtons(z.view().body, "Add item…")
	if len(bs) != len(m.areas) || bs[ai].Disabled() {
		return false
	}
	z.logf("Add item… in P%d area %d", m.key, ai+1)
	test.Tap(bs[ai])
	z.drain()
	p := z.view().cui().picker
	if p == nil || z.d.dlg != p.dlg {
		z.find("screen", "Add item… opened no picker")
		return true
	}
	if z.chance(3) {
		// One of the two packages (importPackages).
		search := []string{"uipk kit", "uipk zone"}[z.rng.Intn(2)]
		z.logf("  search %q: a package", search)
		test.Type(p.search, search)
	}
	for n := 1 + z.rng.Intn(2); n > 0; n-- {
		if len(p.results) == 0 {
			break
		}
		for range z.rng.Intn(min(len(p.results), 8)) {
			pressKey(p.search, fyne.KeyDown)
		}
		if p.sel < 0 {
			break
		}
		c := p.results[p.sel]
		q := quantities[z.rng.Intn(len(quantities))]
		z.logf("  pick %q × %q", c.Name, q)
		if !z.click(p.qty) {
			break
		}
		z.shortcut(&fyne.ShortcutSelectAll{})
		z.typeText(q)
		if z.chance(4) {
			z.logf("  background sync with the picker open")
			z.syncBy(z.d.SyncNow)
		}
		pressKey(p.qty, fyne.KeyReturn)
		z.drain()
		z.n.typed++
		mq := &app.AddItem{}
		if err := setParam(mq, "Quantity", q); err != nil {
			z.t.Fatalf("bug in the test: quantity %q: %v", q, err)
		}
		lines := z.packageLines(c, *mq.Quantity)
		if !strings.HasPrefix(p.status.Text, "Added") || z.lineCount(ai) != len(m.areas[ai].items)+len(lines) {
			z.n.refused++
			z.find("refused", "the picker did not add %q to %s area %d: %s", c.Name, m, ai+1, p.status.Text)
			continue
		}
		m.areas[ai].items = append(m.areas[ai].items, lines...)
	}
	pressKey(p.search, fyne.KeyEscape)
	z.drain()
	return true
}

// packageLines are the model's lines of a catalog add of qty: the item,
// and for a package its items nested under it (app's price rule: a
// package price makes one-time items free, no package price makes the
// package line free).
func (z *fuzz) packageLines(c app.CatalogItem, qty app.Quantity) []*mItem {
	line := &mItem{typ: c.ItemType, name: c.Name, qty: qty, price: c.SellPrice, vQty: mval{typed: 1}}
	out := []*mItem{line}
	priced := app.PackagePriced(&c)
	for _, comp := range c.Components {
		ci, ok, err := z.d.sess.st.CatalogItem(comp.CatalogItemID)
		if err != nil || !ok {
			z.t.Fatalf("package %q: component %d not in the local catalog: %v", c.Name, comp.CatalogItemID, err)
		}
		q, err := app.ComponentQuantity(comp.Quantity, qty)
		if err != nil {
			z.t.Fatalf("bug in the test: %v", err)
		}
		price := ci.SellPrice
		if priced && !ci.IsRecurringService {
			price = 0
		}
		out = append(out, &mItem{typ: ci.ItemType, name: ci.Name, qty: q, price: price, parent: line})
	}
	return out
}

// Checks after every action.

// checkIndicators: the header and the status bar never say in sync or
// all sent while the screen shows "Not saved" or an edit is unsent. A
// claim that the app's own queued work corrects within a second is not
// counted (the engine delivers states from the sync goroutine).
func (z *fuzz) checkIndicators() {
	lie := z.indicatorLie()
	if lie == "" {
		return
	}
	if z.mode == modeLoop {
		lie = z.settleLie()
	}
	if lie == "" {
		return
	}
	z.n.lies++
	if !z.lieSeen[lie] {
		z.lieSeen[lie] = true
		z.find("indicator", "%s", lie)
	}
}

// settleLie gives the states the sync goroutine is still delivering
// time to reach the screen (loop mode), and returns the claim if it
// stays.
func (z *fuzz) settleLie() string {
	lie := z.indicatorLie()
	began := time.Now()
	defer func() { z.inSettle += time.Since(began) }()
	deadline := time.Now().Add(300 * time.Millisecond)
	for lie != "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		z.drain()
		lie = z.indicatorLie()
	}
	return lie
}

func (z *fuzz) indicatorLie() string {
	v := z.view()
	st := z.d.sess.st
	c, err := st.Counts()
	if err != nil {
		z.t.Fatal(err)
	}
	notSaved := z.refusal()
	header := v.saved != nil && v.id != 0 && v.p != nil && v.saved.Text == "Saved · in sync with the server"
	bar := z.d.status.pending.Text == "All changes sent"
	it, _ := st.Item(v.id)
	switch {
	case header && notSaved != "":
		return fmt.Sprintf("header says %q while the screen shows %q", v.saved.Text, notSaved)
	case header && it.Pending > 0:
		return fmt.Sprintf("header says %q while the proposal has unsent edits", v.saved.Text)
	case bar && notSaved != "":
		return fmt.Sprintf("status bar says %q while the screen shows %q", z.d.status.pending.Text, notSaved)
	case bar && c.Pending > 0:
		return fmt.Sprintf("status bar says %q with %d edits unsent", z.d.status.pending.Text, c.Pending)
	}
	return ""
}

// checkScreen notes the first action after which a field of the open
// proposal shows something other than what was typed into it (the final
// check decides whether it was lost).
func (z *fuzz) checkScreen() {
	m := z.cur
	v := z.view()
	if m == nil || m.diverged != "" || !z.shows(m) || z.layoutDiffers(m, v.p) != "" {
		return
	}
	mark := func(val *mval, what, shown string) {
		if val.wrongAt == 0 {
			val.wrongAt = z.step
			z.logf("  screen: %s shows %q", what, shown)
		}
	}
	if v.name.Text != m.name {
		mark(&m.vName, m.String()+" name", v.name.Text)
	}
	rows, at := z.screenRows(), 0
	for ai, a := range m.areas {
		for k, it := range a.items {
			r := rows[at]
			at++
			what := fmt.Sprintf("P%d area %d line %d", m.key, ai+1, k+1)
			if t := r.fields[colName].Text; t != it.name {
				mark(&it.vName, what+" name", t)
			}
			mc := &app.ChangeItem{}
			if t := r.fields[colQuantity].Text; setParam(mc, "Quantity", t) != nil || *mc.Quantity != it.qty {
				mark(&it.vQty, what+" quantity", t)
			}
			if t := r.fields[colSell].Text; setParam(mc, "SellPrice", t) != nil || *mc.SellPrice != it.price {
				mark(&it.vPr, what+" price", t)
			}
		}
	}
}

// The end: online, the typing left, synced until nothing moves.

func (z *fuzz) finish() {
	z.logf("end: online, close dialogs, leave the proposal, sync")
	z.h.gate.down.Store(false)
	z.d.closeDialog()
	z.canvas().Unfocus()
	z.drain()
	// Leaving the proposal (another row of the list) saves what waits:
	// typing, a removal still offering Undo.
	for i, r := range z.d.list.rows {
		if r.ID != z.view().id {
			z.d.list.list.Select(i)
			break
		}
	}
	z.settle()
	last := -1
	for i := 0; i < 8; i++ {
		z.syncBy(func() { test.Tap(z.d.status.syncNow) })
		z.settle()
		c, err := z.d.sess.st.Counts()
		if err != nil {
			z.t.Fatal(err)
		}
		if c.Pending == 0 || c.Pending == last {
			break
		}
		last = c.Pending
	}
	if z.mode == modeLoop {
		z.h.waitFor("the sync loop to rest", func() bool { return !z.d.sess.eng.State().Syncing })
		z.drain()
	}
}

// ourIDs are the proposals in the local store, archived or not.
func (z *fuzz) ourIDs() map[int64]bool {
	out := map[int64]bool{}
	for _, archived := range []bool{false, true} {
		q := app.DefaultListQuery()
		q.PageSize, q.Archived = math.MaxInt32, archived
		rows, _, err := z.d.sess.st.ListItems(q)
		if err != nil {
			z.t.Fatal(err)
		}
		for _, r := range rows {
			out[r.ID] = true
		}
	}
	return out
}

// check compares every proposal of the session, in the local store and
// on the server, with the model, and the outbox with "nothing stuck".
func (z *fuzz) check() {
	st := z.d.sess.st
	entries, err := st.Entries()
	if err != nil {
		z.t.Fatal(err)
	}
	// Refusals the outbox shows, by proposal and kind of edit.
	shownIn := map[int64]map[app.MutationKind]string{}
	stuckIn := map[int64]bool{} // proposals with edits not acknowledged
	for _, e := range entries {
		switch e.State {
		case localstore.StateFailed, localstore.StateConflict:
			if e.ErrorMessage == "" && e.State == localstore.StateFailed {
				z.n.wedged++
				z.find("wedged", "refused edit %d (%s) has no reason", e.Seq, describeEntry(&e))
				continue
			}
			if mu, err := e.Decode(); err == nil {
				if shownIn[e.ProposalID] == nil {
					shownIn[e.ProposalID] = map[app.MutationKind]string{}
				}
				shownIn[e.ProposalID][mu.Kind()] = e.ErrorMessage
			}
		default:
			stuckIn[e.ProposalID] = true
			z.n.wedged++
			if z.n.wedged <= 3 {
				why := ""
				if e.Blocked {
					why = ", waiting behind a refused edit"
				}
				if e.ErrorMessage != "" {
					why += ", last error: " + e.ErrorMessage
				}
				z.find("wedged", "edit %d (%s, proposal %d) still %s after the final syncs (%d attempts%s)", e.Seq, describeEntry(&e), e.ProposalID, e.State, e.Attempts, why)
			}
		}
	}
	if z.n.wedged > 3 {
		z.find("wedged", "and %d more edits still unsent after the final syncs", z.n.wedged-3)
	}
	if err := z.d.sess.eng.State().LastError; err != nil {
		z.n.wedged++
		z.find("wedged", "the last sync, online, failed: %v", err)
	}

	// The session's proposals: those the store did not have before.
	locals := map[int64]*app.Proposal{}
	var ids []int64
	for id := range z.ourIDs() {
		if z.before[id] {
			continue
		}
		rec, err := st.Record(id)
		if err != nil {
			z.n.wrong++
			z.find("wrong", "the list shows proposal %d, the store cannot read it: %v", id, err)
			continue
		}
		if id == 0 {
			// No proposal has ID 0: an edit aimed at nothing made it.
			z.n.wrong++
			z.find("wrong", "the store lists a proposal with ID 0: %q, number %d", rec.Local.Name, rec.Local.Number)
			continue
		}
		locals[id] = rec.Local
		ids = append(ids, id)
	}
	slices.Sort(ids)
	match := z.match(locals, ids)
	for _, id := range ids {
		if !slices.Contains(mapValues(match), id) {
			z.n.wrong++
			z.find("wrong", "a proposal nobody made: %s (number %d, %d areas)", shownName(locals[id]), locals[id].Number, len(locals[id].Areas))
		}
	}
	for _, m := range z.props {
		id, ok := match[m]
		if !ok {
			typed := 0
			if m.vName.typed > 0 {
				typed++
			}
			for _, a := range m.areas {
				typed++
				for _, it := range a.items {
					for _, v := range []mval{it.vName, it.vQty, it.vPr} {
						if v.typed > 0 {
							typed++
						}
					}
				}
			}
			z.n.checked += typed
			z.n.lost += typed
			z.find("lost", "%s is not in the store at all (%d typed values)", m, typed)
			continue
		}
		var local, server *app.Proposal
		{
			local = locals[id]
			if id > 0 {
				if server, err = z.h.srv.Proposal(id); err != nil {
					server = nil
				}
			}
		}
		z.compare(m, local, server, shownIn[id], stuckIn[id])
	}
}

func lineTypes(o *app.Option) string {
	var out []string
	for _, r := range app.Outline(o) {
		it := &o.Items[r.Index]
		out = append(out, fmt.Sprintf("%s %q", it.ItemType, it.Name))
	}
	return strings.Join(out, ", ")
}

func modelTypes(a *mArea) string {
	var out []string
	for _, it := range a.items {
		out = append(out, fmt.Sprintf("%s %q", it.typ, it.name))
	}
	return strings.Join(out, ", ")
}

func mapValues(m map[*mProposal]int64) []int64 {
	out := make([]int64, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// match finds each model proposal in the store: by its name (unique),
// else by the most areas and lines it shares with one not matched yet.
func (z *fuzz) match(locals map[int64]*app.Proposal, ids []int64) map[*mProposal]int64 {
	out := map[*mProposal]int64{}
	used := map[int64]bool{}
	for _, m := range z.props {
		for _, id := range ids {
			if !used[id] && locals[id].Name == m.name {
				out[m], used[id] = id, true
				break
			}
		}
	}
	for _, m := range z.props {
		if _, ok := out[m]; ok {
			continue
		}
		best, bestID := 0, int64(0)
		for _, id := range ids {
			if used[id] {
				continue
			}
			p := locals[id]
			score := 0
			if strings.Contains(p.Name, m.name) {
				score += 5
			}
			for ai, a := range m.areas {
				if ai < len(p.Areas) && p.Areas[ai].Name == a.name {
					score += 2
				}
			}
			if score > best {
				best, bestID = score, id
			}
		}
		if best > 0 {
			out[m], used[bestID] = bestID, true
		}
	}
	// The rest in the order made: server IDs ascending, then the
	// temporary ones (-1, -2, …).
	var rest []int64
	for _, id := range ids {
		if !used[id] {
			rest = append(rest, id)
		}
	}
	slices.SortFunc(rest, func(a, b int64) int {
		if (a > 0) != (b > 0) {
			return map[bool]int{true: -1, false: 1}[a > 0]
		}
		return cmpAbs(a, b)
	})
	for _, m := range z.props {
		if _, ok := out[m]; !ok && len(rest) > 0 {
			out[m] = rest[0]
			z.logf("  P%d matched to %s by the order made", m.key, shownName(locals[rest[0]]))
			rest = rest[1:]
		}
	}
	return out
}

func cmpAbs(a, b int64) int {
	a, b = max(a, -a), max(b, -b)
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compare checks one model proposal against its local and server copies.
// A value right in the store but not on the server while the outbox
// still holds the proposal's edits (stuck) counts as unsent, not lost:
// the wedge is the finding.
func (z *fuzz) compare(m *mProposal, local, server *app.Proposal, shown map[app.MutationKind]string, stuck bool) {
	type problem struct{ where, got string }
	unsent := 0
	defer func() {
		if unsent > 0 {
			z.n.unsent += unsent
			z.find("unsent", "%s: %d values are in the store, not on the server: the outbox holds its edits", m, unsent)
		}
	}()
	// A field's problems, local and server; kind is the edit that writes it.
	field := func(what string, val *mval, kind app.MutationKind, want string, got func(p *app.Proposal) (string, bool)) {
		var probs []problem
		for _, side := range []struct {
			where string
			p     *app.Proposal
		}{{"store", local}, {"server", server}} {
			if side.p == nil {
				probs = append(probs, problem{side.where, "(no such proposal)"})
				continue
			}
			g, ok := got(side.p)
			if !ok {
				probs = append(probs, problem{side.where, "(missing)"})
			} else if g != want {
				probs = append(probs, problem{side.where, fmt.Sprintf("%q", g)})
			}
		}
		if val.typed > 0 {
			z.n.checked++
		}
		if len(probs) == 0 {
			return
		}
		if stuck && len(probs) == 1 && probs[0].where == "server" {
			unsent++
			return
		}
		var parts []string
		for _, p := range probs {
			parts = append(parts, p.where+" "+p.got)
		}
		desc := fmt.Sprintf("%s: want %q, %s", what, want, strings.Join(parts, ", "))
		if val.wrongAt > 0 {
			desc += fmt.Sprintf("; the screen showed it wrong after action %d", val.wrongAt)
		}
		switch why, ok := shown[kind]; {
		case val.typed == 0:
			z.n.wrong++
			z.find("wrong", "not typed, yet changed: %s", desc)
		case val.refused != "" || ok:
			z.n.shown++
			if val.refused == "" {
				val.refused = why
			}
			z.find("shown", "%s (refusal shown: %s)", desc, val.refused)
		default:
			z.n.lost++
			z.find("lost", "%s", desc)
		}
	}
	field(m.String()+" name", &m.vName, app.KindUpdateProposal, m.name, func(p *app.Proposal) (string, bool) { return p.Name, true })
	archived := func(p *app.Proposal) (string, bool) { return fmt.Sprint(p.Archived), true }
	field(m.String()+" archived", &mval{}, app.KindSetArchived, fmt.Sprint(m.archived), archived)
	area := func(p *app.Proposal, ai int) (*app.Option, bool) {
		if ai >= len(p.Areas) || len(p.Areas[ai].Options) != 1 {
			return nil, false
		}
		return &p.Areas[ai].Options[0], true
	}
	for ai, a := range m.areas {
		where := fmt.Sprintf("P%d area %d", m.key, ai+1)
		field(where+" name", &a.vName, app.KindCreateArea, a.name, func(p *app.Proposal) (string, bool) {
			if ai >= len(p.Areas) {
				return "", false
			}
			return p.Areas[ai].Name, true
		})
		item := func(k int, read func(it *app.Item) string) func(p *app.Proposal) (string, bool) {
			return func(p *app.Proposal) (string, bool) {
				o, ok := area(p, ai)
				if !ok {
					return "", false
				}
				out := app.Outline(o)
				if k >= len(out) {
					return "", false
				}
				return read(&o.Items[out[k].Index]), true
			}
		}
		for k, it := range a.items {
			line := fmt.Sprintf("%s line %d", where, k+1)
			// A line missing altogether is one finding: its typed values
			// are lost with it.
			var missing []string
			for _, side := range []struct {
				where string
				p     *app.Proposal
			}{{"store", local}, {"server", server}} {
				if side.p == nil || stuck && side.where == "server" {
					continue
				}
				if o, ok := area(side.p, ai); !ok || k >= len(app.Outline(o)) {
					missing = append(missing, side.where)
				}
			}
			if len(missing) > 0 {
				typed := 0
				for _, v := range []mval{it.vName, it.vQty, it.vPr} {
					if v.typed > 0 {
						typed++
					}
				}
				z.n.checked += typed
				if typed > 0 {
					z.n.lost += typed
					z.find("lost", "%s (%s %q, %d typed values) is missing: %s", line, it.typ, it.name, typed, strings.Join(missing, ", "))
				} else {
					z.n.wrong++
					z.find("wrong", "%s (%s %q) is missing: %s", line, it.typ, it.name, strings.Join(missing, ", "))
				}
				continue
			}
			field(line+" type", &mval{}, app.KindAddItem, string(it.typ), item(k, func(x *app.Item) string { return string(x.ItemType) }))
			field(line+" name", &it.vName, app.KindChangeItem, it.name, item(k, func(x *app.Item) string { return x.Name }))
			field(line+" quantity", &it.vQty, app.KindChangeItem, it.qty.String(), item(k, func(x *app.Item) string { return x.Quantity.String() }))
			field(line+" price", &it.vPr, app.KindChangeItem, it.price.String(), item(k, func(x *app.Item) string { return x.SellPrice.String() }))
		}
		for _, side := range []struct {
			where string
			p     *app.Proposal
		}{{"store", local}, {"server", server}} {
			if side.p == nil {
				continue
			}
			if o, ok := area(side.p, ai); ok && len(app.Outline(o)) > len(a.items) && !(stuck && side.where == "server") {
				z.n.wrong++
				z.find("wrong", "%s: %s has %d lines (%s), %d made (%s)", where, side.where, len(app.Outline(o)), lineTypes(o), len(a.items), modelTypes(a))
			}
		}
	}
	for _, side := range []struct {
		where string
		p     *app.Proposal
	}{{"store", local}, {"server", server}} {
		if side.p != nil && len(side.p.Areas) > len(m.areas) && !(stuck && side.where == "server") {
			z.n.wrong++
			z.find("wrong", "%s: %s has %d areas, %d made", m, side.where, len(side.p.Areas), len(m.areas))
		}
	}
}

// report logs the counts, and on any finding fails with the seed, the
// findings and the session's actions.
func (z *fuzz) report() {
	z.t.Logf("seed %d (%s): %s", z.seed, z.mode, z.n)
	z.t.Logf("waited: %d syncs %s, indicators %s, saves %s", z.syncs, z.inSync.Round(time.Millisecond), z.inSettle.Round(time.Millisecond), z.inSave.Round(time.Millisecond))
	if len(z.findings) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, mode %s: %d findings (replay: go test ./ui -run 'TestRandomSessions/%s/seed=%d$' -ui.seed=%d -ui.actions=%d -ui.mode=%s -v)\n",
		z.seed, z.mode, len(z.findings), z.mode, z.seed, z.seed, z.n.actions, z.mode)
	for i, f := range z.findings {
		if i == 60 {
			fmt.Fprintf(&b, "… and %d more\n", len(z.findings)-i)
			break
		}
		fmt.Fprintln(&b, f)
	}
	b.WriteString("actions:\n")
	log := z.log
	if len(log) > 400 {
		log = log[len(log)-400:]
	}
	for _, l := range log {
		fmt.Fprintln(&b, l)
	}
	z.t.Error(b.String())
}
