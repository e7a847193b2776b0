package syncer

import (
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// secretServicePresent asks the Secret Service directly, bypassing the
// code under test: an answer of "found" or "not found" means it is there.
func secretServicePresent(t *testing.T) bool {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := keyring.Get(KeyringService, "<presence check>")
		done <- err
	}()
	select {
	case err := <-done:
		return err == nil || errors.Is(err, keyring.ErrNotFound)
	case <-time.After(5 * time.Second):
		return false
	}
}

// TestKeyringRealSecretService runs against the session's real keyring:
// under scripts/test.sh that is gnome-keyring in a private D-Bus session.
// Where there is none, it checks the in-memory fallback instead.
func TestKeyringRealSecretService(t *testing.T) {
	present := secretServicePresent(t)
	// scripts/test.sh starts gnome-keyring and sets this: there the
	// fallback is a failure, not an alternative.
	if os.Getenv("PD_REQUIRE_KEYRING") == "1" && !present {
		t.Fatal("PD_REQUIRE_KEYRING=1 but no working Secret Service answers on this D-Bus session")
	}
	k := NewKeyring(WithKeyringTimeout(5 * time.Second))
	if k.Persistent() != present {
		t.Fatalf("Persistent() = %v, but the Secret Service present = %v (Err: %v)", k.Persistent(), present, k.Err())
	}
	base, email := "http://127.0.0.1:1/", "Keyring.Test@Example.com"
	user := KeyringUser(base, email)
	want := Credentials{APIKey: "key-" + time.Now().Format(time.RFC3339Nano), AppSecret: "secret"}
	t.Cleanup(func() { _ = keyring.Delete(KeyringService, user) })

	if _, err := k.Load(base, email); !errors.Is(err, ErrNoCredentials) {
		t.Fatalf("Load before Save: %v, want ErrNoCredentials", err)
	}
	if err := k.Save(base, email, want); err != nil {
		t.Fatal(err)
	}
	// Another spelling of the same server and user finds the same entry.
	got, err := k.Load("http://127.0.0.1:1", "keyring.test@example.com")
	if err != nil || got != want {
		t.Fatalf("Load = %+v, %v; want %+v", got, err, want)
	}

	if present {
		t.Log("Secret Service present: checking the entry is really in the OS keyring")
		raw, err := keyring.Get(KeyringService, user)
		if err != nil {
			t.Fatalf("the OS keyring has no entry %q: %v", user, err)
		}
		if raw != `{"apiKey":"`+want.APIKey+`","appSecret":"secret"}` {
			t.Fatalf("stored value %q", raw)
		}
		// A second Keyring (the next session) sees it.
		if got, err := NewKeyring().Load(base, email); err != nil || got != want {
			t.Fatalf("next session Load = %+v, %v", got, err)
		}
	} else {
		t.Log("no Secret Service here: checking the in-memory fallback")
		if !errors.Is(k.Err(), ErrKeyringUnavailable) {
			t.Fatalf("Err() = %v, want ErrKeyringUnavailable", k.Err())
		}
		// Memory only: the next session does not see it.
		if _, err := NewKeyring(WithKeyringTimeout(time.Second)).Load(base, email); !errors.Is(err, ErrNoCredentials) {
			t.Fatalf("next session Load: %v, want ErrNoCredentials", err)
		}
	}

	if err := k.Delete(base, email); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Load(base, email); !errors.Is(err, ErrNoCredentials) {
		t.Fatalf("Load after Delete: %v", err)
	}
	if present {
		if _, err := keyring.Get(KeyringService, user); !errors.Is(err, keyring.ErrNotFound) {
			t.Fatalf("OS keyring after Delete: %v, want ErrNotFound", err)
		}
	}
	if err := k.Delete(base, email); err != nil {
		t.Fatalf("deleting nothing: %v", err)
	}
}

// fakeSecrets is an OS keyring that works, fails or blocks on demand.
type fakeSecrets struct {
	mu      sync.Mutex
	data    map[string]string
	fail    error         // returned by every call when set
	block   chan struct{} // every call waits on it when set
	calls   int
	setCall int
}

func (f *fakeSecrets) wait() error {
	f.mu.Lock()
	f.calls++
	block, fail := f.block, f.fail
	f.mu.Unlock()
	if block != nil {
		<-block
	}
	return fail
}

