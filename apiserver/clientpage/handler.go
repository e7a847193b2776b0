package clientpage

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/report"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS []byte

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// Config is what the page needs of the server.
type Config struct {
	Store  store.Store
	Now    func() time.Time
	Logger *slog.Logger
	// ClientAddr is the client's address as the server counts it
	// (behind a trusted proxy, the forwarded one).
	ClientAddr func(*http.Request) string
	// Limit bounds requests per address (default DefaultLimit).
	Limit Limit
}

// Register adds the page's routes to mux.
func Register(mux *http.ServeMux, cfg Config) {
	if cfg.Limit.Requests == 0 {
		cfg.Limit = DefaultLimit
	}
	h := &handler{cfg: cfg, limit: newLimiter(cfg.Limit)}
	mux.HandleFunc("GET "+PathPrefix+"page.css", h.css)
	mux.HandleFunc("GET "+PathPrefix+"{token}", h.wrap(h.show))
	mux.HandleFunc("POST "+PathPrefix+"{token}/choose", h.wrap(h.choose))
	mux.HandleFunc("POST "+PathPrefix+"{token}/accept", h.wrap(h.accept))
	mux.HandleFunc("POST "+PathPrefix+"{token}/decline", h.wrap(h.decline))
	mux.HandleFunc("GET "+PathPrefix+"{token}/pdf", h.wrap(h.pdf))
}

type handler struct {
	cfg   Config
	limit *limiter
}

// securityHeaders go on every answer of the page: no script at all, only
// our own stylesheet, no framing, no referrer, and nothing kept by
// shared caches (a decided page must not be served to anyone else).
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store, private")
}

func (h *handler) css(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Write(pageCSS)
}

// visit is one request to a link, resolved in its account's transaction.
type visit struct {
	w     http.ResponseWriter
	r     *http.Request
	token string
	who   Requester
	now   time.Time
}

// errNoLink answers a token that opens nothing; the page says so and
// the attempt counts against the address.
var errNoLink = errors.New("no such link")

func (h *handler) wrap(fn func(v *visit) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header())
		addr := h.cfg.ClientAddr(r)
		now := h.cfg.Now()
		if !h.limit.allow(addr, now) {
			w.Header().Set("Retry-After", "60")
			h.words(w, http.StatusTooManyRequests, "Too many requests", "Too many requests came from your address. Please wait a minute and try again.")
			return
		}
		v := &visit{w: w, r: r, token: r.PathValue("token"), now: now,
			who: Requester{IP: addr, UserAgent: truncate(r.UserAgent(), 512), Actor: app.ActorClient}}
		err := fn(v)
		switch {
		case err == nil:
		case errors.Is(err, errNoLink), app.KindOf(err) == app.KindNotFound:
			h.limit.fail(addr, now)
			h.words(w, http.StatusNotFound, "Link not found", "This link is not valid. Please check that you copied the whole link from the message you received.")
		default:
			h.cfg.Logger.Error("client page", "path", r.URL.Path, "err", err)
			h.words(w, http.StatusInternalServerError, "Something went wrong", "The page could not be shown just now. Please try again in a moment.")
		}
	}
}

// words answers with a page of one heading and one sentence.
func (h *handler) words(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	wordsTmpl.Execute(w, struct{ Title, Text string }{title, text})
}

