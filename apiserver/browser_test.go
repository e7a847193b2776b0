package apiserver

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/app"
)

// chromiumPath is Debian's chromium (scripts/setup-debian.sh installs it).
const chromiumPath = "/usr/bin/chromium"

// newBrowser starts a headless chromium with a fresh profile; the test
// fails without one. js false disables script execution in the tab.
func newBrowser(t *testing.T, width, height int, mobile bool) context.Context {
	t.Helper()
	if _, err := exec.LookPath(chromiumPath); err != nil {
		t.Fatalf("chromium is needed for the client page's browser test (apt-get install chromium): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancel3)
	var vp []chromedp.EmulateViewportOption
	if mobile {
		vp = append(vp, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height), vp...)); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// screenshot keeps a full-page screenshot in PD_SCREENSHOTS (the
// documentation's screenshots are made so), else in the test's folder.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PD_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 1000 {
		t.Fatalf("screenshot %s is %d bytes", name, len(png))
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// totalText is the page's grand total as shown.
func totalText(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`table.totals tr:last-child td`)))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(s)
}

// chooseOption picks an option with the page's form and waits for the
// page that shows it chosen.
func chooseOption(t *testing.T, ctx context.Context, id int64) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`input[name="AreaOptionId"][value="`+app.FormatID(id)+`"]`)),
		chromedp.Click(chromedp.CSS(`form.choose button`)),
		chromedp.WaitVisible(chromedp.CSS(`#option-`+app.FormatID(id)+`.chosen .badge`)),
	); err != nil {
		t.Fatal(err)
	}
}

// waitFile waits for a finished download in dir.
func waitFile(t *testing.T, dir string) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".pdf") {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err == nil && len(b) > 0 && strings.HasSuffix(strings.TrimSpace(string(b[len(b)-min(len(b), 32):])), "%%EOF") {
					return b
				}
			}
		}
		time.Sleep(50 * time.Millisecond) // polling a folder: no event to wait on
	}
	t.Fatalf("no PDF was downloaded into %s", dir)
	return nil
}

// TestBrowserClientAccepts drives the client's page in chromium on a
// desktop: the items and totals, the other option of an area and the
// total following it, acceptance by keyboard alone (name, consent box,
// button, in focus order), the confirmation, the signed PDF downloaded,
// then the API's view: Accepted, options decided, events chained.
func TestBrowserClientAccepts(t *testing.T) {
	mailSrv := smtptest.Start(t, smtptest.Options{Mode: smtptest.Plain})
	e := mailEnv(t, mailSrv)
	a := e.main
	id, sent := clientFixture(t, e)
	// The client opens the link their mail brought.
	link := mailedLink(t, mailSrv.WaitCount(t, 1, 30*time.Second)[0])
	if link != sent {
		t.Fatalf("the mail carries %q, the send answered %q", link, sent)
	}
	ctx := newBrowser(t, 1280, 900, false)

	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	title, err1 := chromedp.Run(ctx, chromedp.Title())
	body, err2 := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(title, "<script>alert(1)</script> Kitchen") || !strings.Contains(body, "Big <b>amp</b>") || !strings.Contains(body, "Speaker") {
		t.Errorf("the page shows title %q and %q", title, body)
	}
	before := totalText(t, ctx)
	screenshot(t, ctx, "accepts-desktop.png")

	// The other option: the total follows.
	p := e.load(a, id)
	other := p.Areas[0].Options[1].ID
	chooseOption(t, ctx, other)
	after := totalText(t, ctx)
	chosen, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.option.chosen .optotal`)))
	if err != nil {
		t.Fatal(err)
	}
	if after == before || !strings.Contains(chosen, "900.00") {
		t.Errorf("the total went from %s to %s; the chosen option shows %q", before, after, chosen)
	}

	// Accept with the keyboard only.
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior,
		browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Focus(chromedp.CSS(`#FullName`)),
		chromedp.KeyEvent("Ann Lee"),
		chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent(" "),
		chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`.state-Accepted`)),
	); err != nil {
		t.Fatal(err)
	}
	body, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.state-Accepted`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "has been accepted") || !strings.Contains(body, "Accepted by Ann Lee") {
		t.Errorf("the confirmation says %q", body)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.state a[href$="/pdf"]`))); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, waitFile(t, dl))
	for _, want := range []string{"Certificate of acceptance", "Ann Lee", "900.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("the downloaded PDF lacks %q", want)
		}
	}

	d := detail(t, e.get(a.sales, pathf("/public/proposals/%d", id)))
	if d.Status != app.StatusAccepted || d.Areas[0].Options[1].Status != app.OptionSelected || d.Areas[0].Options[0].Status != app.OptionDeclined {
		t.Errorf("after the browser's acceptance: %s, options %s %s", d.Status, d.Areas[0].Options[0].Status, d.Areas[0].Options[1].Status)
	}
	var events []app.Event
	e.get(a.sales, pathf("/public/proposals/%d/events", id)).json(t, &events)
	if err := app.VerifyEvents(id, events); err != nil {
		t.Error(err)
	}
	if n := len(events); n == 0 || events[n-1].Type != app.EventAccepted || events[n-1].Data["signerName"] != "Ann Lee" ||
		!strings.Contains(events[n-1].UserAgent, "Chrome") {
		t.Errorf("events %+v", events)
	}
}