func (f *fakeSecrets) Get(service, user string) (string, error) {
	if err := f.wait(); err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.data[service+"/"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (f *fakeSecrets) Set(service, user, secret string) error {
	if err := f.wait(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setCall++
	f.data[service+"/"+user] = secret
	return nil
}

func (f *fakeSecrets) Delete(service, user string) error {
	if err := f.wait(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.data[service+"/"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.data, service+"/"+user)
	return nil
}

func TestKeyringFallsBackWhenUnavailable(t *testing.T) {
	cause := errors.New("org.freedesktop.secrets was not provided by any .service files")
	f := &fakeSecrets{data: map[string]string{}, fail: cause}
	k := NewKeyring(withSecretStore(f))
	if k.Persistent() {
		t.Fatal("Persistent() with a failing keyring")
	}
	if !errors.Is(k.Err(), ErrKeyringUnavailable) {
		t.Fatalf("Err() = %v", k.Err())
	}
	c := Credentials{APIKey: "k", AppSecret: "s"}
	if err := k.Save("http://h", "a@b.c", c); err != nil {
		t.Fatalf("Save in memory: %v", err)
	}
	if got, err := k.Load("http://h", "a@b.c"); err != nil || got != c {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	calls := f.calls
	if err := k.Delete("http://h", "a@b.c"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Load("http://h", "a@b.c"); !errors.Is(err, ErrNoCredentials) {
		t.Fatalf("Load after Delete: %v", err)
	}
	if f.calls != calls {
		t.Fatalf("the unavailable keyring was called again after the fallback")
	}
}

func TestKeyringTimesOutABlockedKeyring(t *testing.T) {
	f := &fakeSecrets{data: map[string]string{}, block: make(chan struct{})}
	defer close(f.block)
	start := time.Now()
	k := NewKeyring(withSecretStore(f), WithKeyringTimeout(50*time.Millisecond))
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("NewKeyring took %v", d)
	}
	if k.Persistent() || !errors.Is(k.Err(), ErrKeyringUnavailable) {
		t.Fatalf("Persistent=%v Err=%v", k.Persistent(), k.Err())
	}
	if err := k.Save("http://h", "a@b.c", Credentials{APIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Load("http://h", "a@b.c"); err != nil {
		t.Fatal(err)
	}
}

func TestKeyringFailsOverMidSession(t *testing.T) {
	f := &fakeSecrets{data: map[string]string{}}
	k := NewKeyring(withSecretStore(f))
	if !k.Persistent() {
		t.Fatalf("working keyring: Err %v", k.Err())
	}
	c := Credentials{APIKey: "k1", AppSecret: "s"}
	if err := k.Save("http://h", "a@b.c", c); err != nil || f.setCall != 1 {
		t.Fatalf("Save: %v (set calls %d)", err, f.setCall)
	}
	f.mu.Lock()
	f.fail = errors.New("failed to unlock correct collection")
	f.mu.Unlock()
	c2 := Credentials{APIKey: "k2", AppSecret: "s"}
	if err := k.Save("http://h", "x@y.z", c2); err != nil {
		t.Fatal(err)
	}
	if k.Persistent() {
		t.Fatal("still Persistent after the keyring failed")
	}
	if got, err := k.Load("http://h", "x@y.z"); err != nil || got != c2 {
		t.Fatalf("Load from memory = %+v, %v", got, err)
	}
}

func TestKeyringDeleteReportsAnUnreachableKeyring(t *testing.T) {
	f := &fakeSecrets{data: map[string]string{}}
	k := NewKeyring(withSecretStore(f))
	if err := k.Save("http://h", "a@b.c", Credentials{APIKey: "k"}); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.fail = errors.New("dbus gone")
	f.mu.Unlock()
	if err := k.Delete("http://h", "a@b.c"); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("Delete = %v, want ErrKeyringUnavailable", err)
	}
}

func TestKeyringUser(t *testing.T) {
	for _, c := range []struct{ base, email, want string }{
		{"https://pd.example.com/", "Ann@Example.com", "https://pd.example.com|ann@example.com"},
		{"http://127.0.0.1:8080", " bob@x.io ", "http://127.0.0.1:8080|bob@x.io"},
	} {
		if got := KeyringUser(c.base, c.email); got != c.want {
			t.Errorf("KeyringUser(%q, %q) = %q, want %q", c.base, c.email, got, c.want)
		}
	}
}
