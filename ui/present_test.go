package ui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// What the seeded proposal has that the client must never see.
const (
	secretCost      = "7,777.77"
	secretInstaller = "INSTALLER-ONLY gate code 4711"
	secretInternal  = "INTERNAL-ONLY margin talk"
	secretOptNotes  = "OPTION-INTERNAL notes"
)

// presentable makes on the server a proposal to present: the fixture's
// customer, a "Living room" area with two options of different totals
// and a "Porch" area with one, every item with a distinctive cost, and
// installer and internal notes.
func presentable(t *testing.T, h *harness, name string) (id, area, optA, optB int64) {
	t.Helper()
	id = sendable(t, h, name) // customer and a "Den" area
	cost := app.MustMoney(strings.ReplaceAll(secretCost, ",", ""))
	if _, err := h.srv.Update(id, &app.CreateArea{Name: "Living room"}, &app.CreateArea{Name: "Porch"},
		&app.SetInternalNotes{InternalNotes: secretInternal}); err != nil {
		t.Fatal(err)
	}
	p, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	living, porch := p.Areas[1], p.Areas[2]
	area = living.ID
	if _, err := h.srv.Update(id, &app.CreateOption{AreaID: area, ClientDescription: "The larger screen", InternalNotes: secretOptNotes}); err != nil {
		t.Fatal(err)
	}
	if p, err = h.srv.Proposal(id); err != nil {
		t.Fatal(err)
	}
	optA, optB = p.Areas[1].Options[0].ID, p.Areas[1].Options[1].ID
	item := func(opt int64, name, price string) app.Mutation {
		sell, q, typ := app.MustMoney(price), app.OneUnit, app.ItemPart
		return &app.AddItem{OptionID: opt, ItemType: &typ, Name: &name, SellPrice: &sell, Cost: &cost, Quantity: &q}
	}
	if _, err := h.srv.Update(id, item(optA, "55-inch television", "1200.00"), item(optB, "77-inch television", "3400.00"),
		item(porch.Options[0].ID, "Outdoor speaker", "450.00"), item(p.Areas[0].Options[0].ID, "Den speaker", "300.00"),
		&app.SetOptionInstallerNotes{OptionID: optA, InstallerNotes: secretInstaller}); err != nil {
		t.Fatal(err)
	}
	return id, area, optA, optB
}

// pressPresent types Present to client's shortcut.
func pressPresent(d *Desktop) {
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(presentShortcut())
}

// pressEsc types Esc as the driver does: to the focused widget if there
// is one (a tapped check keeps the focus), else to the window.
func pressEsc(d *Desktop) {
	ev := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := d.win.Canvas().Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	d.win.Canvas().OnTypedKey()(ev)
}

// allTexts is every text under o that a user could read: labels, rich
// text, canvas text, entries (text and placeholder), buttons, checks,
// selects, cards, form labels, and what each widget renders.
func allTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	var visit func(o fyne.CanvasObject)
	seen := map[fyne.CanvasObject]bool{}
	visit = func(o fyne.CanvasObject) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		switch x := o.(type) {
		case *widget.Label:
			fmt.Fprintln(&b, x.Text)
		case *widget.RichText:
			fmt.Fprintln(&b, x.String())
		case *canvas.Text:
			fmt.Fprintln(&b, x.Text)
		case *widget.Entry:
			fmt.Fprintln(&b, x.Text, x.PlaceHolder)
		case *plainEntry:
			fmt.Fprintln(&b, x.Text, x.PlaceHolder)
		case *widget.Button:
			fmt.Fprintln(&b, x.Text)
		case *widget.Check:
			fmt.Fprintln(&b, x.Text)
		case *widget.Card:
			fmt.Fprintln(&b, x.Title, x.Subtitle)
			visit(x.Content)
		case *widget.Form:
			for _, it := range x.Items {
				fmt.Fprintln(&b, it.Text, it.HintText)
				visit(it.Widget)
			}
		}
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				visit(c)
			}
		case *cullBox: // its rows, drawn or not
			for _, c := range x.objs {
				visit(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				visit(c)
			}
		}
	}
	visit(o)
	return b.String()
}

