package auth

import (
	"strings"
	"testing"
	"time"
)

func TestDeviceTokens(t *testing.T) {
	key, err := NewDeviceKey()
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDeviceTokens(key, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	tok, err := d.Issue("ana@example.test", now)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := d.Verify(tok, "ana@example.test", now.Add(time.Hour))
	if !ok || len(id) != 32 {
		t.Fatalf("Verify of a fresh token = %q, %v", id, ok)
	}
	tok2, _ := d.Issue("ana@example.test", now)
	if id2, _ := d.Verify(tok2, "ana@example.test", now); id2 == id {
		t.Fatal("two tokens with one ID")
	}
	otherKey, _ := NewDeviceKey()
	other, _ := NewDeviceTokens(otherKey, 0)
	flipped := []byte(tok)
	if flipped[10] = 'A'; tok[10] == 'A' {
		flipped[10] = 'B'
	}
	for _, tc := range []struct {
		name, token, user string
		at                time.Time
	}{
		{"another user", tok, "bo@example.test", now},
		{"expired", tok, "ana@example.test", now.Add(DeviceTokenLifetime)},
		{"altered", string(flipped), "ana@example.test", now},
		{"cut short", tok[:len(tok)-2], "ana@example.test", now},
		{"no prefix", strings.TrimPrefix(tok, deviceTokenPrefix), "ana@example.test", now},
		{"empty", "", "ana@example.test", now},
	} {
		if _, ok := d.Verify(tc.token, tc.user, tc.at); ok {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if _, ok := other.Verify(tok, "ana@example.test", now); ok {
		t.Error("accepted under another server key")
	}
	if _, err := NewDeviceTokens(key[:16], 0); err == nil {
		t.Error("a 16-byte key accepted")
	}
}
