package spec_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"proposaldesk/apiserver/openapi"
	"proposaldesk/apiserver/openapi/spec"
)

// TestCommittedDocumentIsGenerated: the committed openapi.json (the one
// the server embeds and serves) is exactly what the generator makes now.
func TestCommittedDocumentIsGenerated(t *testing.T) {
	want, err := spec.Build()
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile("../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"openapi.json": onDisk, "openapi.JSON()": openapi.JSON()} {
		if bytes.Equal(got, want) {
			continue
		}
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := line(gl, i), line(wl, i)
			if g != w {
				t.Fatalf("%s is not what the generator makes (run go generate ./apiserver/openapi); first difference at line %d:\ncommitted: %s\ngenerated: %s", name, i+1, g, w)
			}
		}
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}

// TestBuildIsDeterministic: two builds are byte-identical (maps in the
// generator never decide the order of anything).
func TestBuildIsDeterministic(t *testing.T) {
	a, err := spec.Build()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, err := spec.Build()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatal("two builds differ")
		}
	}
}
