package pdftext

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingTool runs this test binary again with a PATH that has no
// pdftotext: the child's Tool call skips, or fails when RequireEnv is
// set.
func TestMissingTool(t *testing.T) {
	if os.Getenv("PDFTEXT_CHILD") == "1" {
		Tool(t)
		return
	}
	for _, c := range []struct {
		require string
		fails   bool
		says    string
	}{
		{"", false, "--- SKIP"},
		{"0", false, "--- SKIP"},
		{"1", true, RequireEnv + "=1 but pdftotext is not installed"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingTool$", "-test.v")
		cmd.Env = append(os.Environ(), "PDFTEXT_CHILD=1", "PATH="+t.TempDir(), RequireEnv+"="+c.require)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != c.fails || !strings.Contains(string(out), c.says) {
			t.Errorf("%s=%q: failed %v, want %v, output lacks %q:\n%s", RequireEnv, c.require, failed, c.fails, c.says, out)
		}
	}
}
