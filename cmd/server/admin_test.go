package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/store/boltstore"
)

func runCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String() + errb.String(), code
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("server %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

func checkBackup(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v", fi.Mode().Perm())
	}
	st, err := boltstore.Open(path, boltstore.WithTimeout(time.Second))
	if err != nil {
		t.Fatalf("backup does not open: %v", err)
	}
	defer st.Close()
	accts, err := st.Auth().Accounts(context.Background())
	if err != nil || len(accts) == 0 {
		t.Fatalf("backup accounts: %v %d", err, len(accts))
	}
}

// TestAdminCommands runs the admin commands on a stopped folder, then on
// the same folder while serve holds its lock (through the admin socket).
func TestAdminCommands(t *testing.T) {
	data := t.TempDir()
	out := mustRun(t, "accounts", "create", "--data", data, "--name", "Acme AV", "--state", "TX")
	m := regexp.MustCompile(`account (\d+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("accounts create output: %s", out)
	}
	acct := m[1]
	conn := filepath.Join(t.TempDir(), "conn.json")
	out = mustRun(t, "apps", "create", "--data", data, "--name", "Desktop", "--out", conn, "--base-url", "http://127.0.0.1:9")
	var c Connection
	b, _ := os.ReadFile(conn)
	if err := json.Unmarshal(b, &c); err != nil || c.AppSecret == "" || !strings.Contains(out, c.AppSecret) || c.BaseURL != "http://127.0.0.1:9" {
		t.Fatalf("connection file %s (%v), output %s", b, err, out)
	}
	if fi, _ := os.Stat(conn); fi.Mode().Perm() != 0o600 {
		t.Errorf("connection file mode %v", fi.Mode().Perm())
	}
	out = mustRun(t, "users", "create", "--data", data, "--account", acct, "--email", "ann@acme.example", "--role", "Admin")
	if !regexp.MustCompile(`password: \S{16}`).MatchString(out) {
		t.Errorf("generated password not printed: %s", out)
	}
	t.Setenv("PD_PASSWORD", "correct horse battery")
	mustRun(t, "users", "create", "--data", data, "--account", acct, "--email", "bob@acme.example", "--role", "viewer")
	os.Unsetenv("PD_PASSWORD")
	if out, code := runCmd(t, "users", "create", "--data", data, "--account", acct, "--email", "ann@acme.example"); code == 0 {
		t.Errorf("duplicate email accepted: %s", out)
	}
	out = mustRun(t, "users", "list", "--data", data, "--account", acct)
	if !strings.Contains(out, "ann@acme.example") || !strings.Contains(out, "Viewer") {
		t.Errorf("users list: %s", out)
	}
	mustRun(t, "users", "revoke-keys", "--data", data, "--email", "bob@acme.example")
	// Text from an admin command keeps the API's character rule.
	if out, code := runCmd(t, "accounts", "create", "--data", data, "--name", "Evil\x1b[31m AV"); code == 0 || !strings.Contains(out, "U+001B") {
		t.Errorf("account name with ESC: exit %d, %s", code, out)
	}
	mustRun(t, "backup", "--data", data, "--out", filepath.Join(t.TempDir(), "stopped.db"))

	// Now with the server running: the database is locked, so the same
	// commands go through the admin socket.
	p := startServe(t, data)
	mustRun(t, "users", "create", "--data", data, "--account", acct, "--email", "cy@acme.example", "--password", "another long password")
	if out, code := runCmd(t, "users", "create", "--data", data, "--account", acct, "--email", "dee@acme.example",
		"--first-name", "Dee\x07\x00", "--password", "another long password"); code == 0 || !strings.Contains(out, "U+0007") {
		t.Errorf("first name with BEL through the socket: exit %d, %s", code, out)
	}
	out = mustRun(t, "users", "list", "--data", data, "--account", acct, "--json")
	if !strings.Contains(out, "cy@acme.example") || strings.Contains(out, "dee@acme.example") {
		t.Errorf("users through the socket: want cy listed, dee refused: %s", out)
	}
	running := filepath.Join(t.TempDir(), "running.db")
	out = mustRun(t, "backup", "--data", data, "--out", running)
	if !strings.Contains(out, "bytes written") {
		t.Errorf("backup output: %s", out)
	}
	checkBackup(t, running)
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 25*time.Second); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestUsageAndHelp(t *testing.T) {
	if _, code := runCmd(t); code != 2 {
		t.Errorf("no args: exit %d", code)
	}
	if _, code := runCmd(t, "bogus"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	for _, args := range [][]string{{"serve"}, {"accounts", "create"}, {"apps", "create"}, {"users", "create"},
		{"users", "list"}, {"users", "revoke-keys"}, {"backup"}, {"load"}} {
		out, code := runCmd(t, append(args, "--help")...)
		if code != 0 || !strings.Contains(out, "[PD_") {
			t.Errorf("%v --help: exit %d\n%s", args, code, out)
		}
	}
	out, _ := runCmd(t, "serve", "--help")
	for _, env := range []string{"PD_ADDR", "PD_DATA", "PD_PUBLIC_URL", "PD_DEMO_PROPOSALS", "PD_TLS_CERT", "PD_TRUST_FORWARDED", "PD_STRICT_SIGNING"} {
		if !strings.Contains(out, env) {
			t.Errorf("serve --help lacks %s", env)
		}
	}
	t.Setenv("PD_DEMO_PROPOSALS", "notanumber")
	if out, code := runCmd(t, "serve"); code != 1 || !strings.Contains(out, "PD_DEMO_PROPOSALS") {
		t.Errorf("bad env: exit %d %s", code, out)
	}
}
