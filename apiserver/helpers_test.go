package apiserver

// The one test helper file: a fixture built through the store and
// app.Apply, a real server on loopback, and a small signed client that
// signs with app/signing.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/signing"
)

var bg = context.Background()

// testPassword is every fixture user's password; its bcrypt hash is
// computed once per test binary.
const testPassword = "correct horse battery"

var (
	pwOnce sync.Once
	pwHash []byte
)

func passwordHash(t testing.TB) []byte {
	pwOnce.Do(func() {
		// The minimum cost keeps tests quick (bcrypt at the real cost takes
		// seconds under the race detector); checking works at any cost.
		h, err := bcrypt.GenerateFromPassword([]byte(testPassword), bcrypt.MinCost)
		if err != nil {
			panic(err)
		}
		pwHash = h
	})
	return pwHash
}

// tuser is a fixture user with an API key.
type tuser struct {
	rec store.UserRecord
	key string
}

// tacct is a fixture account.
type tacct struct {
	acct       store.Account
	admin      *tuser
	sales      *tuser
	viewer     *tuser
	unverified *tuser
	noRole     *tuser
	// contact has one primary location (loc) and another (loc2);
	// bare has no location.
	contact, bare int64
	loc, loc2     int64
	// item is the draft's speaker.
	item int64
	// draft is a Draft proposal with an area "Kitchen" (one option,
	// holding an item with a cost); locked is Accepted with two change
	// orders.
	draft, locked int64
	area, option  int64
	changeOrder   int64
	// catalogItem is one of the account's catalog items (a Sonos Amp with
	// a cost).
	catalogItem           int64
	lockedArea, lockedOpt int64
}

// tenv is a running server over a fresh store.
type tenv struct {
	t      testing.TB
	st     store.Store
	s      *Server
	srv    *httptest.Server
	logs   *syncBuffer
	app    store.App
	app2   store.App
	main   *tacct
	other  *tacct
	lapsed *tacct
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newEnv builds the fixture and starts the server; cfg edits the config.
func newEnv(t testing.TB, cfg ...func(*Config)) *tenv {
	t.Helper()
	return newEnvOn(t, openStore(t), cfg...)
}

// newEnvOn is newEnv over st.
func newEnvOn(t testing.TB, st store.Store, cfg ...func(*Config)) *tenv {
	t.Helper()
	e := &tenv{t: t, st: st, logs: &syncBuffer{}}
	now := time.Now()
	for _, a := range []*store.App{&e.app, &e.app2} {
		var err error
		*a, err = auth.NewApp("test", now)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Auth().CreateApp(bg, *a); err != nil {
			t.Fatal(err)
		}
	}
	e.main = e.account("Main", now.Add(365*24*time.Hour))
	e.other = e.account("Other", now.Add(365*24*time.Hour))
	e.lapsed = e.account("Lapsed", now.Add(-24*time.Hour))

	c := Config{Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, f := range cfg {
		f(&c)
	}
	e.s = New(c, st)
	// Unknown users are compared against a cheap hash too.
	e.s.dummyOnce.Do(func() { e.s.dummyHash = passwordHash(t) })
	e.srv = httptest.NewServer(e.s)
	t.Cleanup(e.srv.Close)
	return e
}

func (e *tenv) account(name string, expiry time.Time) *tacct {
	t := e.t
	t.Helper()
	acct, err := e.st.Auth().CreateAccount(bg, store.Account{
		Name: name, SubscriptionExpiry: expiry, Currency: app.USD,
		Dealer: app.DealerProfile{CompanyName: name + " AV"},
	})
	if err != nil {
		t.Fatal(err)
	}
	a := &tacct{acct: acct}
	slug := strings.ToLower(name)
	a.admin = e.user(acct.ID, "admin@"+slug+".test", app.RoleAdmin, true)
	a.sales = e.user(acct.ID, "Sales@"+slug+".test", app.RoleSales, true)
	a.viewer = e.user(acct.ID, "viewer@"+slug+".test", app.RoleViewer, true)
	a.unverified = e.user(acct.ID, "new@"+slug+".test", app.RoleSales, false)
	a.noRole = e.user(acct.ID, "norole@"+slug+".test", "", true)

	e.update(acct.ID, func(tx store.Tx) error {
		c := app.Contact{ID: tx.NextID(), PartyType: app.PartyPerson, ContactType: app.ContactClient,
			FirstName: "Ann", LastName: "Lee", ContactEmail: "ann@" + slug + ".test"}
		bare := app.Contact{ID: tx.NextID(), PartyType: app.PartyCompany, ContactType: app.ContactClient,
			FirstName: "Bo", CompanyName: "Bare Co"}
		for _, ct := range []app.Contact{c, bare} {
			if err := tx.PutContact(ct); err != nil {
				return err
			}
		}
		l1 := app.ContactLocation{Location: app.Location{ID: tx.NextID(), Street: "1 Main St", City: "Austin", State: "TX"}, ContactID: c.ID, IsPrimary: true}
		l2 := app.ContactLocation{Location: app.Location{ID: tx.NextID(), Street: "9 Side St", City: "Portland", State: "OR"}, ContactID: c.ID}
		for _, l := range []app.ContactLocation{l1, l2} {
			if err := tx.PutLocation(l); err != nil {
				return err
			}
		}
		a.contact, a.bare, a.loc, a.loc2 = c.ID, bare.ID, l1.ID, l2.ID
		return nil
	})

	d := e.proposal(a, "Draft job")
	d = e.apply(a, d, &app.CreateArea{ID: d.ID, Name: "Kitchen"})
	a.draft, a.area, a.option = d.ID, d.Areas[0].ID, d.Areas[0].Options[0].ID
	cost := app.MustMoney("40.00")
	e.update(acct.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(a.draft)
		if err != nil {
			return err
		}
		a.item = tx.NextID()
		p.Areas[0].Options[0].Items = []app.Item{{ID: a.item, ItemType: app.ItemPart, Name: "Speaker",
			SellPrice: app.MustMoney("100.00"), Cost: &cost, Quantity: app.MustQuantity("2")}}
		return tx.PutProposal(p)
	})

	l := e.proposal(a, "Locked job")
	l = e.apply(a, l, &app.CreateArea{ID: l.ID, Name: "Den"})
	l = e.apply(a, l, &app.AssignContact{ID: l.ID, ContactID: a.contact})
	l = e.apply(a, l, &app.ChangeStatus{ID: l.ID, Status: app.StatusSubmitted})
	l = e.apply(a, l, &app.ChangeStatus{ID: l.ID, Status: app.StatusAccepted})
	a.locked, a.lockedArea, a.lockedOpt = l.ID, l.Areas[0].ID, l.Areas[0].Options[0].ID
	e.update(acct.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(a.locked)
		if err != nil {
			return err
		}
		for i := 1; i <= 2; i++ {
			co := app.ChangeOrder{Document: p.Clone().Document}
			co.ID, co.Number, co.Name = tx.NextID(), int64(i), fmt.Sprintf("Change %d", i)
			co.Status = app.StatusDraft
			p.ChangeOrders = append(p.ChangeOrders, co)
		}
		a.changeOrder = p.ChangeOrders[0].ID
		return tx.PutProposal(p)
	})
	a.catalogItem = e.importCatalog(a, testCatalog)[0]
	return a
}

