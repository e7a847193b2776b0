package boltstore

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Restore replaces the database file at path with the backup read from r
// (what Backup wrote). The restored data gets a new store ID, so clients
// that synced against the replaced data download everything again. The
// file must not be open: stop the server first. The backup is checked
// (schema version, bbolt consistency) before it replaces anything.
func Restore(r io.Reader, path string) error {
	tmp := path + ".restore"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer os.Remove(tmp)
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("restore: copy backup: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("restore: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	// Open migrates and checks the schema; then check the pages and give
	// the data its new identity.
	s, err := Open(tmp)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	err = s.update(func(btx *bolt.Tx) error {
		for err := range btx.Check() {
			return fmt.Errorf("backup is damaged: %w", err)
		}
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		return btx.Bucket(bMeta).Put(kStoreID, []byte(hex.EncodeToString(b[:])))
	})
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	// Refuse to swap the file of a running server.
	if fileExists(path) {
		live, err := Open(path, WithTimeout(100*time.Millisecond))
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		live.Close()
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
