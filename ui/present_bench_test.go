package ui

// Speed of Present to client with a proposal of 100 items: from the
// command to the first painted frame of the client's screen. Offline:
// nothing listens at benchURL.

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/localstore"
	syncer "proposaldesk/sync"
)

const bench100ID = 900_100

// desk100 is desk500's data folder with one more Draft proposal: 100
// items in three areas, the first offering two options of 30 items
// each, the others one option of 20.
func desk100(b *testing.B, keys *syncer.Keyring) string {
	b.Helper()
	dir := desk500(b, keys)
	st, err := localstore.OpenWith(storePath(dir, benchURL, benchUser.Email), localstore.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	p := benchProposal(1)
	p.ID, p.Status, p.Name = bench100ID, app.StatusDraft, "A hundred items"
	p.ProjectTerms = "Prices are valid for 30 days."
	p.InternalNotes = "never shown"
	cost := app.MustMoney("40.00")
	id := int64(6_000_000)
	next := func() int64 { id++; return id }
	options := func(sizes ...int) []app.Option {
		var out []app.Option
		for _, n := range sizes {
			o := app.Option{ID: next(), Status: app.OptionDraft, ClientDescription: "A package", InstallerDescription: "never shown"}
			for i := range n {
				o.Items = append(o.Items, app.Item{ID: next(), ItemType: app.ItemPart, Name: fmt.Sprintf("Part %d", i),
					Brand: "Sonos", Model: "Era 100", SellPrice: app.MustMoney("259.00"), Cost: &cost, Quantity: app.OneUnit})
			}
			out = append(out, o)
		}
		return out
	}
	p.Areas = []app.Area{{ID: next(), Name: "Living room", Options: options(30, 30)},
		{ID: next(), Name: "Kitchen", Options: options(20)}, {ID: next(), Name: "Patio", Options: options(20)}}
	err = st.ApplyPull(bg, func(tx *localstore.PullTx) error { return tx.PutServerCopy(p) })
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkPresent100Items: Present to client on a 100-item proposal,
// from the command to the first painted frame (leaving is not timed).
func BenchmarkPresent100Items(b *testing.B) {
	test.NewTempApp(b)
	keys := syncer.NewKeyring()
	d := New(fyne.CurrentApp(), Options{DataDir: desk100(b, keys), Keyring: keys, Do: func(fn func()) {}, ManualSync: true})
	if d.sess == nil {
		b.Fatal("no session resumed")
	}
	b.Cleanup(func() { closeBench(d) })
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.OpenProposal(bench100ID)
	if d.detail.p == nil || d.detail.p.ID != bench100ID {
		b.Fatal("the 100-item proposal did not open")
	}
	for b.Loop() {
		d.PresentToClient()
		d.Window().Canvas().Capture() // the first frame, painted
		b.StopTimer()
		if d.present == nil {
			b.Fatal("not presenting")
		}
		d.LeavePresent()
		b.StartTimer()
	}
}