// presentedTotal is the proposal total app computes for the client view
// of p with these choices, as money text.
func presentedTotal(p *app.Proposal, choices map[int64]int64) string {
	d := app.DetailView(app.WithChoices(app.ClientView(p), choices), app.ViewOptions{})
	return app.FormatMoney(d.FinancialSummary.ProposalTotal, d.FinancialSummary.Currency)
}

// sign draws a stroke on the pad as a drag does, and types a name.
func sign(pm *presentMode, name string) {
	test.Type(pm.name, name)
	for i := range 20 {
		pm.pad.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(40+i*20), float32(60+(i%4)*12))},
			Dragged: fyne.NewDelta(20, 12)})
	}
	pm.pad.DragEnd()
}

// Present to client, offline from the start: full screen, no cost or
// internal text anywhere in the widget tree, the option chosen changes
// the total to app's, a drawn signature and the consent enable Accept,
// the acceptance lands in the local store and the outbox, the thanks
// stay on the client's screen, and leaving asks. The sync afterwards
// brings the acceptance to the server, which agrees on the view.
func TestPresentToClientOffline(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "Present " + time.Now().Format("150405.000")
	other := "Other proposal " + time.Now().Format("150405.000")
	id, area, optA, optB := presentable(t, h, name)
	if _, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, other); err != nil {
		t.Fatal(err)
	}
	h.sync()
	h.openByName(name)
	workspace := d.win.Content()
	h.gate.down.Store(true) // no network at all from here on

	pressPresent(d)
	pm := d.present
	if pm == nil {
		t.Fatalf("Ctrl+Shift+P did not present; on top: %q", topText(d))
	}
	if !d.win.FullScreen() || d.win.Content() == workspace || d.win.MainMenu() != nil {
		t.Fatalf("present mode: full screen %v, workspace shown %v, menu %v", d.win.FullScreen(), d.win.Content() == workspace, d.win.MainMenu())
	}

	shown := allTexts(d.win.Content())
	for _, secret := range []string{secretCost, "7777.77", secretInstaller, secretInternal, secretOptNotes, other, "Sync now", "Sign out", "Cost", "Profit", "Margin"} {
		if strings.Contains(shown, secret) {
			t.Errorf("present mode shows %q", secret)
		}
	}
	for _, want := range []string{name, "Living room", "Porch", "Den", "Option A", "Option B", "The larger screen",
		"55-inch television", "77-inch television", "Outdoor speaker", "$1,200.00", app.ConsentText, "Accept this proposal"} {
		if !strings.Contains(shown, want) {
			t.Errorf("present mode lacks %q", want)
		}
	}
	if t.Failed() {
		t.Fatalf("present mode's texts:\n%s", shown)
	}

	// The first option is the one counted; choosing the other changes
	// the total to what app computes for it.
	local := d.detail.p
	totalA, totalB := presentedTotal(local, map[int64]int64{area: optA}), presentedTotal(local, map[int64]int64{area: optB})
	if totalA == totalB {
		t.Fatalf("the options give one total %s", totalA)
	}
	if got := pm.shownTotal(); got != totalA {
		t.Fatalf("total shown %q, want %q", got, totalA)
	}
	test.Tap(pm.cards[area][1].parts[3]) // an item's row of option B
	if got := pm.shownTotal(); got != totalB {
		t.Fatalf("after choosing option B the total is %q, want %q", got, totalB)
	}
	if !pm.cards[area][1].chosen || pm.cards[area][0].chosen || pm.cards[area][1].badge.Text != "Your choice" {
		t.Fatal("the chosen card is not marked")
	}

	// Accept waits for the name, a stroke and the consent.
	if !pm.accept.Disabled() {
		t.Fatal("Accept is enabled before anything is filled in")
	}
	sign(pm, "Dana Client")
	if !pm.accept.Disabled() {
		t.Fatal("Accept is enabled without the consent")
	}
	if !strings.Contains(pm.missing.Text, "tick the box") {
		t.Fatalf("what is missing: %q", pm.missing.Text)
	}
	test.Tap(pm.consent)
	if pm.accept.Disabled() {
		t.Fatalf("Accept stays disabled with name, signature and consent: %q", pm.missing.Text)
	}
	test.Tap(pm.accept)
	if pm.signer != "Dana Client" || !strings.Contains(allTexts(d.win.Content()), "Accepted — signed by Dana Client") {
		t.Fatalf("no thanks; the line says %q", pm.missing.Text)
	}
	if d.present != pm || !d.win.FullScreen() {
		t.Fatal("the thanks left the present mode")
	}

	rec, err := d.sess.st.Record(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Local.Status != app.StatusAccepted {
		t.Fatalf("local status %s, want Accepted", rec.Local.Status)
	}
	if a, _ := rec.Local.Area(area); a.Options[0].Status != app.OptionDeclined || a.Options[1].Status != app.OptionSelected {
		t.Fatalf("local options %s, %s; want Declined, Selected", a.Options[0].Status, a.Options[1].Status)
	}
	m := queuedAcceptance(t, d.sess.st, id)
	if m.SignerName != "Dana Client" || len(m.Options) != 1 || m.Options[0] != (app.OptionChoice{AreaID: area, OptionID: optB}) ||
		!strings.HasPrefix(m.DeviceID, "laptop-") {
		t.Fatalf("queued acceptance %+v", m)
	}
	if sig, err := m.Signature(); err != nil || len(sig) > app.MaxSignatureBytes {
		t.Fatalf("signature: %d bytes, %v", len(sig), err)
	}

	// Leaving asks: Stay keeps the client's screen, Return closes it.
	pressEsc(d)
	if !strings.Contains(topText(d), "The client's view will close.") {
		t.Fatalf("Esc did not ask; on top: %q", topText(d))
	}
	test.Tap(findButton(d.win.Canvas().Overlays().Top(), "Stay"))
	if d.present != pm || d.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Stay left the present mode or kept the question")
	}
	// Esc in the name field asks too; Esc again closes the question.
	pm.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if !strings.Contains(topText(d), "The client's view will close.") {
		t.Fatalf("Esc in the name did not ask; on top: %q", topText(d))
	}
	pressEsc(d)
	if d.present != pm || d.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Esc on the question left the present mode or kept the question")
	}
	// A click leaves a check or a button focused under the real driver
	// (the consent box even after the thanks replaced it), and the
	// focused widget gets the key: Esc there asks too.
	for _, w := range []fyne.Focusable{pm.consent, pm.accept, pm.leave} {
		w.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if !strings.Contains(topText(d), "The client's view will close.") {
			t.Fatalf("Esc in %T did not ask; on top: %q", w, topText(d))
		}
		pressEsc(d)
	}
	// The workspace's shortcuts do nothing meanwhile.
	rows := len(d.list.rows)
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	pm.name.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	if d.present != pm || d.win.Content() == workspace {
		t.Fatal("Ctrl+N left the present mode")
	}
	if d.list.refresh(); len(d.list.rows) != rows {
		t.Fatal("Ctrl+N made a proposal while presenting")
	}
	test.Tap(pm.leave)
	test.Tap(findButton(d.win.Canvas().Overlays().Top(), "Return to the proposal"))
	if d.present != nil || d.win.FullScreen() || d.win.Content() != workspace || d.win.MainMenu() == nil {
		t.Fatal("Return to the proposal did not restore the workspace")
	}
	if d.detail.p.Status != app.StatusAccepted {
		t.Fatalf("the proposal screen shows %s", d.detail.p.Status)
	}
	// The Client card says so before any sync, and offers the laptop's
	// signed PDF.
	d.detail.refreshClient()
	if txt := d.detail.clientText.Text; !strings.Contains(txt, "Accepted in person by Dana Client on") ||
		!strings.Contains(txt, "on this laptop") || strings.Contains(txt, "Not sent") || !d.detail.laptopPDF.Visible() {
		t.Fatalf("Client card before the sync: %q (laptop PDF shown: %v)", txt, d.detail.laptopPDF.Visible())
	}
	var item *fyne.MenuItem
	for _, m := range d.win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == "Present to client" {
				item = it
			}
		}
	}
	if item == nil || item.Shortcut == nil || item.Shortcut.ShortcutName() != presentShortcut().ShortcutName() {
		t.Fatal("the menu has no Present to client with its shortcut")
	}

	// Back online: the server takes the acceptance for what it shows.
	h.gate.down.Store(false)
	if st := h.sync(); st.Pending != 0 || st.Failed != 0 || st.Conflicts != 0 {
		t.Fatalf("after the sync: %+v", st)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := sp.Area(area); sp.Status != app.StatusAccepted || a.Options[1].Status != app.OptionSelected {
		t.Fatalf("server: %s, option B %s", sp.Status, a.Options[1].Status)
	}
	// The sync read the server's evidence though nothing was sent: the
	// card says what the server recorded and offers its signed PDF.
	d.detail.refreshClient()
	if txt := d.detail.clientText.Text; !strings.Contains(txt, "Accepted in person by Dana Client on") ||
		strings.Contains(txt, "on this laptop") || !d.detail.signedPDF.Visible() {
		t.Fatalf("Client card after the sync: %q (server's signed PDF shown: %v)", txt, d.detail.signedPDF.Visible())
	}
}