// TestBrowserPhoneWithoutScript: on a phone-sized viewport with script
// execution disabled, the page is complete: choose an option, decline
// with a reason.
func TestBrowserPhoneWithoutScript(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id, link := clientFixture(t, e)
	ctx := newBrowser(t, 390, 844, true)
	noScript := func(off bool) error {
		_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off})
		return err
	}
	if err := noScript(true); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#decide`)),
	); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "noscript-phone.png")
	// Nothing wider than the phone: no sideways scrolling.
	// Script stays off in the page; the test's own probe needs it for a
	// moment.
	if err := noScript(false); err != nil {
		t.Fatal(err)
	}
	width, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
	if err := errors.Join(err, noScript(true)); err != nil {
		t.Fatal(err)
	}
	if width > 390 {
		t.Errorf("the page is %d px wide on a 390 px phone", width)
	}
	p := e.load(a, id)
	other := p.Areas[0].Options[1].ID
	before := totalText(t, ctx)
	chooseOption(t, ctx, other)
	if after := totalText(t, ctx); after == before {
		t.Errorf("without script the total stayed at %s", after)
	}
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#Reason`), "Over budget"),
		chromedp.Click(chromedp.CSS(`form.decline button`)),
		chromedp.WaitVisible(chromedp.CSS(`.state-Declined`)),
	); err != nil {
		t.Fatal(err)
	}
	d := detail(t, e.get(a.sales, pathf("/public/proposals/%d", id)))
	if d.Status != app.StatusDeclined {
		t.Errorf("after declining on the phone: %s", d.Status)
	}
	r := e.get(a.sales, pathf("/public/proposals/%d/signed.pdf", id))
	if r.status != http.StatusOK || !strings.Contains(pdfText(t, r.body), "Over budget") {
		t.Errorf("the refusal's PDF: %d", r.status)
	}
}

// TestBrowserReplacedAndExpiredLinks: a link replaced by a newer send
// and one past its date say so in words in the browser, and offer no
// decision.
func TestBrowserReplacedAndExpiredLinks(t *testing.T) {
	now := time.Now()
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	e := newEnv(t, func(c *Config) { c.Now = func() time.Time { return *clock.Load() } })
	a := e.main
	id, first := clientFixture(t, e)
	d, _ := sendAs(e, a.sales, id, map[string]any{"ExpiresOn": now.UTC().Format(time.DateOnly)})
	second := *d.ClientLink.URL
	later := now.Add(48 * time.Hour)
	clock.Store(&later)
	if n, err := e.s.ExpireDue(bg); err != nil || n != 1 {
		t.Fatalf("ExpireDue: %d, %v", n, err)
	}
	clock.Store(&now)
	ctx := newBrowser(t, 1280, 900, false)
	for _, c := range []struct{ link, words string }{
		{first, "replaced by a newer one"},
		{second, "has expired"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(c.link), chromedp.WaitVisible(chromedp.CSS("main"))); err != nil {
			t.Fatal(err)
		}
		body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
		if err != nil {
			t.Fatal(err)
		}
		forms, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('form[action*="/accept"], form[action*="/decline"]').length`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body, c.words) || forms != 0 {
			t.Errorf("%s: the page says %q with %d decision forms", c.words, body, forms)
		}
	}
}

// mailedLink is the client link in a mail's text.
func mailedLink(t *testing.T, m smtptest.Message) string {
	t.Helper()
	body := strings.ReplaceAll(string(m.Data), "=\r\n", "") // quoted-printable soft breaks
	link := regexp.MustCompile(`https?://[^\s"<>]+/c/[A-Za-z0-9._=-]+`).FindString(body)
	if link == "" {
		t.Fatalf("no client link in the mail:\n%s", body)
	}
	return link
}
