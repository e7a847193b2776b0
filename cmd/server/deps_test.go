package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestServerLinksNoDesktopCode fails when the server binary, or the API
// client it shares with the desktop, depends on the desktop's store, sync
// engine, UI or OS keyring (which would link D-Bus into the server).
func TestServerLinksNoDesktopCode(t *testing.T) {
	// A trailing "/..." forbids the packages under the path too.
	forbidden := []string{
		"proposaldesk/localstore/...",
		"proposaldesk/sync", // the engine; sync/apiclient is the shared client
		"proposaldesk/ui/...",
		"github.com/zalando/go-keyring/...",
		"github.com/godbus/dbus/...",
		"fyne.io/fyne/...",
	}
	for _, pkg := range []string{"proposaldesk/cmd/server", "proposaldesk/sync/apiclient"} {
		t.Run(pkg, func(t *testing.T) {
			deps := goListDeps(t, pkg)
			if !deps["proposaldesk/app"] {
				t.Fatalf("go list -deps %s does not list proposaldesk/app: %v", pkg, deps)
			}
			for dep := range deps {
				for _, f := range forbidden {
					root, tree := strings.CutSuffix(f, "/...")
					if dep == root || tree && strings.HasPrefix(dep, root+"/") {
						t.Errorf("%s depends on %s", pkg, dep)
					}
				}
			}
		})
	}
}

// goListDeps is the set of packages pkg depends on, itself included, as
// the go command of this toolchain lists them.
func goListDeps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the server's dependencies: %v", err)
	}
	out, err := exec.Command(goCmd, "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		deps[line] = true
	}
	return deps
}