// user creates a user with the test password and one API key for e.app.
func (e *tenv) user(accountID int64, email string, role app.Role, verified bool) *tuser {
	e.t.Helper()
	rec, err := e.st.Auth().CreateUser(bg, store.UserRecord{
		User:         app.User{Email: email, FirstName: "F" + string(role), LastName: "L", Role: role, EmailVerified: verified},
		AccountID:    accountID,
		PasswordHash: passwordHash(e.t),
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return &tuser{rec: rec, key: e.newKey(rec, e.app.ID)}
}

// newKey stores a new API key for the user.
func (e *tenv) newKey(u store.UserRecord, appID string) string {
	v, h, err := auth.NewAPIKey()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.Auth().PutKey(bg, store.APIKey{Hash: h, UserID: u.ID, AccountID: u.AccountID, AppID: appID, CreatedAt: time.Now()}); err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *tenv) update(accountID int64, fn func(tx store.Tx) error) {
	e.t.Helper()
	if err := e.st.Update(bg, accountID, fn); err != nil {
		e.t.Fatal(err)
	}
}

// apply runs a mutation as the account's admin, through the server's own
// write path.
func (e *tenv) apply(a *tacct, p *app.Proposal, m app.Mutation) *app.Proposal {
	e.t.Helper()
	var next *app.Proposal
	e.update(a.acct.ID, func(tx store.Tx) (err error) {
		next, err = ApplyEdit(tx, a.admin.rec.User, time.Now(), m, nil)
		return err
	})
	return next
}

// proposal creates a Draft proposal with the admin as salesperson.
func (e *tenv) proposal(a *tacct, name string) *app.Proposal {
	return e.apply(a, nil, &app.CreateProposal{SalesPersonID: a.admin.rec.ID, Name: &name})
}

// load reads a proposal straight from the store.
func (e *tenv) load(a *tacct, id int64) *app.Proposal {
	e.t.Helper()
	var p *app.Proposal
	if err := e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		var err error
		p, err = tx.Proposal(id)
		return err
	}); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// pieces are what a signature covers; a test may sign different pieces
// from those it sends.
type pieces struct {
	Method, URL, ContentType, Timestamp, UserKey, AppID, Secret string
}

// treq is one test request.
type treq struct {
	method, path string // path with query
	body         string
	ct           string
	header       map[string]string
	as           *tuser // nil: sign with an empty user key
	skew         time.Duration
	sign         func(p *pieces)     // edits what is signed only
	edit         func(h http.Header) // edits the sent headers after signing
	unsigned     bool                // send no signing headers
}

// tres is a response.
type tres struct {
	status int
	header http.Header
	body   []byte
}

func (r tres) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// errBody decodes an error response, checking that every field of the
// spec's error shape is present.
func (r tres) errBody(t testing.TB) ErrorBody {
	t.Helper()
	checkErrorShape(t, r.body)
	var b ErrorBody
	r.json(t, &b)
	return b
}

var errorFields = []string{"errorCode", "stackTrace", "contentType", "message", "helpLink", "source",
	"status", "statusCode", "statusDescription", "hResult", "headers", "options", "cookies", "response",
	"responseFilter", "requestContext", "resultScope", "targetSite", "data", "innerException",
	"paddingLength", "responseStatus"}

var responseStatusFields = []string{"errorCode", "message", "stackTrace", "errors", "meta"}

func checkErrorShape(t testing.TB, body []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("error body is not a JSON object: %s", body)
	}
	for _, f := range errorFields {
		if _, ok := m[f]; !ok {
			t.Errorf("error body lacks %q: %s", f, body)
		}
	}
	if len(m) != len(errorFields) {
		t.Errorf("error body has %d fields, want %d: %s", len(m), len(errorFields), body)
	}
	var rs map[string]json.RawMessage
	if err := json.Unmarshal(m["responseStatus"], &rs); err != nil {
		t.Fatalf("responseStatus: %v", err)
	}
	for _, f := range responseStatusFields {
		if _, ok := rs[f]; !ok {
			t.Errorf("responseStatus lacks %q: %s", f, body)
		}
	}
	if string(m["stackTrace"]) != `""` {
		t.Errorf("stackTrace = %s", m["stackTrace"])
	}
}

