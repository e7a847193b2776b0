package ui

// Speed of editing a proposal of 500 items on the desktop: building its
// screen, a keystroke in a quantity (the totals previewed), and a saved
// quantity (validation, local store, outbox, totals). Offline: nothing
// listens at benchURL.

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

const bench500ID = 900_000

// desk500 is a data folder with one Draft proposal of 500 items in one
// option (every 5th nested under the one before) and a saved session.
func desk500(b testing.TB, keys *syncer.Keyring) string {
	b.Helper()
	dir := b.TempDir()
	path := storePath(dir, benchURL, benchUser.Email)
	os.MkdirAll(filepath.Dir(path), 0o700)
	st, err := localstore.OpenWith(path, localstore.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	p := benchProposal(0)
	p.ID, p.Status, p.Name = bench500ID, app.StatusDraft, "Five hundred items"
	cost := app.MustMoney("40.00")
	o := &p.Areas[0].Options[0]
	o.Items = nil
	for i := range 500 {
		it := app.Item{ID: int64(5_000_000 + i), ItemType: app.ItemPart, Name: fmt.Sprintf("Part %d", i),
			SellPrice: app.MustMoney("59.90"), Cost: &cost, Quantity: app.OneUnit}
		if i%5 == 4 {
			it.ParentID = int64(5_000_000 + i - 1)
		}
		o.Items = append(o.Items, it)
	}
	err = st.ApplyPull(bg, func(tx *localstore.PullTx) error {
		if err := tx.PutUsers([]app.User{benchUser}); err != nil {
			return err
		}
		return tx.PutServerCopy(p)
	})
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	if err := writeSession(dir, &savedSession{BaseURL: benchURL, AppID: "bench", Email: benchUser.Email, User: benchUser}); err != nil {
		b.Fatal(err)
	}
	if err := keys.Save(benchURL, benchUser.Email, syncer.Credentials{APIKey: "k", AppSecret: "s"}); err != nil {
		b.Fatal(err)
	}
	return dir
}

func start500(b testing.TB) *Desktop {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	d := New(fyne.CurrentApp(), Options{DataDir: desk500(b, keys), Keyring: keys, Do: func(fn func()) {}, ManualSync: true})
	if d.sess == nil {
		b.Fatal("no session resumed")
	}
	b.Cleanup(func() { closeBench(d) })
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.OpenProposal(bench500ID)
	if d.detail.p == nil || d.detail.rowFor(5_000_250) == nil {
		b.Fatal("the 500-item proposal did not open with its rows")
	}
	return d
}

// BenchmarkOpen500Items: build the screen of a 500-item proposal
// afresh, as opening it does (the record already read).
func BenchmarkOpen500Items(b *testing.B) {
	d := start500(b)
	stop := cpuClock(b)
	for b.Loop() {
		d.detail.ct = nil // nothing kept from the screen before
		d.detail.build()
		frame500(d)
	}
	stop()
}

// BenchmarkOpen500ItemsFrame: open a 500-item proposal (read it from the
// store, build its screen) and paint the first frame (software).
func BenchmarkOpen500ItemsFrame(b *testing.B) {
	d := start500(b)
	c := d.Window().Canvas()
	stop := cpuClock(b)
	for b.Loop() {
		d.detail.open(bench500ID)
		c.Capture()
	}
	stop()
}

// BenchmarkFrame500: a frame painted (software) with nothing changed:
// the part of the benchmarks above and below that is the test driver's
// painter, not the app.
func BenchmarkFrame500(b *testing.B) {
	d := start500(b)
	c := d.Window().Canvas()
	c.Capture()
	stop := cpuClock(b)
	for b.Loop() {
		c.Capture()
	}
	stop()
}

// layoutPass lays out what a frame would draw, without painting it:
// each widget's renderer and each container's layout at its size, then
// what they hand over (the culled children are not walked, as a frame
// does not). The app's part of a frame, apart from the painter's.
func layoutPass(o fyne.CanvasObject) {
	walkDrawn(o, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *fyne.Container:
			if x.Layout != nil {
				x.Layout.Layout(x.Objects, x.Size())
			}
		case fyne.Widget:
			test.WidgetRenderer(x).Layout(x.Size())
		}
	}, nil)
}

