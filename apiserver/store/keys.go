package store

import (
	"fmt"
	"time"
)

// KeyToStore is the key a backend's PutKey stores for k, a new key of
// owner (the user k.UserID names, as the backend found them): the key
// belongs to its user's account (filled in when k names none, an error
// when it names another), and its creation time is now when k has none.
// Every backend applies it, so the rule is the same whatever stores the
// key; the backend keeps only the storing.
func KeyToStore(k APIKey, owner UserRecord, now time.Time) (APIKey, error) {
	if k.AccountID == 0 {
		k.AccountID = owner.AccountID
	}
	if k.AccountID != owner.AccountID {
		return APIKey{}, fmt.Errorf("store: key of user %d names account %d, not the user's %d", k.UserID, k.AccountID, owner.AccountID)
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = now.UTC()
	}
	return k, nil
}
