package store

import (
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

func TestKeyToStore(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("EST", -5*3600))
	earlier := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	owner := UserRecord{User: app.User{ID: 7}, AccountID: 3}
	cases := []struct {
		name    string
		in      APIKey
		want    APIKey
		wantErr string
	}{
		{"no account takes the user's", APIKey{UserID: 7}, APIKey{UserID: 7, AccountID: 3, CreatedAt: now.UTC()}, ""},
		{"the user's account is kept", APIKey{UserID: 7, AccountID: 3}, APIKey{UserID: 7, AccountID: 3, CreatedAt: now.UTC()}, ""},
		{"another account is refused", APIKey{UserID: 7, AccountID: 4}, APIKey{}, "names account 4, not the user's 3"},
		{"a creation time is kept", APIKey{UserID: 7, CreatedAt: earlier}, APIKey{UserID: 7, AccountID: 3, CreatedAt: earlier}, ""},
		{"revocation and app pass through", APIKey{UserID: 7, AppID: "a", RevokedAt: earlier},
			APIKey{UserID: 7, AccountID: 3, AppID: "a", CreatedAt: now.UTC(), RevokedAt: earlier}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := KeyToStore(c.in, owner, now)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			if got.CreatedAt.Location() != time.UTC {
				t.Fatalf("creation time in %v, want UTC", got.CreatedAt.Location())
			}
		})
	}
}