// queuedAcceptance is the AcceptInPerson edit waiting in the outbox.
func queuedAcceptance(t *testing.T, st *localstore.Store, id int64) *app.AcceptInPerson {
	t.Helper()
	entries, err := st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.ProposalID != id || e.Mutation == nil {
			continue
		}
		m, err := app.DecodeMutation(e.Mutation)
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := m.(*app.AcceptInPerson); ok {
			return a
		}
	}
	t.Fatalf("no AcceptInPerson in the outbox's %d entries", len(entries))
	return nil
}

// A stroke drawn on the pad is a PNG of the pad's size with ink on it,
// which app's acceptance takes; Clear empties it.
func TestSignaturePadPNG(t *testing.T) {
	test.NewTempApp(t)
	changes := 0
	pad := newSignaturePad(func() { changes++ })
	w := test.NewWindow(pad)
	defer w.Close()
	w.Resize(padSize.Add(fyne.NewSize(20, 20)))
	if _, err := pad.PNG(); err == nil {
		t.Fatal("an empty pad gave a PNG")
	}
	test.Drag(w.Canvas(), fyne.NewPos(60, 60), 200, 40)
	if pad.empty() || changes != 1 {
		t.Fatalf("after a drag: empty %v, %d changes", pad.empty(), changes)
	}
	data, err := pad.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != int(pad.Size().Width) || b.Dy() != int(pad.Size().Height) {
		t.Fatalf("PNG %v, pad %v", b, pad.Size())
	}
	ink := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				ink++
			}
		}
	}
	if ink < 200 {
		t.Fatalf("%d inked pixels for a 200-unit stroke", ink)
	}
	m := &app.AcceptInPerson{ID: 1, SignerName: "A", SignatureImage: base64.StdEncoding.EncodeToString(data),
		SnapshotHash: strings.Repeat("a", 64), SignedAt: time.Now().Format(time.RFC3339), DeviceID: "laptop-x"}
	if err := m.Validate(); err != nil {
		t.Fatalf("app refuses the pad's PNG (%d bytes): %v", len(data), err)
	}
	pad.Clear()
	if !pad.empty() || changes != 2 {
		t.Fatalf("after Clear: empty %v, %d changes", pad.empty(), changes)
	}
}

