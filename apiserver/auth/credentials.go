// Package auth makes and checks the server's credentials: user passwords
// (bcrypt), user API keys (random, stored as SHA-256) and app secrets.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver/store"
)

// PasswordCost is bcrypt's work factor: about 50-100 ms a check on the
// 2-core machines this runs on, slow enough to make guessing expensive.
const PasswordCost = 11

// MinPasswordLength is the shortest password accepted for a new user.
const MinPasswordLength = 10

// HashPassword hashes a password with bcrypt.
func HashPassword(password string) ([]byte, error) {
	if len(password) < MinPasswordLength {
		return nil, fmt.Errorf("password must be at least %d characters", MinPasswordLength)
	}
	if len(password) > 72 {
		// bcrypt ignores bytes past 72; refuse rather than silently truncate.
		return nil, fmt.Errorf("password must be at most 72 bytes")
	}
	return bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
}

// CheckPassword reports whether password matches hash, in constant time.
func CheckPassword(hash []byte, password string) bool {
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}

// NewAPIKey returns a new user API key: 32 random bytes in Base64, and the
// hash under which it is stored.
func NewAPIKey() (value string, hash [32]byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", hash, fmt.Errorf("new api key: %w", err)
	}
	value = base64.StdEncoding.EncodeToString(b)
	return value, HashAPIKey(value), nil
}

// HashAPIKey is how a key is stored and looked up.
func HashAPIKey(value string) [32]byte { return sha256.Sum256([]byte(value)) }

// NewApp returns a new client application with a random ID and secret.
func NewApp(name string, now time.Time) (store.App, error) {
	id := make([]byte, 12)
	secret := make([]byte, 32)
	if _, err := rand.Read(id); err != nil {
		return store.App{}, fmt.Errorf("new app: %w", err)
	}
	if _, err := rand.Read(secret); err != nil {
		return store.App{}, fmt.Errorf("new app: %w", err)
	}
	return store.App{
		ID:        "app-" + hex.EncodeToString(id),
		Secret:    base64.RawURLEncoding.EncodeToString(secret),
		Name:      name,
		CreatedAt: now.UTC(),
	}, nil
}

// RandomPassword makes a password for demo users: 16 characters from an
// unambiguous alphabet.
func RandomPassword() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}
