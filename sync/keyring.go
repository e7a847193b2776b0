package syncer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the service name of the desktop's keyring entries.
const KeyringService = "proposal-desk"

// DefaultKeyringTimeout bounds one keyring call. On a desktop the Secret
// Service may show an unlock prompt and block until it is answered.
const DefaultKeyringTimeout = 10 * time.Second

var (
	// ErrKeyringUnavailable: there is no usable OS keyring (no Secret
	// Service, a locked keyring nobody unlocked in time). Credentials are
	// then kept in memory for this session only and the user signs in
	// again next time. Keyring.Err wraps it with the cause.
	ErrKeyringUnavailable = errors.New("the system keyring is not available; you will need to sign in again next time")
	// ErrNoCredentials: nothing is saved for this server and user.
	ErrNoCredentials = errors.New("no saved credentials")
)

// Credentials are what the desktop keeps per server and user: the user's
// API key and the app secret it signs with, stored as one JSON value.
type Credentials struct {
	APIKey    string `json:"apiKey"`
	AppSecret string `json:"appSecret"`
}

// secretStore is the OS keyring's interface (go-keyring's functions);
// tests swap in failing or blocking ones.
type secretStore interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

type osSecretStore struct{}

func (osSecretStore) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osSecretStore) Set(service, user, secret string) error {
	return keyring.Set(service, user, secret)
}
func (osSecretStore) Delete(service, user string) error { return keyring.Delete(service, user) }

// Keyring keeps credentials in the OS keyring (the Secret Service on
// Linux), one entry per server and user. When the OS keyring is not
// usable it falls back, for the rest of the session, to memory: never to
// a file. Persistent and Err report which it is using, so the UI can say
// so in a sentence. Safe for concurrent use.
type Keyring struct {
	backend secretStore
	timeout time.Duration

	mu          sync.Mutex
	unavailable error // non-nil once the OS keyring failed: wraps ErrKeyringUnavailable
	mem         map[string]string
}

// KeyringOption configures a Keyring.
type KeyringOption func(*Keyring)

// WithKeyringTimeout bounds each OS keyring call (default 10s).
func WithKeyringTimeout(d time.Duration) KeyringOption {
	return func(k *Keyring) { k.timeout = d }
}

// withSecretStore replaces the OS keyring (tests).
func withSecretStore(s secretStore) KeyringOption {
	return func(k *Keyring) { k.backend = s }
}

// NewKeyring opens the keyring. It asks the OS keyring once for an entry
// that does not exist: "not found" means the keyring works; any other
// answer, or none within the timeout, means it does not, and the Keyring
// keeps credentials in memory from then on.
func NewKeyring(opts ...KeyringOption) *Keyring {
	k := &Keyring{backend: osSecretStore{}, timeout: DefaultKeyringTimeout, mem: map[string]string{}}
	for _, o := range opts {
		o(k)
	}
	_, err := k.call(func(s secretStore) (string, error) { return s.Get(KeyringService, "<probe>") })
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		k.fallBack(err)
	}
	return k
}

// Persistent reports whether credentials outlive the session (the OS
// keyring works).
func (k *Keyring) Persistent() bool { return k.Err() == nil }

// Err is nil while the OS keyring works; otherwise an error wrapping
// ErrKeyringUnavailable and the cause.
func (k *Keyring) Err() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.unavailable
}

// KeyringUser is the entry's user name: "<baseURL>|<email>", the base URL
// without a trailing slash and the email in lower case (the server
// compares emails case-insensitively).
func KeyringUser(baseURL, email string) string {
	return strings.TrimRight(strings.TrimSpace(baseURL), "/") + "|" + strings.ToLower(strings.TrimSpace(email))
}

// Save stores the credentials of email on baseURL. When the OS keyring
// is unavailable they are kept in memory and Save still succeeds; check
// Persistent to tell the user.
func (k *Keyring) Save(baseURL, email string, c Credentials) error {
	if c.APIKey == "" {
		return fmt.Errorf("keyring: refusing to save an empty API key")
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("keyring: %w", err)
	}
	k.put(KeyringUser(baseURL, email), string(data))
	return nil
}

