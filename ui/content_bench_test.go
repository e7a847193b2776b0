package ui

// Speed of editing a proposal of 500 items on the desktop: building its
// screen, a keystroke in a quantity (the totals previewed), and a saved
// quantity (validation, local store, outbox, totals). Offline: nothing
// listens at benchURL.

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

const bench500ID = 900_000

// desk500 is a data folder with one Draft proposal of 500 items in one
// option (every 5th nested under the one before) and a saved session.
func desk500(b *testing.B, keys *syncer.Keyring) string {
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

func start500(b *testing.B) *Desktop {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	d := New(fyne.CurrentApp(), Options{DataDir: desk500(b, keys), Keyring: keys, Do: func(fn func()) {}, ManualSync: true})
	if d.sess == nil {
		b.Fatal("no session resumed")
	}
	b.Cleanup(func() { closeBench(d) })
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.OpenProposal(bench500ID)
	if d.detail.p == nil || len(d.detail.cui().rows) != 500 {
		b.Fatal("the 500-item proposal did not open with its rows")
	}
	return d
}

// BenchmarkOpen500Items: build the screen of a 500-item proposal (what
// a structural edit also costs: the screen is built again).
func BenchmarkOpen500Items(b *testing.B) {
	d := start500(b)
	for b.Loop() {
		d.detail.build()
	}
}

// BenchmarkQuantityKeystroke500: one keystroke in an item's quantity:
// app.Apply on the local view, then the row, option and summary totals.
func BenchmarkQuantityKeystroke500(b *testing.B) {
	d := start500(b)
	f := d.detail.cui().rows[5_000_250].fields[colQuantity]
	qs := []string{"2", "3", "12", "1"}
	i := 0
	for b.Loop() {
		f.SetText(qs[i%len(qs)])
		i++
	}
	if got := d.detail.cui().rows[5_000_250].total.Text; got == "$59.90" && f.Text != "1" {
		b.Fatalf("the row total did not follow: %s", got)
	}
}

// BenchmarkQuantitySave500: a quantity saved (Enter): validation, the
// local store and outbox (one fsync'd bbolt commit), and the totals.
func BenchmarkQuantitySave500(b *testing.B) {
	d := start500(b)
	f := d.detail.cui().rows[5_000_250].fields[colQuantity]
	qs := []string{"2", "3", "12", "1"}
	i := 0
	for b.Loop() {
		f.SetText(qs[i%len(qs)])
		f.flush()
		i++
	}
	if n := d.sess.eng.State().Pending; n == 0 {
		b.Fatal("nothing was saved")
	}
}

// BenchmarkFollowIDs500: what every save and every sync's reload adds to
// follow the IDs a sync replaced (none here: the common case).
func BenchmarkFollowIDs500(b *testing.B) {
	d := start500(b)
	p := d.detail.p
	for b.Loop() {
		if len(followIDs(d.sess.st, p)) != 0 {
			b.Fatal("IDs followed in an unchanged proposal")
		}
	}
}