// httpRequest builds the signed request.
func (e *tenv) httpRequest(r treq) *http.Request {
	e.t.Helper()
	url := e.srv.URL + r.path
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, url, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if r.ct != "" {
		req.Header.Set("Content-Type", r.ct)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	if !r.unsigned {
		key := ""
		if r.as != nil {
			key = r.as.key
		}
		p := pieces{Method: r.method, URL: url, ContentType: r.ct,
			Timestamp: signing.FormatDate(time.Now().Add(r.skew)), UserKey: key,
			AppID: e.app.ID, Secret: e.app.Secret}
		sent := p
		if r.sign != nil {
			r.sign(&p)
		}
		req.Header.Set(signing.HeaderAppID, sent.AppID)
		req.Header.Set(signing.HeaderDate, sent.Timestamp)
		req.Header.Set(signing.HeaderUserKey, sent.UserKey)
		req.Header.Set(signing.HeaderSignature,
			signing.Sign(p.Secret, signing.Message(p.Method, p.URL, p.ContentType, p.Timestamp, p.UserKey)))
	}
	if r.edit != nil {
		r.edit(req.Header)
	}
	return req
}

// do sends a request to the real server.
func (e *tenv) do(r treq) tres {
	e.t.Helper()
	resp, err := e.srv.Client().Do(e.httpRequest(r))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if resp.Header.Get("Date") == "" {
		e.t.Errorf("%s %s: no Date header", r.method, r.path)
	}
	return tres{status: resp.StatusCode, header: resp.Header, body: b}
}

// get and post are signed calls as u.
func (e *tenv) get(u *tuser, path string) tres {
	e.t.Helper()
	return e.do(treq{method: "GET", path: path, as: u})
}

func (e *tenv) postJSON(u *tuser, path string, body any) tres {
	e.t.Helper()
	var s string
	switch b := body.(type) {
	case string:
		s = b
	case nil:
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		s = string(j)
	}
	ct := "application/json"
	if s == "" {
		ct = ""
	}
	return e.do(treq{method: "POST", path: path, body: s, ct: ct, as: u})
}

func (e *tenv) postForm(u *tuser, path, form string) tres {
	e.t.Helper()
	return e.do(treq{method: "POST", path: path, body: form, ct: "application/x-www-form-urlencoded", as: u})
}

// wantError checks an error response's status and errorCode.
func wantError(t testing.TB, r tres, status int, code app.Kind) ErrorBody {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d (%s): %s", r.status, status, code, r.body)
	}
	b := r.errBody(t)
	if b.ErrorCode != string(code) || b.ResponseStatus.ErrorCode != string(code) {
		t.Fatalf("errorCode %q / %q, want %s: %s", b.ErrorCode, b.ResponseStatus.ErrorCode, code, r.body)
	}
	if b.Status != status || b.StatusCode == "" || b.StatusDescription == "" || b.Message == "" {
		t.Fatalf("error body lacks values: %s", r.body)
	}
	return b
}

func wantStatus(t testing.TB, r tres, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}

// detail decodes a proposal detail.
func detail(t testing.TB, r tres) app.ProposalDetail {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	var d app.ProposalDetail
	r.json(t, &d)
	return d
}

func pathf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
