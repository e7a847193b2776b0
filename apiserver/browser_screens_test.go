package apiserver

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// screensFixture is a sent proposal as a dealer would send it: a media
// room with a good and a better option, and a patio, so the
// documentation's screenshots show what a client sees.
func screensFixture(t *testing.T, e *tenv) string {
	t.Helper()
	a := e.main
	p := e.load(a, a.draft)
	p = e.apply(a, p, &app.AssignContact{ID: p.ID, ContactID: a.contact})
	p = e.apply(a, p, &app.UpdateProposal{ID: p.ID, Name: ptrTo("Lake house: media room and patio")})
	p = e.apply(a, p, &app.CreateOption{ID: p.ID, AreaID: a.area, ClientDescription: "7.1 with a second subwoofer and acoustic panels"})
	p = e.apply(a, p, &app.CreateArea{ID: p.ID, Name: "Patio"})
	item := func(tx store.Tx, typ app.ItemType, name, price, qty string) app.Item {
		return app.Item{ID: tx.NextID(), ItemType: typ, Name: name, SellPrice: app.MustMoney(price), Quantity: app.MustQuantity(qty)}
	}
	e.update(a.acct.ID, func(tx store.Tx) error {
		q, err := tx.Proposal(p.ID)
		if err != nil {
			return err
		}
		media := q.Areas[0]
		media.Name = "Media room"
		media.Options[0].ClientDescription = "5.1 surround with in-wall speakers"
		media.Options[0].Items = []app.Item{
			item(tx, app.ItemPart, "Sonos Arc soundbar", "899.00", "1"),
			item(tx, app.ItemPart, "In-wall speaker, pair", "499.00", "2"),
			item(tx, app.ItemLabor, "Installation", "95.00", "6"),
		}
		media.Options[1].Items = []app.Item{
			item(tx, app.ItemPart, "Sonos Arc soundbar", "899.00", "1"),
			item(tx, app.ItemPart, "In-wall speaker, pair", "499.00", "3"),
			item(tx, app.ItemPart, "Subwoofer", "749.00", "2"),
			item(tx, app.ItemPart, "Acoustic panel", "120.00", "6"),
			item(tx, app.ItemLabor, "Installation", "95.00", "10"),
		}
		q.Areas[0] = media
		q.Areas[1].Options[0].ClientDescription = "Weatherproof speakers on the pergola"
		q.Areas[1].Options[0].Items = []app.Item{
			item(tx, app.ItemPart, "Outdoor speaker, pair", "649.00", "1"),
			item(tx, app.ItemLabor, "Installation", "95.00", "3"),
		}
		return tx.PutProposal(q)
	})
	d, r := sendAs(e, a.sales, p.ID, map[string]any{"Message": "Hi Ann, here is the proposal we talked about on Tuesday. The better option adds the second subwoofer."})
	if r.status != 200 {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	return *d.ClientLink.URL
}

// TestBrowserScreenshots makes the documentation's pictures of the
// client's page (PD_SCREENSHOTS=docs/screenshots keeps them), on a
// desktop and on a phone, and checks what they show.
func TestBrowserScreenshots(t *testing.T) {
	e := newEnv(t)
	link := screensFixture(t, e)
	for _, v := range []struct {
		name          string
		width, height int
		mobile        bool
	}{{"client-page-desktop.png", 1280, 900, false}, {"client-page-phone.png", 390, 844, true}} {
		ctx := newBrowser(t, v.width, v.height, v.mobile)
		if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`#decide`))); err != nil {
			t.Fatal(err)
		}
		body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Media room", "Sonos Arc soundbar", "Patio", "$899.00", "second subwoofer"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q", v.name, want)
			}
		}
		screenshot(t, ctx, v.name)
	}
}
