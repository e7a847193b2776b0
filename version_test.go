package proposaldesk

import (
	"os"
	"regexp"
	"testing"
)

// TestVersionIsPlainSemver: the packages (MSI ProductVersion, .deb
// Version, FyneApp.toml) take the number as it is, and an MSI accepts
// only up to three dotted numbers, each below 256 for the first two.
func TestVersionIsPlainSemver(t *testing.T) {
	if !regexp.MustCompile(`^(0|[1-9]\d?|1\d\d|2[0-4]\d|25[0-5])\.(0|[1-9]\d?|1\d\d|2[0-4]\d|25[0-5])\.(0|[1-9]\d{0,4})$`).MatchString(Version) {
		t.Fatalf("VERSION %q is not MAJOR.MINOR.PATCH within MSI's limits (major, minor < 256; patch < 65536)", Version)
	}
}

// TestFyneAppTomlVersion: FyneApp.toml, which the fyne tool writes into
// the Linux tar's metadata, carries the same number as VERSION.
func TestFyneAppTomlVersion(t *testing.T) {
	data, err := os.ReadFile("FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]*)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version")
	}
	if got := string(m[1]); got != Version {
		t.Errorf("FyneApp.toml Version = %q, VERSION = %q", got, Version)
	}
}
