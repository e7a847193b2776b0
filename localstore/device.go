package localstore

import (
	"context"
	"crypto/rand"
	"fmt"
)

// DeviceID is this laptop's ID, made once at random and kept in the
// settings: an acceptance taken on the laptop names it, so the evidence
// tells two laptops of one user apart. A random ID says nothing about
// the machine or its owner.
func (s *Store) DeviceID(ctx context.Context) (string, error) {
	set, err := s.Settings()
	if err != nil {
		return "", err
	}
	if set.DeviceID != "" {
		return set.DeviceID, nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a device ID: %w", err)
	}
	fresh := fmt.Sprintf("laptop-%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
	var id string
	err = s.UpdateSettings(ctx, func(set *Settings) {
		// Another caller may have made one meanwhile: the first stays.
		if set.DeviceID == "" {
			set.DeviceID = fresh
		}
		id = set.DeviceID
	})
	if err != nil {
		return "", fmt.Errorf("keep the device ID: %w", err)
	}
	return id, nil
}
