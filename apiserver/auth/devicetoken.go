package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// DeviceTokenLifetime is how long a device token is honoured after it
// was issued. Every correct sign-in with it issues a fresh one, so a
// device that signs in at least this often stays trusted.
const DeviceTokenLifetime = 90 * 24 * time.Hour

// DeviceKeySize is the length of a device token key in bytes.
const DeviceKeySize = 32

// deviceTokenPrefix names the token format, so a later one can be told
// apart.
const deviceTokenPrefix = "pdd1."

// DeviceTokens issues and verifies device tokens: proof that a device
// signed in correctly as a user before (OWASP's "device cookies"). A
// token is "pdd1." + Base64URL(issued (8 bytes, Unix seconds) || nonce
// (16 bytes) || HMAC-SHA256(key, user name || 0 || issued || nonce)).
// The server stores nothing per token: the HMAC ties it to the user name
// it was issued for, so it is worthless for any other user, and the
// issue time bounds its life. Changing the key voids every token.
type DeviceTokens struct {
	key      []byte
	lifetime time.Duration
}

// NewDeviceTokens returns tokens signed with key (at least 32 bytes).
func NewDeviceTokens(key []byte, lifetime time.Duration) (*DeviceTokens, error) {
	if len(key) < DeviceKeySize {
		return nil, fmt.Errorf("device token key: %d bytes, need %d", len(key), DeviceKeySize)
	}
	if lifetime <= 0 {
		lifetime = DeviceTokenLifetime
	}
	return &DeviceTokens{key: append([]byte(nil), key...), lifetime: lifetime}, nil
}

// NewDeviceKey returns a random device token key.
func NewDeviceKey() ([]byte, error) {
	k := make([]byte, DeviceKeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("new device token key: %w", err)
	}
	return k, nil
}

const (
	deviceIssuedLen  = 8
	deviceNonceLen   = 16
	devicePayloadLen = deviceIssuedLen + deviceNonceLen
	deviceTokenLen   = devicePayloadLen + sha256.Size
)

// Issue makes a token for user (the user name as the lockout keys it:
// trimmed, lower case).
func (d *DeviceTokens) Issue(user string, now time.Time) (string, error) {
	b := make([]byte, devicePayloadLen, deviceTokenLen)
	binary.BigEndian.PutUint64(b, uint64(now.Unix()))
	if _, err := rand.Read(b[deviceIssuedLen:]); err != nil {
		return "", fmt.Errorf("new device token: %w", err)
	}
	b = append(b, d.mac(user, b)...)
	return deviceTokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Verify checks that token was issued by this server for user and has
// not expired at now, and returns its ID (the nonce in hex), which the
// lockout counts the device's failures under.
func (d *DeviceTokens) Verify(token, user string, now time.Time) (id string, ok bool) {
	rest, found := strings.CutPrefix(token, deviceTokenPrefix)
	if !found || len(rest) != base64.RawURLEncoding.EncodedLen(deviceTokenLen) {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(b) != deviceTokenLen {
		return "", false
	}
	payload, sum := b[:devicePayloadLen], b[devicePayloadLen:]
	if !hmac.Equal(sum, d.mac(user, payload)) {
		return "", false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(payload)), 0)
	// A token from the future is one the clock went back on: honour it
	// no longer than one issued now.
	if age := now.Sub(issued); age >= d.lifetime || age < -d.lifetime {
		return "", false
	}
	return hex.EncodeToString(payload[deviceIssuedLen:]), true
}

func (d *DeviceTokens) mac(user string, payload []byte) []byte {
	h := hmac.New(sha256.New, d.key)
	h.Write([]byte(user))
	h.Write([]byte{0})
	h.Write(payload)
	return h.Sum(nil)
}
