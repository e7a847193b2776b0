// Package clientpage is the client's page of a sent proposal (/c/{token}):
// the frozen snapshot rendered with html/template, the client's choice
// of options, acceptance with a typed name and consent, refusal, and the
// signed PDF. It needs no account and no API signature: the link's token
// is the credential. It also holds what the link's token is and how the
// evidence of a decision is assembled, which the signed API's send and
// signed.pdf routes share.
package clientpage

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
)

// tokenRandomBytes is the token's secret part: 128 random bits.
const tokenRandomBytes = 16

// NewToken makes a link token for a proposal of an account, with its
// hex SHA-256 (the only form stored) and a fresh link ID. The token is
// "<account>.<proposal>.<secret>": the IDs let a request find the
// proposal without a server-wide index, and the 128-bit secret is what
// opens it; a token naming another proposal never matches its hash.
func NewToken(accountID, proposalID int64) (token, hash, linkID string) {
	secret := make([]byte, tokenRandomBytes)
	rand.Read(secret) // never fails (crypto/rand, Go 1.24+)
	token = strconv.FormatInt(accountID, 10) + "." + strconv.FormatInt(proposalID, 10) + "." +
		base64.RawURLEncoding.EncodeToString(secret)
	id := make([]byte, 8)
	rand.Read(id)
	return token, TokenHash(token), hex.EncodeToString(id)
}

// TokenHash is the hex SHA-256 of a token.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// parseToken reads the account and proposal a token names; ok is false
// for anything not shaped like a token.
func parseToken(token string) (accountID, proposalID int64, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || len(parts[2]) != base64.RawURLEncoding.EncodedLen(tokenRandomBytes) {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(parts[0], 10, 64)
	p, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || a <= 0 || p <= 0 {
		return 0, 0, false
	}
	if _, err := base64.RawURLEncoding.DecodeString(parts[2]); err != nil {
		return 0, 0, false
	}
	return a, p, true
}

// sameHash compares two hex hashes in constant time.
func sameHash(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
