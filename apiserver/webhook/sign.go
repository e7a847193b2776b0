package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// secretPrefix marks a Standard Webhooks signing secret.
const secretPrefix = "whsec_"

// NewSecret is a fresh signing secret: 24 random bytes, base64, with
// the whsec_ prefix receiver libraries expect.
func NewSecret() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a webhook secret: %w", err)
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b[:]), nil
}

// MessageID is the webhook-id of an event: the same on every attempt
// and every redelivery, so a receiver drops what it already has. The
// store's ID keeps IDs of two data sets (a restore) apart.
func MessageID(storeID string, eventID int64) string {
	if len(storeID) > 8 {
		storeID = storeID[:8]
	}
	return "msg_" + storeID + "_" + strconv.FormatInt(eventID, 10)
}

// Headers are the Standard Webhooks headers of one attempt.
func Headers(secret, msgID string, at time.Time, body []byte) (map[string]string, error) {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig, err := Sign(secret, msgID, ts, body)
	if err != nil {
		return nil, err
	}
	return map[string]string{
		"webhook-id":        msgID,
		"webhook-timestamp": ts,
		"webhook-signature": sig,
	}, nil
}

// Sign is the webhook-signature value: "v1," and the base64 HMAC-SHA256
// of "id.timestamp.body" keyed by the secret's decoded bytes.
func Sign(secret, msgID, timestamp string, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID))
	mac.Write([]byte{'.'})
	mac.Write([]byte(timestamp))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
