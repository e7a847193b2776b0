package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// writeCatalogFile writes n generated items as an import file.
func writeCatalogFile(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := catalogdemo.WriteCSV(f, catalogdemo.Generate(n)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCatalogImportCommand imports on a stopped folder (a bad file first:
// every bad line reported, nothing imported), then replaces the catalog
// through the admin socket while serve runs.
func TestCatalogImportCommand(t *testing.T) {
	data := t.TempDir()
	out := mustRun(t, "accounts", "create", "--data", data, "--name", "Acme AV", "--state", "TX")
	acct := regexp.MustCompile(`account (\d+) `).FindStringSubmatch(out)[1]

	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("ItemType,Name,SellPrice\nPart,Ok,1\nPart,,1\nGadget,X,1.001\n"), 0o600)
	out, code := runCmd(t, "catalog", "import", "--data", data, "--account", acct, bad)
	if code != 1 || !strings.Contains(out, "bad.csv: line 3: Name is required") ||
		!strings.Contains(out, `bad.csv: line 4: ItemType "Gadget" is not a valid itemType`) || !strings.Contains(out, "2 of 3 rows were rejected") {
		t.Fatalf("bad file: exit %d\n%s", code, out)
	}

	file := writeCatalogFile(t, 300)
	out = mustRun(t, "catalog", "import", "--data", data, "--account", acct, file)
	if !strings.Contains(out, "300 rows into account "+acct+" (Merge): 300 added, 0 updated, 0 unchanged, 0 removed") {
		t.Errorf("import output: %s", out)
	}
	if out, code := runCmd(t, "catalog", "import", "--data", data, "--account", "999999", file); code != 1 || !strings.Contains(out, "not found") {
		t.Errorf("unknown account: exit %d %s", code, out)
	}

	p := startServe(t, data)
	small := writeCatalogFile(t, 100)
	// Removing two thirds needs confirmation; no one is at a terminal to
	// answer, so the command says which flag gives it.
	out, code = runCmd(t, "catalog", "import", "--data", data, "--account", acct, "--mode", "replace", small)
	if code != 1 || !strings.Contains(out, "would remove 200 of the catalog's 300 items") || !strings.Contains(out, "--confirm-removal") {
		t.Errorf("unconfirmed replace through the socket: exit %d %s", code, out)
	}
	out = mustRun(t, "catalog", "import", "--data", data, "--account", acct, "--mode", "replace", "--confirm-removal", small)
	if !strings.Contains(out, "100 rows into account "+acct+" (Replace): 0 added, 0 updated, 100 unchanged, 200 removed") ||
		strings.Count(out, "\nremoved ") != app.MaxReportedRows || !strings.Contains(out, "and 100 more removed") {
		t.Errorf("import through the socket: %s", out)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 25*time.Second); code != 0 {
		t.Errorf("exit %d", code)
	}
	st, err := boltstore.Open(filepath.Join(data, dbFile))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var id int64
	for _, c := range acct {
		id = id*10 + int64(c-'0')
	}
	st.View(context.Background(), id, func(tx store.Tx) error {
		if _, n, err := tx.SearchCatalog(app.DefaultCatalogQuery()); n != 100 || err != nil {
			t.Errorf("catalog has %d items (%v)", n, err)
		}
		return nil
	})
}