// Load reads the credentials of email on baseURL; ErrNoCredentials when
// none are saved.
func (k *Keyring) Load(baseURL, email string) (Credentials, error) {
	user := KeyringUser(baseURL, email)
	data, found := k.get(user)
	if !found {
		return Credentials{}, fmt.Errorf("%s: %w", user, ErrNoCredentials)
	}
	var c Credentials
	if err := json.Unmarshal([]byte(data), &c); err != nil || c.APIKey == "" {
		return Credentials{}, fmt.Errorf("keyring entry %s is damaged: %w", user, ErrNoCredentials)
	}
	return c, nil
}

// Delete removes the credentials of email on baseURL (sign-out). Nothing
// saved is not an error. If the OS keyring held them but cannot be
// reached now, the error wraps ErrKeyringUnavailable: the key may still
// be stored there.
func (k *Keyring) Delete(baseURL, email string) error {
	user := KeyringUser(baseURL, email)
	k.mu.Lock()
	delete(k.mem, user)
	k.mu.Unlock()
	if !k.Persistent() {
		return nil
	}
	_, err := k.call(func(s secretStore) (string, error) { return "", s.Delete(KeyringService, user) })
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	k.fallBack(err)
	return fmt.Errorf("keyring: could not remove %s: %w", user, k.Err())
}

// deviceEntry is the entry name of a device token: beside the
// credentials' entry, not in it, so that signing out (Delete) keeps it.
func deviceEntry(baseURL, email string) string { return KeyringUser(baseURL, email) + "|device" }

// SaveDeviceToken keeps the device token the server gave email on
// baseURL at a correct sign-in. It is kept across sign-outs: it says
// that this computer is one the user signed in from, which lets the
// next sign-in through while others' failures have the office's
// address locked. Like credentials it falls back to memory when the OS
// keyring is unavailable.
func (k *Keyring) SaveDeviceToken(baseURL, email, token string) {
	if token != "" {
		k.put(deviceEntry(baseURL, email), token)
	}
}

// DeviceToken is the saved device token of email on baseURL, "" when
// there is none.
func (k *Keyring) DeviceToken(baseURL, email string) string {
	v, _ := k.get(deviceEntry(baseURL, email))
	return v
}

// put stores one entry in the OS keyring, or in memory once that is
// unavailable.
func (k *Keyring) put(user, data string) {
	if k.Persistent() {
		_, err := k.call(func(s secretStore) (string, error) { return "", s.Set(KeyringService, user, data) })
		if err == nil {
			return
		}
		k.fallBack(err)
	}
	k.mu.Lock()
	k.mem[user] = data
	k.mu.Unlock()
}

// get reads one entry from the OS keyring, else from memory.
func (k *Keyring) get(user string) (string, bool) {
	if k.Persistent() {
		v, err := k.call(func(s secretStore) (string, error) { return s.Get(KeyringService, user) })
		switch {
		case err == nil:
			return v, true
		case errors.Is(err, keyring.ErrNotFound):
		default:
			k.fallBack(err)
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.mem[user]
	return v, ok
}

// fallBack switches to memory for the rest of the session.
func (k *Keyring) fallBack(cause error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.unavailable == nil {
		k.unavailable = fmt.Errorf("%w (%v)", ErrKeyringUnavailable, cause)
	}
}

// errKeyringTimeout is the cause recorded when the OS keyring does not
// answer in time.
var errKeyringTimeout = errors.New("the keyring did not answer in time")

// call runs one OS keyring call with the timeout. A call that times out
// keeps running in its goroutine until the OS answers; its result is
// dropped.
func (k *Keyring) call(fn func(secretStore) (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn(k.backend)
		done <- result{v, err}
	}()
	t := time.NewTimer(k.timeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-t.C:
		return "", errKeyringTimeout
	}
}
