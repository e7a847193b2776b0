package localstore

import (
	"path/filepath"
	"regexp"
	"testing"
)

// The device ID is made once and kept across reopening the store; two
// stores (two laptops) get different ones.
func TestDeviceIDStable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	st := openStore(t, path)
	first, err := st.DeviceID(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^laptop-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(first) {
		t.Fatalf("device ID %q", first)
	}
	again, err := st.DeviceID(t.Context())
	if err != nil || again != first {
		t.Fatalf("second call %q %v, want %q", again, err, first)
	}
	st.Close()
	st = openStore(t, path)
	if reopened, err := st.DeviceID(t.Context()); err != nil || reopened != first {
		t.Fatalf("after reopening %q %v, want %q", reopened, err, first)
	}
	other := openStore(t, filepath.Join(dir, "b.db"))
	if id, err := other.DeviceID(t.Context()); err != nil || id == first {
		t.Fatalf("another laptop's ID %q %v equals %q", id, err, first)
	}
}
