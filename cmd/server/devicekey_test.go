package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The key survives a restart (the same file is read back), is private
// to the server's user, and a damaged file stops the server.
func TestDeviceKeyFile(t *testing.T) {
	dir := t.TempDir()
	k1, err := deviceKey(context.Background(), nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := deviceKey(context.Background(), nil, dir)
	if err != nil || !bytes.Equal(k1, k2) || len(k1) != 32 {
		t.Fatalf("second read %x, %v; first %x", k2, err, k1)
	}
	path := filepath.Join(dir, deviceKeyFile)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v, %v", fi.Mode(), err)
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := deviceKey(context.Background(), nil, dir); err == nil {
		t.Fatal("a damaged key file was accepted")
	}
}
