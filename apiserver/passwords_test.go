package apiserver

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver/lockout"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/app"
)

// A flood of wrong passwords takes at most Config.PasswordChecks
// bcrypt checks at a time; the attempts that find no free check within
// the wait are 429 RateLimited with Retry-After in the API's error
// shape, and the server signs the user in once the flood is over.
func TestPasswordChecksAreBounded(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.PasswordChecks = 1; c.PasswordCheckWait = 50 * time.Millisecond })
	// A hash at a cost where one check takes milliseconds even without
	// the race detector, so that sixteen attempts sent at once overlap.
	const password = "the right password"
	hash, err := bcrypt.GenerateFromPassword([]byte(password), 10)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := e.st.Auth().CreateUser(bg, store.UserRecord{
		User:      app.User{Email: "busy@main.test", FirstName: "B", LastName: "U", Role: app.RoleSales, EmailVerified: true},
		AccountID: e.main.acct.ID, PasswordHash: hash,
	})
	if err != nil {
		t.Fatal(err)
	}

	const n = 16
	results := make([]tres, n)
	errs := make([]error, n)
	reqs := make([]*http.Request, n)
	for i := range n {
		// Different addresses and names, so the lockout never steps in:
		// only the bound on checks can refuse.
		reqs[i] = e.httpRequest(treq{method: "GET", path: exchangePath(rec.Email, fmt.Sprintf("wrong %d", i)),
			header: map[string]string{"X-Forwarded-For": fmt.Sprintf("10.9.%d.1", i)}})
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			resp, err := e.srv.Client().Do(reqs[i])
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			results[i], errs[i] = tres{status: resp.StatusCode, header: resp.Header, body: b}, err
		})
	}
	close(start)
	wg.Wait()

	busy := 0
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("attempt %d: %v", i, errs[i])
		}
		switch r.status {
		case http.StatusUnauthorized:
			wantError(t, r, 401, app.KindInvalidCredentials)
		case http.StatusTooManyRequests:
			busy++
			wantError(t, r, 429, app.KindRateLimited)
			if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 {
				t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
			}
		default:
			t.Fatalf("attempt %d: status %d: %s", i, r.status, r.body)
		}
	}
	if busy == 0 {
		t.Fatalf("%d wrong passwords at once were all checked; want some refused with 429", n)
	}
	t.Logf("%d of %d refused with 429", busy, n)
	// The refusals were not counted as failures: the right password works
	// at once, from the address that was refused.
	wantStatus(t, e.do(treq{method: "GET", path: exchangePath(rec.Email, password)}), 200)
}

// exchangeWithDevice signs in at addr with an optional device token and
// returns the answer and the device token it hands out.
func exchangeWithDevice(t *testing.T, e *tenv, email, password, addr, device string) (tres, string) {
	t.Helper()
	path := exchangePath(email, password)
	if device != "" {
		path += "&DeviceToken=" + url.QueryEscape(device)
	}
	var header map[string]string
	if addr != "" {
		header = map[string]string{"X-Forwarded-For": addr}
	}
	r := e.do(treq{method: "GET", path: path, header: header})
	if r.status != http.StatusOK {
		return r, ""
	}
	var body struct {
		Meta map[string]string `json:"meta"`
	}
	r.json(t, &body)
	if body.Meta["deviceToken"] == "" {
		t.Fatalf("a successful exchange without meta.deviceToken: %s", r.body)
	}
	return r, body.Meta["deviceToken"]
}

// An office behind one address: a flood of wrong sign-ins there locks
// out the address, but a user who signed in from a device before gets
// through with the device token it was given and the right password.
// The token is worth nothing for another user, and the device has an
// allowance of its own for its user's typos.
func TestDeviceTokenPassesAnAddressLockout(t *testing.T) {
	clock := &testClock{t: time.Now()}
	e := newEnv(t, func(c *Config) { c.Now = clock.Now; c.TrustForwarded = true })
	if pg, ok := e.st.(*pgstore.Store); ok {
		// On PostgreSQL the counts are kept where replicas share them.
		e.s.signins = pg.SignInCounter(lockout.Default)
	}
	const office = "198.51.100.20"
	sales, viewer := e.main.sales, e.main.viewer

	_, token := exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, "")
	// Someone at the office (or behind its NAT) tries a hundred names.
	for i := range lockout.Default.Addr.Free {
		r, _ := exchangeWithDevice(t, e, fmt.Sprintf("guess%d@x.test", i), "wrong password!", office, "")
		wantError(t, r, 401, app.KindInvalidCredentials)
	}
	// The address is locked for everyone without a device token: a user
	// new there, and the user who signed in there before but lost the
	// token.
	r, _ := exchangeWithDevice(t, e, viewer.rec.Email, testPassword, office, "")
	wantError(t, r, 429, app.KindRateLimited)
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, "")
	wantError(t, r, 429, app.KindRateLimited)

	// With the token and the right password: in, and a fresh token.
	r, token2 := exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, token)
	wantStatus(t, r, 200)
	if token2 == token {
		t.Fatal("the same device token twice; want a fresh one per sign-in")
	}
	// The old token still counts until it expires (a second window
	// signing in at the same moment must not lose).
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, token)
	wantStatus(t, r, 200)

	// Another user cannot use it, in any spelling of the name.
	r, _ = exchangeWithDevice(t, e, viewer.rec.Email, testPassword, office, token2)
	wantError(t, r, 429, app.KindRateLimited)
	// A token altered by one character is no token.
	forged := []byte(token2)
	if forged[20] = 'A'; token2[20] == 'A' {
		forged[20] = 'B'
	}
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, string(forged))
	wantError(t, r, 429, app.KindRateLimited)

	// The device's own wrong passwords: its allowance, then it waits.
	for range lockout.Default.Device.Free {
		r, _ := exchangeWithDevice(t, e, sales.rec.Email, "wrong password!", office, token2)
		wantError(t, r, 401, app.KindInvalidCredentials)
	}
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, token2)
	b := wantError(t, r, 429, app.KindRateLimited)
	if r.header.Get("Retry-After") == "" {
		t.Fatalf("no Retry-After: %s", r.body)
	}
	t.Logf("device waits: %s", b.Message)
	clock.advance(2 * time.Second)
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, office, token2)
	wantStatus(t, r, 200)
}

// While strangers' sign-ins hold every shared password check, a user
// signing in from a device that signed in before still gets one.
func TestTrustedDevicesHaveTheirOwnPasswordChecks(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.PasswordChecks = 1; c.PasswordCheckWait = 50 * time.Millisecond })
	sales := e.main.sales
	_, token := exchangeWithDevice(t, e, sales.rec.Email, testPassword, "", "")
	// A flood's checks, standing still: the one shared slot is taken.
	e.s.passwordSlots <- struct{}{}
	t.Cleanup(func() { <-e.s.passwordSlots })

	r, _ := exchangeWithDevice(t, e, sales.rec.Email, testPassword, "", "")
	wantError(t, r, 429, app.KindRateLimited)
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	r, _ = exchangeWithDevice(t, e, sales.rec.Email, testPassword, "", token)
	wantStatus(t, r, 200)
}
