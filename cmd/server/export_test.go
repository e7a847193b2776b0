package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"proposaldesk/apiserver/demo"
	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
)

// TestExportCommand runs "server export" against a running demo server,
// as its Admin, for every format, and as a Viewer (refused).
func TestExportCommand(t *testing.T) {
	data := t.TempDir()
	p := startServe(t, data, "--demo")
	creds := readDemo(t, data)
	admin, _ := creds.User(demo.MainAccountName, app.RoleAdmin, true)
	viewer, _ := creds.User(demo.MainAccountName, app.RoleViewer, true)
	conn := filepath.Join(data, "demo.json")
	out := t.TempDir()
	run := func(pw string, args ...string) (string, string, error) {
		cmd := exec.Command(serverBin, append([]string{"export", "--connection-file", conn, "--url", p.baseURL}, args...)...)
		cmd.Env = append(os.Environ(), "PD_PASSWORD="+pw)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		return so.String(), se.String(), err
	}

	if _, se, err := run(admin.Password, "--user", admin.Email, "--format", "csv", "--out", filepath.Join(out, "csv")); err != nil {
		t.Fatalf("csv: %v\n%s", err, se)
	}
	counts := map[string]int{}
	for name, header := range map[string][]string{"proposals.csv": exportfmt.ProposalColumns, "items.csv": exportfmt.ItemColumns} {
		b, err := os.ReadFile(filepath.Join(out, "csv", name))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(recs) < 2 || strings.Join(recs[0], ",") != strings.Join(header, ",") {
			t.Fatalf("%s: %d records, header %v", name, len(recs), recs[0])
		}
		counts[name] = len(recs) - 1
	}

	jsonl := filepath.Join(out, "all.jsonl")
	so, se, err := run(admin.Password, "--user", admin.Email, "--format", "json", "--out", jsonl)
	if err != nil {
		t.Fatalf("json: %v\n%s", err, se)
	}
	f, err := os.Open(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	lines := 0
	var first app.ProposalDetail
	for sc.Scan() {
		var d app.ProposalDetail
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if lines == 0 {
			first = d
		}
		lines++
	}
	if lines != counts["proposals.csv"] || lines < 30 {
		t.Errorf("json: %d lines, csv %d proposals", lines, counts["proposals.csv"])
	}
	if !strings.Contains(so, "proposals written to") {
		t.Errorf("json: stdout %q", so)
	}
	// Progress is for terminals only.
	if strings.Contains(se, "Exported") {
		t.Errorf("progress written to a pipe: %q", se)
	}

	// Filters.
	_, se, err = run(admin.Password, "--user", admin.Email, "--format", "json", "--out", filepath.Join(out, "archived.jsonl"), "--archived")
	if err != nil {
		t.Fatalf("archived: %v\n%s", err, se)
	}
	b, _ := os.ReadFile(filepath.Join(out, "archived.jsonl"))
	if n := bytes.Count(b, []byte("\n")); n != 2 {
		t.Errorf("--archived: %d proposals, demo has 2", n)
	}

	// One PDF.
	pdf := filepath.Join(out, "p.pdf")
	if _, se, err := run(admin.Password, "--user", admin.Email, "--format", "client-pdf", "--proposal", app.FormatID(first.ID), "--out", pdf); err != nil {
		t.Fatalf("pdf: %v\n%s", err, se)
	}
	if b, _ := os.ReadFile(pdf); !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("client-pdf: not a PDF")
	}

	// A Viewer cannot export; nothing is written.
	_, se, err = run(viewer.Password, "--user", viewer.Email, "--format", "json", "--out", filepath.Join(out, "viewer.jsonl"))
	if err == nil || !strings.Contains(se, "only Admin users may export") {
		t.Errorf("viewer: err %v, stderr %q", err, se)
	}
	if _, err := os.Stat(filepath.Join(out, "viewer.jsonl")); err == nil {
		t.Error("viewer: a file was written")
	}
	// A bad filter is refused before anything is sent.
	if _, se, err = run(admin.Password, "--user", admin.Email, "--format", "json", "--out", "-", "--statuses", "Bogus"); err == nil {
		t.Errorf("bad status accepted: %s", se)
	}
}
