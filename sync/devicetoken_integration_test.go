package syncer

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/apitest"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// An office behind one address: someone there fails to sign in more
// than a hundred times, which locks the address. The desktop that signed
// in from there before keeps the server's device token in the keyring
// (the real one under scripts/test.sh) and gets through with it, in the
// next session too and after signing out; a desktop without one waits.
func TestDeviceTokenInTheKeyringPassesAnOfficeLockout(t *testing.T) {
	present := secretServicePresent(t)
	if os.Getenv("PD_REQUIRE_KEYRING") == "1" && !present {
		t.Fatal("PD_REQUIRE_KEYRING=1 but no working Secret Service answers on this D-Bus session")
	}
	// Its own server, as the test locks out the loopback address; its
	// clock stands still, so the lockout's waits last as long as the
	// test needs them to.
	frozen := time.Now()
	srv, err := apitest.StartWith(func(c *apiserver.Config) { c.Now = func() time.Time { return frozen } })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx := context.Background()
	conn := Connection{BaseURL: srv.URL, AppID: srv.AppID, AppSecret: srv.AppSecret}
	newClient := func() *Client {
		t.Helper()
		// One attempt: the client would otherwise wait out a 429.
		c, err := NewClient(conn, WithMaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	sales, viewer := srv.Users[app.RoleSales], srv.Users[app.RoleViewer]
	t.Cleanup(func() { _ = keyring.Delete(KeyringService, deviceEntry(srv.URL, sales.Email)) })

	keys := NewKeyring(WithKeyringTimeout(5 * time.Second))
	if _, err := newClient().SignIn(ctx, keys, srv.URL, sales.Email, sales.Password); err != nil {
		t.Fatal(err)
	}
	if present {
		if tok, err := keyring.Get(KeyringService, deviceEntry(srv.URL, sales.Email)); err != nil || tok == "" {
			t.Fatalf("the OS keyring holds no device token: %q, %v", tok, err)
		}
	}
	if err := keys.Delete(srv.URL, sales.Email); err != nil { // signing out keeps the device token
		t.Fatal(err)
	}

	// Colleagues' typos from the same address: twenty users with five
	// wrong passwords each (each user's own allowance) use up the
	// address's allowance of a hundred.
	hash, err := bcrypt.GenerateFromPassword([]byte("a colleague's password"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		rec, err := srv.Store.Auth().CreateUser(ctx, store.UserRecord{
			User:      app.User{Email: fmt.Sprintf("colleague%d@main.test", i), Role: app.RoleSales, EmailVerified: true},
			AccountID: srv.AccountID, PasswordHash: hash, CreatedAt: time.Now(),
		})
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, err := newClient().Exchange(ctx, rec.Email, "wrong password"); app.KindOf(err) != app.KindInvalidCredentials {
				t.Fatalf("a colleague's wrong password: %v", err)
			}
		}
	}
	_, err = newClient().Exchange(ctx, viewer.Email, viewer.Password)
	if app.KindOf(err) != app.KindRateLimited {
		t.Fatalf("a user new at the locked address: %v, want RateLimited", err)
	}

	// The next session: a new Keyring reads the OS keyring (where there
	// is none, this session's memory stands in).
	next := keys
	if present {
		next = NewKeyring(WithKeyringTimeout(5 * time.Second))
	}
	res, err := newClient().SignIn(ctx, next, srv.URL, sales.Email, sales.Password)
	if err != nil {
		t.Fatalf("sign-in from a known device at the locked address: %v", err)
	}
	if res.APIKey == "" || res.DeviceToken == "" {
		t.Fatalf("result %+v", res)
	}
	// The device token is another user's: useless for the viewer.
	if _, err := newClient().ExchangeDevice(ctx, viewer.Email, viewer.Password, next.DeviceToken(srv.URL, sales.Email)); app.KindOf(err) != app.KindRateLimited {
		t.Fatalf("another user's device token: %v, want RateLimited", err)
	}
}
