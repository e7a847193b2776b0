// Package pdftext reads the text of a PDF with poppler's pdftotext, for
// the tests of the packages that write PDFs (app/report, apiserver, ui).
//
// Where pdftotext is missing the calling test is skipped, unless
// PD_REQUIRE_PDFTOTEXT=1 (scripts/test.sh sets it, as CI runs it): then a
// missing tool fails the test instead of hiding every PDF check.
package pdftext

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// RequireEnv is the variable that turns a missing pdftotext into a
// failure.
const RequireEnv = "PD_REQUIRE_PDFTOTEXT"

// Text is the UTF-8 text of pdf.
func Text(t testing.TB, pdf []byte) string {
	t.Helper()
	cmd := exec.Command(Tool(t), "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// File is the UTF-8 text of the PDF file at path.
func File(t testing.TB, path string) string {
	t.Helper()
	pdf, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read PDF: %v", err)
	}
	return Text(t, pdf)
}

// Tool is pdftotext's path. A missing tool skips the test, or fails it
// when RequireEnv is "1".
func Tool(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1 but pdftotext is not installed (Debian: poppler-utils; scripts/setup-debian.sh installs it): %v", RequireEnv, err)
		}
		t.Skip("pdftotext not installed (Debian: poppler-utils; scripts/setup-debian.sh installs it)")
	}
	return bin
}

// Images counts the images drawn in pdf, by poppler's pdfimages -list
// (an image with a soft mask counts once). Unlike Text it never skips:
// a missing pdfimages fails the test, since the count is its point.
func Images(t testing.TB, pdf []byte) int {
	t.Helper()
	bin, err := exec.LookPath("pdfimages")
	if err != nil {
		t.Fatalf("pdfimages is not installed (Debian: poppler-utils; scripts/setup-debian.sh installs it): %v", err)
	}
	f, err := os.CreateTemp(t.TempDir(), "*.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(pdf); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-list", f.Name()).Output()
	if err != nil {
		t.Fatalf("pdfimages: %v", err)
	}
	// A header line and a rule, then one line per image; smask lines
	// are an image's transparency, not another image.
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fields := strings.Fields(line); i >= 2 && len(fields) > 2 && fields[2] != "smask" {
			n++
		}
	}
	return n
}