var wordsTmpl = template.Must(template.New("words").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title><link rel="stylesheet" href="/c/page.css"></head>
<body><main><h1>{{.Title}}</h1><p>{{.Text}}</p></main></body></html>
`))

// link is a resolved link: the proposal, which link the token is, and
// what it can do now.
type link struct {
	p      *app.Proposal
	linkID string
	state  app.LinkState
}

// resolve finds what the token opens in tx: the current link, or one a
// later send replaced (its hash is in the LinkReplaced event).
func resolve(tx store.Tx, token string, now time.Time) (link, error) {
	_, pid, _ := parseToken(token)
	p, err := tx.Proposal(pid)
	if err != nil {
		return link{}, err
	}
	hash := TokenHash(token)
	if l := p.ClientLink; l != nil && sameHash(l.TokenHash, hash) {
		return link{p: p, linkID: l.ID, state: app.StateOfLink(p, l.ID, now)}, nil
	}
	events, err := tx.ClientEvents(pid)
	if err != nil {
		return link{}, err
	}
	for _, e := range events {
		if e.Type == app.EventLinkReplaced && sameHash(e.Data["tokenHash"], hash) {
			return link{p: p, linkID: e.Data["linkId"], state: app.LinkReplaced}, nil
		}
	}
	return link{}, errNoLink
}

// update runs fn on the token's link in its account's write
// transaction.
func (h *handler) update(v *visit, fn func(tx store.Tx, l link) error) error {
	acct, _, ok := parseToken(v.token)
	if !ok {
		return errNoLink
	}
	return h.cfg.Store.Update(v.r.Context(), acct, func(tx store.Tx) error {
		l, err := resolve(tx, v.token, v.now)
		if err != nil {
			return err
		}
		return fn(tx, l)
	})
}

// settleExpiry expires an undecided link whose date has passed, in the
// same transaction as the visit that found it (the scheduler may not
// have run yet).
func settleExpiry(tx store.Tx, l *link, now time.Time) error {
	if l.state != app.LinkExpired || !app.ExpiryDue(l.p, now) {
		return nil
	}
	return Expire(tx, l.p, now)
}

// Expire moves p to Expired at now, records it and drops its expiry.
func Expire(tx store.Tx, p *app.Proposal, now time.Time) error {
	p.Status = app.StatusExpired
	p.LastModifiedDate = app.At(now)
	if err := tx.PutProposal(p); err != nil {
		return err
	}
	if _, err := Record(tx, p, app.EventExpired, Requester{Actor: app.ActorSystem}, now, nil); err != nil {
		return err
	}
	return tx.SetClientExpiry(p.ID, time.Time{})
}

// snapshotOf reads the frozen snapshot the link shows. A snapshot never
// changes, so it is decoded once and kept by its hash (and proposal, so
// one proposal's link never reaches another's snapshot); callers must
// not change it (app.WithChoices copies).
func snapshotOf(tx store.Tx, p *app.Proposal) (*app.Proposal, error) {
	key := snapKey{p.ID, p.ClientLink.SnapshotHash}
	if snap, ok := snapshots.get(key); ok {
		return snap, nil
	}
	doc, err := tx.ClientSnapshot(p.ID, p.ClientLink.SnapshotHash)
	if err != nil {
		return nil, err
	}
	snap, err := app.ReadClientSnapshot(doc, p.ClientLink.SnapshotHash)
	if err == nil {
		snapshots.put(key, snap)
	}
	return snap, err
}

type snapKey struct {
	proposal int64
	hash     string
}

// snapshots holds decoded snapshots; sends are rare next to views, so
// after a start over the live ones come back at once.
var snapshots = &memo[snapKey, *app.Proposal]{max: 512}

// GET /c/{token}: the page. A client's open of the current link is
// recorded (ViewedByClient on the first, clientLastOpenedDate on each).
func (h *handler) show(v *visit) error {
	return h.render(v, http.StatusOK, "", "", "")
}

// render shows the page, recording the open; errText, name and reason
// refill a refused form.
func (h *handler) render(v *visit, status int, errText, name, reason string) error {
	var pg page
	var body bytes.Buffer
	// A page shown again with a refused form's words is not an open,
	// nor is a HEAD (link previews and mail scanners send them).
	opening := status == http.StatusOK && v.r.Method != http.MethodHead
	acct, _, valid := parseToken(v.token)
	if !valid {
		return errNoLink
	}
	// Most views write nothing (an open shortly after the last one is
	// not recorded again): they are served from a read transaction, and
	// only a view that records or expires takes the write path.
	write := false
	// A plain view's page depends only on the proposal's version, the
	// link and its state: kept rendered, as the API keeps details.
	plain := status == http.StatusOK && errText == "" && name == "" && reason == ""
	var key pageKey
	var cached []byte
	var ok bool
	err := h.cfg.Store.View(v.r.Context(), acct, func(tx store.Tx) error {
		l, err := resolve(tx, v.token, v.now)
		if err != nil {
			return err
		}
		if l.state != app.LinkReplaced && (app.ExpiryDue(l.p, v.now) || opening && app.OpenToRecord(l.p, v.now)) {
			write = true
			return nil
		}
		if plain {
			key = pageKey{l.p.ID, l.p.Version, v.token, l.state}
			if cached, ok = pages.get(key); ok {
				return nil
			}
		}
		pg, err = pageOf(tx, l)
		return err
	})
	if err == nil && ok {
		writePage(v.w, status, cached)
		return nil
	}
	if err == nil && write {
		err = h.update(v, func(tx store.Tx, l link) error {
			if err := settleExpiry(tx, &l, v.now); err != nil {
				return err
			}
			if opening && l.state != app.LinkReplaced && app.OpenToRecord(l.p, v.now) {
				first := app.ClientOpened(l.p, v.now)
				l.p.LastModifiedDate = app.At(v.now)
				if err := tx.PutProposal(l.p); err != nil {
					return err
				}
				data := map[string]string{}
				if first {
					data["first"] = "true"
				}
				if _, err := Record(tx, l.p, app.EventOpened, v.who, v.now, data); err != nil {
					return err
				}
			}
			var err error
			pg, err = pageOf(tx, l)
			return err
		})
	}
	if err != nil {
		return err
	}
	pg.Token, pg.Error, pg.FullName, pg.Reason = v.token, errText, name, reason
	pg.Title = pg.Name + " — " + pg.Dealer
	if err := pageTmpl.Execute(&body, pg); err != nil {
		return fmt.Errorf("render the client page: %w", err)
	}
	if plain && key.token != "" && !write {
		pages.put(key, body.Bytes())
	}
	writePage(v.w, status, body.Bytes())
	return nil
}

func writePage(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// pageKey is what a rendered page depends on.
type pageKey struct {
	proposal, version int64
	token             string
	state             app.LinkState
}

// memo keeps recent values; when full it starts over.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func (c *memo[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// pages are rendered pages (about 15 KB each).
var pages = &memo[pageKey, []byte]{max: 1024}

// pageOf lays out what the link shows: the snapshot with the client's
// picks, or the decision with the picks decided on.
func pageOf(tx store.Tx, l link) (page, error) {
	if l.state == app.LinkReplaced {
		return page{State: l.state, StateWords: stateWords(l.state), Dealer: l.p.Dealer.CompanyName, Name: l.p.Name, Number: app.FormatID(l.p.Number)}, nil
	}
	snap, err := snapshotOf(tx, l.p)
	if err != nil {
		return page{}, err
	}
	var pg page
	if l.state == app.LinkAccepted || l.state == app.LinkDeclined {
		d, found, err := FindDecision(tx, l.p)
		if err != nil {
			return page{}, err
		}
		if found {
			pg = buildPage(snap, decodeChoices(d.Event.Data["choices"]), l.p.ClientLink)
			pg.Decided, pg.Decision = true, decisionWords(d)
		}
	}
	if !pg.Decided {
		pg = buildPage(snap, l.p.ClientLink.Choices, l.p.ClientLink)
	}
	pg.State, pg.StateWords, pg.Open = l.state, stateWords(l.state), l.state == app.LinkOpen
	return pg, nil
}

func decisionWords(d Decision) string {
	at := d.Event.At.UTC().Format("January 2, 2006 at 15:04 UTC")
	if d.Cert.Decision == "Declined" {
		return "Declined on " + at + "."
	}
	return "Accepted by " + d.Cert.Signer + " on " + at + "."
}

// form reads a form post (at most 64 KB); names match in any case.
func form(r *http.Request) (url.Values, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 64<<10+1))
	if err != nil {
		return nil, err
	}
	if len(b) > 64<<10 {
		return nil, app.Invalid("body", "is too large")
	}
	raw, err := url.ParseQuery(string(b))
	if err != nil {
		return nil, app.Invalid("body", "is not a form")
	}
	out := url.Values{}
	for k, vs := range raw {
		out[strings.ToLower(k)] = vs
	}
	return out, nil
}

// POST /c/{token}/choose: the client picks an option of an area.
func (h *handler) choose(v *visit) error {
	f, err := form(v.r)
	if err != nil {
		return h.render(v, http.StatusBadRequest, "The choice could not be read. Please try again.", "", "")
	}
	areaID, _ := strconv.ParseInt(f.Get("areaid"), 10, 64)
	optID, _ := strconv.ParseInt(f.Get("areaoptionid"), 10, 64)
	var refusal string
	err = h.update(v, func(tx store.Tx, l link) error {
		if err := settleExpiry(tx, &l, v.now); err != nil {
			return err
		}
		if l.state != app.LinkOpen {
			refusal = stateWords(l.state)
			return nil
		}
		snap, err := snapshotOf(tx, l.p)
		if err != nil {
			return err
		}
		if err := app.CheckChoice(snap, areaID, optID); err != nil {
			refusal = "That option is not offered here. Please choose one of the options shown."
			return nil
		}
		if l.p.ClientLink.Choices == nil {
			l.p.ClientLink.Choices = map[int64]int64{}
		}
		l.p.ClientLink.Choices[areaID] = optID
		l.p.LastModifiedDate = app.At(v.now)
		if err := tx.PutProposal(l.p); err != nil {
			return err
		}
		_, err = Record(tx, l.p, app.EventOptionChosen, v.who, v.now, map[string]string{
			"areaId": app.FormatID(areaID), "areaOptionId": app.FormatID(optID)})
		return err
	})
	if err != nil {
		return err
	}
	if refusal != "" {
		return h.render(v, http.StatusConflict, refusal, "", "")
	}
	http.Redirect(v.w, v.r, PathPrefix+v.token+"#area-"+app.FormatID(areaID), http.StatusSeeOther)
	return nil
}

// POST /c/{token}/accept: FullName and Consent.
func (h *handler) accept(v *visit) error {
	f, err := form(v.r)
	if err != nil {
		return h.render(v, http.StatusBadRequest, "The form could not be read. Please try again.", "", "")
	}
	name := strings.TrimSpace(f.Get("fullname"))
	consent := f.Get("consent")
	switch {
	case name == "":
		return h.render(v, http.StatusBadRequest, "Please type your full name to sign.", "", "")
	case utf8.RuneCountInString(name) > app.MaxNameLength:
		return h.render(v, http.StatusBadRequest, "The name is too long.", "", "")
	case consent == "" || strings.EqualFold(consent, "false"):
		return h.render(v, http.StatusBadRequest, "Please tick the box to agree to do business electronically.", name, "")
	}
	return h.decide(v, func(tx store.Tx, l link, snap *app.Proposal) (app.EventType, map[string]string) {
		choices := l.p.ClientLink.Choices
		app.ClientAccepted(l.p, snap, choices, v.now)
		// The choices decided on, each area's counted option included.
		all := map[int64]int64{}
		for _, a := range app.WithChoices(snap, choices).Areas {
			if o := app.CountedOption(&a); o != nil {
				all[a.ID] = o.ID
			}
		}
		return app.EventAccepted, map[string]string{"signerName": name, "consentText": app.ConsentText,
			"consentVersion": app.ConsentVersion, "choices": EncodeChoices(all)}
	})
}

// POST /c/{token}/decline: an optional Reason.
func (h *handler) decline(v *visit) error {
	f, err := form(v.r)
	if err != nil {
		return h.render(v, http.StatusBadRequest, "The form could not be read. Please try again.", "", "")
	}
	reason := strings.TrimSpace(f.Get("reason"))
	if utf8.RuneCountInString(reason) > app.MaxSendMessage {
		return h.render(v, http.StatusBadRequest, "The reason is too long; please shorten it.", "", reason)
	}
	return h.decide(v, func(tx store.Tx, l link, snap *app.Proposal) (app.EventType, map[string]string) {
		app.ClientDeclined(l.p, v.now)
		return app.EventDeclined, map[string]string{"reason": reason, "choices": EncodeChoices(l.p.ClientLink.Choices)}
	})
}

// decide records a decision on an open link; a link that cannot decide
// says why and changes nothing.
func (h *handler) decide(v *visit, apply func(tx store.Tx, l link, snap *app.Proposal) (app.EventType, map[string]string)) error {
	var refusal string
	err := h.update(v, func(tx store.Tx, l link) error {
		refusal = ""
		if err := settleExpiry(tx, &l, v.now); err != nil {
			return err
		}
		if l.state != app.LinkOpen {
			refusal = stateWords(l.state) + " Nothing was changed."
			return nil
		}
		snap, err := snapshotOf(tx, l.p)
		if err != nil {
			return err
		}
		typ, data := apply(tx, l, snap)
		l.p.LastModifiedDate = app.At(v.now)
		if err := tx.PutProposal(l.p); err != nil {
			return err
		}
		if err := tx.SetClientExpiry(l.p.ID, time.Time{}); err != nil {
			return err
		}
		_, err = Record(tx, l.p, typ, v.who, v.now, data)
		return err
	})
	if err != nil {
		return err
	}
	if refusal != "" {
		return h.render(v, http.StatusConflict, refusal, "", "")
	}
	http.Redirect(v.w, v.r, PathPrefix+v.token, http.StatusSeeOther)
	return nil
}

// GET /c/{token}/pdf: the client PDF of the snapshot with the client's
// choices, signed (with the certificate page) after a decision.
func (h *handler) pdf(v *visit) error {
	acct, _, ok := parseToken(v.token)
	if !ok {
		return errNoLink
	}
	var out []byte
	var number int64
	var decided bool
	var d Decision
	var doc report.Document
	err := h.cfg.Store.View(v.r.Context(), acct, func(tx store.Tx) error {
		l, err := resolve(tx, v.token, v.now)
		if err != nil {
			return err
		}
		if l.state == app.LinkReplaced {
			return errNoLink
		}
		number = l.p.Number
		if d, decided, err = FindDecision(tx, l.p); err != nil || decided {
			return err
		}
		snap, err := snapshotOf(tx, l.p)
		if err != nil {
			return err
		}
		view := app.DetailView(app.WithChoices(snap, l.p.ClientLink.Choices), app.ViewOptions{})
		doc = report.FromProposal(&view)
		return nil
	})
	if err != nil {
		return err
	}
	name := "proposal-" + app.FormatID(number) + ".pdf"
	if decided {
		out, err = d.PDF()
		name = "proposal-" + app.FormatID(number) + "-signed.pdf"
	} else {
		var buf bytes.Buffer
		err = report.Client(&buf, &doc, report.Options{})
		out = buf.Bytes()
	}
	if err != nil {
		return err
	}
	hd := v.w.Header()
	hd.Set("Content-Type", "application/pdf")
	hd.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	hd.Set("Content-Length", strconv.Itoa(len(out)))
	v.w.WriteHeader(http.StatusOK)
	v.w.Write(out)
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