func TestPresentRefusal(t *testing.T) {
	sales, viewer := app.User{Role: app.RoleSales}, app.User{Role: app.RoleViewer}
	proposal := func(s app.Status, areas ...app.Area) *app.Proposal {
		p := &app.Proposal{}
		p.Status, p.Areas = s, areas
		return p
	}
	with := func(s app.Status) *app.Proposal { return proposal(s, app.Area{ID: 1, Options: []app.Option{{ID: 2}}}) }
	for _, tc := range []struct {
		name     string
		u        app.User
		readOnly bool
		p        *app.Proposal
		want     string // "" when it can be presented
	}{
		{"draft", sales, false, with(app.StatusDraft), ""},
		{"sent", sales, false, with(app.StatusSubmitted), ""},
		{"viewed", sales, false, with(app.StatusViewedByClient), ""},
		{"no proposal", sales, false, nil, "Open a proposal first"},
		{"viewer", viewer, false, with(app.StatusDraft), "Your role (Viewer) cannot take a client's acceptance"},
		{"locked by the server", sales, true, with(app.StatusDraft), "The server locked this proposal"},
		{"accepted", sales, false, with(app.StatusAccepted), "This proposal is Accepted"},
		{"declined", sales, false, with(app.StatusDeclined), "This proposal is Declined"},
		{"completed", sales, false, with(app.StatusCompleted), "This proposal is Completed"},
		{"no area", sales, false, proposal(app.StatusDraft), "no options yet"},
		{"area without option", sales, false, proposal(app.StatusDraft, app.Area{ID: 1}), "no options yet"},
	} {
		got := presentRefusal(tc.u, tc.readOnly, tc.p)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A Viewer's Present to client says why in words and shows nothing of
// the client's screen.
func TestPresentRefusedForViewer(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleViewer)
	h.openByName("Smith home theater")
	pressPresent(d)
	if d.present != nil || d.win.FullScreen() {
		t.Fatal("a Viewer presented the proposal")
	}
	if got := topText(d); !strings.Contains(got, "Cannot present to the client") || !strings.Contains(got, "Your role (Viewer)") {
		t.Fatalf("on top: %q", got)
	}
}

// A sync that changes the proposal while it is shown: the client's
// screen says so at once and Accept stays off; pressed anyway, app
// refuses it in words, and nothing is accepted or queued.
func TestPresentChangedMeanwhile(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "Changed meanwhile " + time.Now().Format("150405.000")
	id, area, _, _ := presentable(t, h, name)
	h.sync()
	h.openByName(name)
	pressPresent(d)
	pm := d.present
	if pm == nil {
		t.Fatalf("not presenting; on top: %q", topText(d))
	}
	sign(pm, "Dana Client")
	test.Tap(pm.consent)
	if pm.accept.Disabled() {
		t.Fatalf("Accept disabled before the change: %q", pm.missing.Text)
	}
	price := app.MustMoney("999.00")
	p, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Area(area)
	if _, err := h.srv.Update(id, &app.ChangeItem{ItemID: a.Options[0].Items[0].ID, SellPrice: &price}); err != nil {
		t.Fatal(err)
	}
	h.backgroundSync()
	if !pm.accept.Disabled() || pm.missing.Text != changedWords {
		t.Fatalf("after the change: Accept disabled %v, line %q", pm.accept.Disabled(), pm.missing.Text)
	}
	pm.changed = false // as if the sync's news had not reached the screen
	pm.refreshAccept()
	test.Tap(pm.accept)
	if pm.signer != "" || !strings.Contains(pm.missing.Text, "Not accepted: The proposal changed") {
		t.Fatalf("accepted anyway, or not said: signer %q, line %q", pm.signer, pm.missing.Text)
	}
	rec, err := d.sess.st.Record(id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Local.Status == app.StatusAccepted {
		t.Fatal("the local proposal is accepted")
	}
	entries, _ := d.sess.st.Entries()
	for _, e := range entries {
		if m, err := app.DecodeMutation(e.Mutation); err == nil && m.Kind() == app.KindAcceptInPerson {
			t.Fatal("an acceptance was queued")
		}
	}
}

// shownTotal is the proposal total the screen shows: the totals' one
// bold amount.
func (pm *presentMode) shownTotal() string {
	total := ""
	walk(pm.totals, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.TextStyle.Bold && l.Alignment == fyne.TextAlignTrailing && total == "" {
			total = l.Text
		}
	})
	return total
}
