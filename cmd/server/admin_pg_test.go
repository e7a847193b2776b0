package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/store/pgstore/pgtest"
)

// TestAdminCommandsPostgres runs migrate and the admin commands against a
// PostgreSQL database, with and without a server running on it (no socket
// in between), and restores the backup with pg_restore.
func TestAdminCommandsPostgres(t *testing.T) {
	db := pgtest.NewDatabase(t)
	if out := mustRun(t, "migrate", "--database", db); !strings.Contains(out, "schema version 1") {
		t.Errorf("migrate: %s", out)
	}
	mustRun(t, "migrate", "--database", db) // again: nothing to do
	t.Setenv("PD_DATABASE", db)             // the environment names it too
	out := mustRun(t, "accounts", "create", "--name", "Acme AV", "--state", "TX")
	m := regexp.MustCompile(`account (\d+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("accounts create output: %s", out)
	}
	acct := m[1]
	mustRun(t, "apps", "create", "--name", "Desktop")
	mustRun(t, "users", "create", "--account", acct, "--email", "ann@acme.example", "--role", "Admin", "--password", "a long enough password")
	if out, code := runCmd(t, "users", "create", "--account", acct, "--email", "ANN@acme.example"); code == 0 {
		t.Errorf("duplicate email accepted: %s", out)
	}
	p := startServe(t, t.TempDir())
	mustRun(t, "users", "create", "--account", acct, "--email", "cy@acme.example", "--role", "Viewer", "--password", "another long password")
	out = mustRun(t, "users", "list", "--account", acct)
	if !strings.Contains(out, "ann@acme.example") || !strings.Contains(out, "cy@acme.example") {
		t.Errorf("users list: %s", out)
	}
	mustRun(t, "users", "revoke-keys", "--email", "cy@acme.example")
	backup := filepath.Join(t.TempDir(), "pd.dump")
	if out := mustRun(t, "backup", "--out", backup); !strings.Contains(out, "bytes written") {
		t.Errorf("backup: %s", out)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 25*time.Second); code != 0 {
		t.Errorf("exit %d", code)
	}

	// The backup restores into an empty database and serves the users.
	restored := pgtest.NewDatabase(t)
	restore := exec.Command(filepath.Join(pgtest.Shared(t).BinDir(), "pg_restore"), "--no-owner", "--dbname", restored, backup)
	if out, err := restore.CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	os.Unsetenv("PD_DATABASE")
	out = mustRun(t, "users", "list", "--database", restored, "--account", acct)
	if !strings.Contains(out, "cy@acme.example") {
		t.Errorf("users in the restored database: %s", out)
	}
}