// walkDrawn walks what a frame draws (the visible objects, and what
// containers and widgets' renderers hand over), calling before on each
// object before its children and after once they are walked (either
// may be nil).
func walkDrawn(o fyne.CanvasObject, before, after func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	if before != nil {
		before(o)
	}
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkDrawn(c, before, after)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkDrawn(c, before, after)
		}
	}
	if after != nil {
		after(o)
	}
}

// frame500 is the frame after an edit, laid out but not painted.
func frame500(d *Desktop) { layoutPass(d.Window().Content()) }

// BenchmarkRedraw500: the whole screen built again and laid out, as a
// change outside the items makes it (an edit of items lays out only its
// option's rows again: the Add, Remove, Move and Nest benchmarks).
func BenchmarkRedraw500(b *testing.B) {
	d := start500(b)
	d.Window().Canvas().Capture()
	stop := cpuClock(b)
	for b.Loop() {
		d.detail.shape = "" // not the page's shape: built anew
		d.detail.build()
		frame500(d)
	}
	stop()
}

// cpuClock starts counting the process's CPU time (all threads: the
// machine is shared, and CPU time moves less with its load than wall
// time); the func it returns reports it per op as cpu-ms/op.
func cpuClock(b *testing.B) func() {
	at := cpuNow()
	return func() { b.ReportMetric(float64(cpuNow()-at)/1e6/float64(b.N), "cpu-ms/op") }
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// option500 is the 500-item option and its hint line.
func option500(d *Desktop) (int64, *hintLine) {
	o := &d.detail.p.Areas[0].Options[0]
	return o.ID, d.detail.cui().hints[o.ID]
}

// The structural edits of a 500-item proposal, each saved (the local
// store's one commit and the outbox) and the frame after it laid out
// (layoutPass; BenchmarkFrame500 is what painting it adds).

// BenchmarkAddItem500: Custom item, the line added and focused.
func BenchmarkAddItem500(b *testing.B) {
	d := start500(b)
	stop := cpuClock(b)
	for b.Loop() {
		opt, hint := option500(d)
		d.detail.addLine(opt, app.ItemCustomItem, "Custom item", hint)
		frame500(d)
	}
	stop()
	if _, ok := d.Window().Canvas().Focused().(*field); !ok {
		b.Fatal("the new line's name has not the focus")
	}
}

// BenchmarkRemoveItem500: ✕ on a line (taken off the screen, Undo
// offered), then the removal saved as when Undo is no longer offered;
// only the first part is timed: it is what the user waits for.
func BenchmarkRemoveItem500(b *testing.B) {
	d := start500(b)
	stop := cpuClock(b)
	for i := 0; i < b.N; i++ {
		o := &d.detail.p.Areas[0].Options[0]
		ids := app.OutlineIDs(o)
		d.detail.removeItem(ids[len(ids)/2])
		frame500(d)
		b.StopTimer()
		d.detail.commitRemoval()
		b.StartTimer()
	}
	stop()
}

// BenchmarkRemoveItemSaved500: the same with the removal's save.
func BenchmarkRemoveItemSaved500(b *testing.B) {
	d := start500(b)
	stop := cpuClock(b)
	for b.Loop() {
		o := &d.detail.p.Areas[0].Options[0]
		ids := app.OutlineIDs(o)
		d.detail.removeItem(ids[len(ids)/2])
		frame500(d)
		d.detail.commitRemoval()
	}
	stop()
}

// BenchmarkMoveItem500: Alt+↓ then Alt+↑ on a line (each a move).
func BenchmarkMoveItem500(b *testing.B) {
	d := start500(b)
	step := 1
	stop := cpuClock(b)
	for b.Loop() {
		d.detail.moveItem(5_000_250, step, colQuantity)
		frame500(d)
		step = -step
	}
	stop()
}

// BenchmarkNestItem500: Nest under the item above, then Un-nest.
func BenchmarkNestItem500(b *testing.B) {
	d := start500(b)
	above, zero := int64(5_000_248), int64(0)
	nest := true
	stop := cpuClock(b)
	for b.Loop() {
		m := &app.ChangeItem{ID: d.detail.id, ItemID: 5_000_250, ParentID: &zero}
		if nest {
			m.ParentID = &above
		}
		_, hint := option500(d)
		if !d.detail.applyEdits(hint, m) {
			b.Fatal("the nesting was refused")
		}
		frame500(d)
		nest = !nest
	}
	stop()
}

// BenchmarkQuantityKeystroke500: one keystroke in an item's quantity:
// app.Apply on the local view, then the row, option and summary totals.
func BenchmarkQuantityKeystroke500(b *testing.B) {
	d := start500(b)
	f := d.detail.rowFor(5_000_250).fields[colQuantity]
	qs := []string{"2", "3", "12", "1"}
	i := 0
	stop := cpuClock(b)
	for b.Loop() {
		f.SetText(qs[i%len(qs)])
		i++
	}
	stop()
	if got := d.detail.rowFor(5_000_250).total.Text; got == "$59.90" && f.Text != "1" {
		b.Fatalf("the row total did not follow: %s", got)
	}
}

// BenchmarkQuantityKeystroke500Frame: the same keystroke, typed into the
// focused field, and the frame painted (software).
func BenchmarkQuantityKeystroke500Frame(b *testing.B) {
	d := start500(b)
	f := d.detail.rowFor(5_000_250).fields[colQuantity]
	d.detail.focus(f)
	c := d.Window().Canvas()
	c.Capture()
	i := 0
	stop := cpuClock(b)
	for b.Loop() {
		if i%2 == 0 {
			f.TypedRune('2')
		} else {
			f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		}
		c.Capture()
		i++
	}
	stop()
	if c.Focused() != f {
		b.Fatal("the quantity lost the focus")
	}
}

// BenchmarkQuantitySave500: a quantity saved (Enter): validation, the
// local store and outbox (one fsync'd bbolt commit), and the totals.
func BenchmarkQuantitySave500(b *testing.B) {
	d := start500(b)
	f := d.detail.rowFor(5_000_250).fields[colQuantity]
	qs := []string{"2", "3", "12", "1"}
	i := 0
	stop := cpuClock(b)
	for b.Loop() {
		f.SetText(qs[i%len(qs)])
		f.flush()
		i++
	}
	stop()
	if n := d.sess.eng.State().Pending; n == 0 {
		b.Fatal("nothing was saved")
	}
}

// BenchmarkFollowIDs500: what every save and every sync's reload adds to
// follow the IDs a sync replaced (none here: the common case).
func BenchmarkFollowIDs500(b *testing.B) {
	d := start500(b)
	p := d.detail.p
	stop := cpuClock(b)
	for b.Loop() {
		if len(followIDs(d.sess.st, p)) != 0 {
			b.Fatal("IDs followed in an unchanged proposal")
		}
	}
	stop()
}

// minSizeWalk asks every object a frame would draw for its min size,
// children before parents, as Fyne's driver does before each frame it
// paints (Canvas.EnsureMinSize): with containers measuring their
// children again, a deep page pays its depth over and over.
func minSizeWalk(o fyne.CanvasObject) {
	walkDrawn(o, nil, func(o fyne.CanvasObject) { o.MinSize() })
}

// BenchmarkMinSizes500: the min-size pass of a frame of the 500-item
// proposal scrolled to its items, nothing changed (a caret blinking, a
// keystroke that keeps the sizes), with the culling boxes' cache of
// their own min size and without it.
func BenchmarkMinSizes500(b *testing.B) {
	for _, cached := range []bool{true, false} {
		name := map[bool]string{true: "cached", false: "uncached"}[cached]
		b.Run(name, func(b *testing.B) {
			d := start500(b)
			d.ShowItems()
			d.Window().Canvas().Capture()
			noMinCache = !cached
			defer func() { noMinCache = false }()
			stop := cpuClock(b)
			for b.Loop() {
				minSizeWalk(d.Window().Content())
			}
			stop()
			b.ReportMetric(float64(objectsDrawn(d.Window().Content())), "objects/frame")
		})
	}
}

// objectsDrawn counts the objects a frame walks (what Fyne measures,
// lays out and hands its painter): each costs every frame, drawn or not.
func objectsDrawn(o fyne.CanvasObject) int {
	n := 0
	walkDrawn(o, func(fyne.CanvasObject) { n++ }, nil)
	return n
}
