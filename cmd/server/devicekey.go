package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore"
)

// The device token key outlives restarts, or every restart would make
// every desktop a stranger to the sign-in lockout. On bbolt it is a file
// beside the database (readable by the server's user only); on
// PostgreSQL a meta row, so replicas share it (the first to start makes
// it, under an advisory lock).
const (
	deviceKeyFile = "device-token.key"
	deviceKeyMeta = "deviceTokenKey"
	deviceKeyLock = 0x70645f646b6579 // "pd_dkey"
)

// deviceKey reads the server's device token key, making it on first use.
func deviceKey(ctx context.Context, st store.Store, dataDir string) ([]byte, error) {
	if pg, ok := st.(*pgstore.Store); ok {
		return sharedDeviceKey(ctx, pg)
	}
	path := filepath.Join(dataDir, deviceKeyFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err := auth.NewDeviceKey()
		if err != nil {
			return nil, err
		}
		// O_EXCL: of two servers started on one folder at once (the
		// second then fails on the database lock) only one writes.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("device token key: %w", err)
		}
		_, werr := f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return nil, fmt.Errorf("device token key: %w", werr)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("device token key: %w", err)
	}
	return decodeDeviceKey(string(raw), path)
}

func sharedDeviceKey(ctx context.Context, pg *pgstore.Store) ([]byte, error) {
	var key []byte
	err := pg.Locked(ctx, deviceKeyLock, func() error {
		raw, found, err := pg.Meta(ctx, deviceKeyMeta)
		if err != nil {
			return err
		}
		if found {
			key, err = decodeDeviceKey(raw, "the database's meta "+deviceKeyMeta)
			return err
		}
		if key, err = auth.NewDeviceKey(); err != nil {
			return err
		}
		return pg.SetMeta(ctx, deviceKeyMeta, base64.StdEncoding.EncodeToString(key))
	})
	if err != nil {
		return nil, fmt.Errorf("device token key: %w", err)
	}
	return key, nil
}

func decodeDeviceKey(raw, where string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(raw))
	if err != nil || len(key) < auth.DeviceKeySize {
		return nil, fmt.Errorf("device token key in %s is damaged; remove it to make a new one (every desktop then signs in as a new device once)", where)
	}
	return key, nil
}
