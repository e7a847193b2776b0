package apiserver

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/internal/pdftext"
)

// clientFixture is a sent proposal with two options in one area, a
// script in every dealer string the client sees, and a cost and
// installer notes the client must never see.
func clientFixture(t *testing.T, e *tenv) (id int64, link string) {
	t.Helper()
	a := e.main
	p := e.load(a, a.draft)
	p = e.apply(a, p, &app.AssignContact{ID: p.ID, ContactID: a.contact})
	p = e.apply(a, p, &app.UpdateProposal{ID: p.ID, Name: ptrTo("<script>alert(1)</script> Kitchen")})
	p = e.apply(a, p, &app.SetInternalNotes{ID: p.ID, InternalNotes: "INSTALLER-ONLY gate code"})
	p = e.apply(a, p, &app.CreateOption{ID: p.ID, AreaID: a.area, ClientDescription: "<script>evil()</script> Premium"})
	e.update(a.acct.ID, func(tx store.Tx) error {
		q, err := tx.Proposal(p.ID)
		if err != nil {
			return err
		}
		cost := app.MustMoney("77.13")
		q.Areas[0].Options[0].InstallerDescription = "INSTALLER-NOTE run cable"
		q.Areas[0].Options[1].Items = []app.Item{{ID: tx.NextID(), ItemType: app.ItemPart, Name: "Big <b>amp</b>",
			SellPrice: app.MustMoney("900.00"), Cost: &cost, Quantity: app.MustQuantity("1")}}
		return tx.PutProposal(q)
	})
	d, r := sendAs(e, a.sales, p.ID, map[string]any{"Message": "<script>msg()</script> hello"})
	if r.status != 200 {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	return p.ID, *d.ClientLink.URL
}

func ptrTo[T any](v T) *T { return &v }

// browse is a client without cookies or redirects followed.
func browse(t *testing.T, method, u string, form url.Values) (int, http.Header, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", "clienttest/1")
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestClientPageAcceptFlow(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id, link := clientFixture(t, e)

	status, h, page := browse(t, "GET", link, nil)
	if status != 200 {
		t.Fatalf("page: %d %s", status, page)
	}
	for k, want := range map[string]string{
		"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY", "Cache-Control": "no-store, private",
	} {
		if h.Get(k) != want {
			t.Errorf("%s: %q, want %q", k, h.Get(k), want)
		}
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "script-src") {
		t.Errorf("CSP %q", csp)
	}
	for _, bad := range []string{"<script", "INSTALLER", "77.13", "gate code", "<b>amp"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt; Kitchen", "Main AV", "$200.00", "Option B", `name="FullName"`, `type="checkbox"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	d := detail(t, e.get(a.sales, pathf("/public/proposals/%d", id)))
	if d.Status != app.StatusViewedByClient || d.ClientLastOpenedDate.IsZero() {
		t.Errorf("after the open: %s, opened %v", d.Status, d.ClientLastOpenedDate)
	}

	// Choose the other option: the total follows.
	p := e.load(a, id)
	other := p.Areas[0].Options[1].ID
	status, _, _ = browse(t, "POST", link+"/choose", url.Values{"AreaId": {app.FormatID(a.area)}, "AreaOptionId": {app.FormatID(other)}})
	if status != http.StatusSeeOther {
		t.Fatalf("choose: %d", status)
	}
	_, _, page = browse(t, "GET", link, nil)
	if !strings.Contains(page, "$900.00") || !strings.Contains(page, "your choice") {
		t.Errorf("after the choice the page does not show the new total")
	}

	// Accept without consent: refused in words, nothing decided.
	status, _, page = browse(t, "POST", link+"/accept", url.Values{"FullName": {"Ann Lee"}})
	if status != 400 || !strings.Contains(page, "tick the box") {
		t.Errorf("accept without consent: %d", status)
	}
	status, _, _ = browse(t, "POST", link+"/accept", url.Values{"FullName": {"Ann <script>x()</script> Lee"}, "Consent": {"yes"}})
	if status != http.StatusSeeOther {
		t.Fatalf("accept: %d", status)
	}
	_, _, page = browse(t, "GET", link, nil)
	if !strings.Contains(page, "has been accepted") || !strings.Contains(page, "Ann &lt;script&gt;x()&lt;/script&gt; Lee") || strings.Contains(page, "<script") {
		t.Errorf("the decided page: %s", page)
	}
	if strings.Contains(page, `action="/c/`) {
		t.Error("the decided page still offers a decision")
	}
	d = detail(t, e.get(a.sales, pathf("/public/proposals/%d", id)))
	if d.Status != app.StatusAccepted || d.ClientLastDecisionDate.IsZero() {
		t.Errorf("after accept: %s", d.Status)
	}
	if s0, s1 := d.Areas[0].Options[0].Status, d.Areas[0].Options[1].Status; s0 != app.OptionDeclined || s1 != app.OptionSelected {
		t.Errorf("options %s, %s; want Declined, Selected", s0, s1)
	}
	// A second decision changes nothing.
	status, _, page = browse(t, "POST", link+"/decline", url.Values{})
	if status != http.StatusConflict || !strings.Contains(page, "Nothing was changed") {
		t.Errorf("decline after accept: %d", status)
	}

	var events []app.Event
	e.get(a.viewer, pathf("/public/proposals/%d/events", id)).json(t, &events)
	if err := app.VerifyEvents(id, events); err != nil {
		t.Error(err)
	}
	var types []string
	for _, ev := range events {
		types = append(types, string(ev.Type))
	}
	if got := strings.Join(types, ","); got != "Sent,Opened,OptionChosen,Accepted" {
		t.Errorf("events %s", got)
	}
	acc := events[3] // Accepted
	if acc.Data["signerName"] != "Ann <script>x()</script> Lee" || acc.Data["consentVersion"] != app.ConsentVersion ||
		acc.Data["consentText"] != app.ConsentText || acc.UserAgent != "clienttest/1" || acc.IP != "127.0.0.1" || acc.SnapshotHash != d.ClientLink.SnapshotHash {
		t.Errorf("the acceptance event: %+v", acc)
	}

	// The signed PDF, from the API and from the page, with the
	// certificate and nothing of the dealer's own.
	r := e.get(a.viewer, pathf("/public/proposals/%d/signed.pdf", id))
	if r.status != 200 {
		t.Fatalf("signed.pdf: %d %s", r.status, r.body)
	}
	text := pdfText(t, r.body)
	for _, want := range []string{"Certificate of acceptance", "Ann <script>x()</script> Lee", acc.Hash, acc.SnapshotHash, "127.0.0.1", "900.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("the signed PDF lacks %q", want)
		}
	}
	// A typed name: no drawing on the certificate (the in-person one
	// has it, TestAcceptInPersonOverAPI).
	if n := pdftext.Images(t, r.body); n != 0 || strings.Contains(text, "Signed by") {
		t.Errorf("the web acceptance's signed PDF has %d images, says Signed by: %v", n, strings.Contains(text, "Signed by"))
	}
	status, _, own := browse(t, "GET", link+"/pdf", nil)
	if status != 200 || !bytes.Equal([]byte(own), r.body) {
		t.Errorf("the client's download: %d, same as signed.pdf: %v", status, own == string(r.body))
	}
	for _, bad := range []string{"INSTALLER", "77.13", "gate code"} {
		if strings.Contains(text, bad) {
			t.Errorf("the signed PDF holds %q", bad)
		}
	}
}

func TestClientPageDeclineReplacedExpired(t *testing.T) {
	now := time.Now()
	clock := &now
	e := newEnv(t, func(c *Config) { c.Now = func() time.Time { return *clock } })
	a := e.main
	id, first := clientFixture(t, e)
	d, _ := sendAs(e, a.sales, id, nil)
	second := *d.ClientLink.URL

	status, _, page := browse(t, "GET", first, nil)
	if status != 200 || !strings.Contains(page, "replaced by a newer one") || strings.Contains(page, `action="/c/`) {
		t.Errorf("the replaced link: %d", status)
	}
	status, _, page = browse(t, "POST", first+"/accept", url.Values{"FullName": {"Ann"}, "Consent": {"yes"}})
	if status != http.StatusConflict || !strings.Contains(page, "replaced") {
		t.Errorf("accept on the replaced link: %d", status)
	}
	// A token of this proposal with a wrong secret, and another
	// proposal's ID with this secret: not found.
	bad := second[:len(second)-3] + "AAA"
	if status, _, _ := browse(t, "GET", bad, nil); status != 404 {
		t.Errorf("a wrong secret: %d", status)
	}
	moved := strings.Replace(second, "."+app.FormatID(id)+".", "."+app.FormatID(a.locked)+".", 1)
	if status, _, _ := browse(t, "GET", moved, nil); status != 404 {
		t.Errorf("the secret on another proposal: %d", status)
	}

	status, _, _ = browse(t, "POST", second+"/decline", url.Values{"Reason": {"Too dear <script>"}})
	if status != http.StatusSeeOther {
		t.Fatalf("decline: %d", status)
	}
	if got := detail(t, e.get(a.sales, pathf("/public/proposals/%d", id))).Status; got != app.StatusDeclined {
		t.Errorf("after decline: %s", got)
	}
	text := pdfText(t, e.get(a.sales, pathf("/public/proposals/%d/signed.pdf", id)).body)
	if !strings.Contains(text, "Certificate of refusal") || !strings.Contains(text, "Too dear <script>") {
		t.Errorf("the refusal's PDF: %s", text)
	}

	// Expiry: reopen, send with a date, let it pass.
	e.apply(a, e.load(a, id), &app.ChangeStatus{ID: id, Status: app.StatusDraft})
	d, _ = sendAs(e, a.sales, id, map[string]any{"ExpiresOn": now.UTC().Format(time.DateOnly)})
	third := *d.ClientLink.URL
	later := now.Add(48 * time.Hour)
	clock = &later
	n, err := e.s.ExpireDue(bg)
	if err != nil || n != 1 {
		t.Fatalf("ExpireDue: %d, %v", n, err)
	}
	if n, _ := e.s.ExpireDue(bg); n != 0 {
		t.Errorf("the expiry ran again: %d", n)
	}
	clock = &now // signed calls need the real time
	status, _, page = browse(t, "GET", third, nil)
	if status != 200 || !strings.Contains(page, "has expired") || strings.Contains(page, `action="/c/`) {
		t.Errorf("the expired link: %d", status)
	}
	if got := detail(t, e.get(a.sales, pathf("/public/proposals/%d", id))).Status; got != app.StatusExpired {
		t.Errorf("after expiry: %s", got)
	}
}

func TestClientPageRateLimit(t *testing.T) {
	e := newEnv(t)
	for i := range 20 {
		if status, _, _ := browse(t, "GET", e.srv.URL+"/c/1.2.AAAAAAAAAAAAAAAAAAAAAA", nil); status != 404 {
			t.Fatalf("guess %d: %d", i, status)
		}
	}
	if status, h, _ := browse(t, "GET", e.srv.URL+"/c/1.2.AAAAAAAAAAAAAAAAAAAAAA", nil); status != 429 || h.Get("Retry-After") == "" {
		t.Errorf("the 21st guess: %d", status)
	}
}

// TestClientPageWeight: a 50-item proposal's page is one HTML document
// under 100 KB that asks for one stylesheet and nothing else.
func TestClientPageWeight(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id, _ := clientFixture(t, e)
	e.update(a.acct.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		o := &p.Areas[0].Options[0]
		for i := range 50 {
			o.Items = append(o.Items, app.Item{ID: tx.NextID(), ItemType: app.ItemPart, Brand: "Sonos", Model: "Era 300",
				Name: "Speaker " + app.FormatID(int64(i)), ClientNote: "Ceiling, white grille", SellPrice: app.MustMoney("449.00"), Quantity: app.MustQuantity("2")})
		}
		return tx.PutProposal(p)
	})
	d, _ := sendAs(e, a.sales, id, nil)
	status, h, _ := browse(t, "HEAD", *d.ClientLink.URL, nil)
	if status != 200 {
		t.Fatalf("HEAD: %d", status)
	}
	status, _, page := browse(t, "GET", *d.ClientLink.URL, nil)
	if status != 200 {
		t.Fatalf("page: %d", status)
	}
	_, _, css := browse(t, "GET", e.srv.URL+"/c/page.css", nil)
	t.Logf("50 items: HTML %d bytes, CSS %d bytes (Content-Length %s on HEAD)", len(page), len(css), h.Get("Content-Length"))
	if len(page)+len(css) > 100<<10 {
		t.Errorf("page weight %d bytes, want under 100 KB", len(page)+len(css))
	}
	for _, attr := range []string{"src=", "<script", "@import", "url("} {
		if strings.Contains(page, attr) || strings.Contains(css, attr) {
			t.Errorf("the page fetches more than its stylesheet: %q", attr)
		}
	}
	if n := strings.Count(page, `rel="stylesheet"`); n != 1 {
		t.Errorf("%d stylesheets", n)
	}
	var events []app.Event
	e.get(a.sales, pathf("/public/proposals/%d/events", id)).json(t, &events)
	opens := 0
	for _, ev := range events {
		if ev.Type == app.EventOpened {
			opens++
		}
	}
	if opens != 1 {
		t.Errorf("%d opens recorded for one HEAD and one GET, want 1", opens)
	}
}
