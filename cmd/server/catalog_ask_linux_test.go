//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal: the master end (what a person types
// goes in there) and its slave end (the command's standard input).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// At a terminal, a Replace that would remove most of the catalog asks,
// and does what the answer says.
func TestCatalogImportAsksAtATerminal(t *testing.T) {
	data := t.TempDir()
	out := mustRun(t, "accounts", "create", "--data", data, "--name", "Acme AV", "--state", "TX")
	acct := regexp.MustCompile(`account (\d+) `).FindStringSubmatch(out)[1]
	mustRun(t, "catalog", "import", "--data", data, "--account", acct, writeCatalogFile(t, 10))
	one := filepath.Join(t.TempDir(), "one.csv")
	os.WriteFile(one, []byte("ItemType,Name,SellPrice\nLabor,Install hour,95\n"), 0o600)

	master, slave := openPTY(t)
	old := os.Stdin
	os.Stdin = slave
	t.Cleanup(func() { os.Stdin = old })
	if !stdinIsTerminal() {
		t.Fatal("the pseudo-terminal is not taken for a terminal")
	}
	master.WriteString("n\n")
	out, code := runCmd(t, "catalog", "import", "--data", data, "--account", acct, "--mode", "replace", one)
	if code != 1 || !strings.Contains(out, "would remove 10 of the catalog's 10 items") || !strings.Contains(out, "Remove them? [y/N]") ||
		!strings.Contains(out, "nothing was imported") {
		t.Fatalf("answered no: exit %d\n%s", code, out)
	}
	master.WriteString("y\n")
	out, code = runCmd(t, "catalog", "import", "--data", data, "--account", acct, "--mode", "replace", one)
	if code != 0 || !strings.Contains(out, "1 added, 0 updated, 0 unchanged, 10 removed") || strings.Count(out, "\nremoved ") != 10 {
		t.Fatalf("answered yes: exit %d\n%s", code, out)
	}
}
