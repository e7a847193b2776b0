// Command desktop is Proposal Desk's desktop app: a salesperson's
// offline proposal workspace that syncs with the server.
//
//	desktop [--data DIR] [--server URL | --connect FILE] [--demo-user ROLE]
//	desktop --version
//
// --connect takes the connection file `server apps create` writes, or a
// demo server's demo.json; with --demo-user the app signs in as the
// first verified user of that role in demo.json (for the demo only).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"proposaldesk"
	"proposaldesk/assets"
	_ "proposaldesk/cmd/desktop/locale" // before Fyne reads the locale
	syncer "proposaldesk/sync"
	"proposaldesk/ui"
)

const appID = "io.proposaldesk.desktop"

// The garbage collector's settings (GOGC and GOMEMLIMIT override them).
// The live heap with 10,000 proposals is about 75 MB, and about 80 MB
// with a 500-item proposal open and edited (Fyne's renderers and fonts
// are most of it). The default GOGC lets the heap grow to twice the
// live heap between collections, which a field laptop pays in memory
// for nothing, so it grows by half (gcPercent). The limit is only a
// backstop, well above the live heap: a limit of 100 MB, tried before,
// sat so close to it that the collector ran without pause once a big
// proposal was open, and a structural edit took 369 ms instead of
// 127 ms (docs/performance.md, "The garbage collector").
const (
	gcPercent   = 50
	memoryLimit = 256 << 20
)

func main() {
	start := time.Now()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	log.SetFlags(0)
	log.SetPrefix("desktop: ")
	// A back-quoted word in a flag's usage is its argument's name.
	dataDir := flag.String("data", defaultDataDir(), "`DIR` for the local data (proposals, settings)")
	server := flag.String("server", "", "server base `URL` to pre-fill on the sign-in form")
	connect := flag.String("connect", "", "connection `FILE` (from \"server apps create\") or a demo server's demo.json")
	demoUser := flag.String("demo-user", "", "with --connect DEMO.JSON, sign in as the demo user of this `ROLE` (Admin, Sales, Viewer)")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Usage = usage
	flag.Parse()
	if *showVersion {
		fmt.Printf("Proposal Desk desktop %s\n", proposaldesk.Version)
		return
	}

	opts := ui.Options{
		DataDir: *dataDir, Icon: fyne.NewStaticResource("icon.png", assets.Icon), Version: proposaldesk.Version,
		// An edit made just before the window closes is sent then, within 2 s.
		SendOnClose: 2 * time.Second,
	}
	switch {
	case *connect != "":
		c, err := syncer.LoadConnection(*connect)
		if err != nil {
			log.Fatal(err)
		}
		opts.Connection = &c
	case *server != "":
		opts.Connection = &syncer.Connection{BaseURL: *server}
	}
	if *demoUser != "" {
		if *connect == "" {
			log.Fatal("--demo-user needs --connect with a demo server's demo.json")
		}
		login, err := ui.DemoLogin(*connect, *demoUser)
		if err != nil {
			log.Fatal(err)
		}
		opts.AutoSignIn = login
	}
	if err := os.MkdirAll(*dataDir, 0o700); err != nil {
		log.Fatal(err)
	}

	a := steady(fyneapp.NewWithID(appID))
	markMigratedToFyneDo(a)
	a.SetIcon(opts.Icon)
	d := ui.New(a, opts)
	takeSignals := orderlyQuit(a, d)
	startupLog := os.Getenv("PD_STARTUP_LOG") != ""
	a.Lifecycle().SetOnStarted(func() {
		takeSignals()
		if startupLog {
			fmt.Fprintf(os.Stderr, "desktop: window shown %d ms after start\n", time.Since(start).Milliseconds())
		}
	})
	if startupLog {
		go logWorkspace(d, start, startProfile())
	}
	if os.Getenv("PD_SMOKE_ITEMS") != "" {
		go smokeItems(d)
	}
	if search := os.Getenv("PD_SMOKE_PICKER"); search != "" {
		go smokePicker(d, search)
	}
	if signer := os.Getenv("PD_SMOKE_PRESENT"); signer != "" {
		go smokePresent(d, signer)
	}
	if name := os.Getenv("PD_SMOKE_REMOTE_NAME"); name != "" {
		go smokeRemote(d, name)
	}
	if search := os.Getenv("PD_SMOKE_PACKAGE"); search != "" {
		go smokePackage(d, search)
	}
	if path := os.Getenv("PD_SMOKE_REPORT"); path != "" {
		go smokeReport(d, path, os.Getenv("PD_SMOKE_OPEN") != "", os.Getenv("PD_SMOKE_EXPORT") != "", os.Getenv("PD_SMOKE_CONTACT") != "")
	}
	d.Window().ShowAndRun()
}

// markMigratedToFyneDo tells Fyne that the app reaches widgets only on
// the UI goroutine (other goroutines go through fyne.Do, see ui/doc.go),
// as FyneApp.toml's [Migrations] does for a packaged build. Without it
// Fyne checks the calling goroutine on every refresh by formatting a
// stack trace: a tenth of the time of a search keystroke.
func markMigratedToFyneDo(a fyne.App) {
	m := a.Metadata()
	m.Migrations = maps.Clone(m.Migrations)
	if m.Migrations == nil {
		m.Migrations = map[string]bool{}
	}
	m.Migrations["fyneDo"] = true
	fyneapp.SetMetadata(m)
}

// usage prints the flags as the README writes them: --name ARG.
func usage() {
	w := flag.CommandLine.Output()
	fmt.Fprintln(w, "Usage: desktop [--data DIR] [--server URL | --connect FILE] [--demo-user ROLE] | --version")
	flag.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s %s\n    \t%s", f.Name, arg, text)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// smokeReport writes what the window shows to path once the app has
// signed in and synced (or failed to sign in), for the smoke test of
// the real binary under Xvfb. openFirst opens the first proposal, export
// then opens the export dialog, contact the new-customer form (the
// script types into it). The report is written again every half second,
// so the script can read what its typing led to.
func smokeReport(d *ui.Desktop, path string, openFirst, export, contact bool) {
	// Under Wine on a loaded 2-core machine signing in and the first sync
	// can take longer than natively: PD_SMOKE_WAIT (a duration) waits
	// longer.
	wait := 45 * time.Second
	if d, err := time.ParseDuration(os.Getenv("PD_SMOKE_WAIT")); err == nil {
		wait = d
	}
	deadline := time.Now().Add(wait)
	var snap ui.Snapshot
	for time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
		failed := !snap.SignedIn && snap.SignInMessage != "" && !strings.HasPrefix(snap.SignInMessage, "Signing in")
		if failed || snap.Synced {
			break
		}
	}
	if openFirst && snap.Synced {
		fyne.DoAndWait(d.OpenFirst)
		time.Sleep(time.Second)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
	}
	if export && snap.Synced {
		fyne.DoAndWait(d.Export) // the export dialog (Ctrl+E), for its screenshot
		time.Sleep(time.Second)
		fyne.DoAndWait(func() { snap = d.Snapshot() })
	}
	if contact && snap.Synced {
		fyne.DoAndWait(d.NewCustomer)
	}
	for {
		fyne.DoAndWait(func() { snap = d.Snapshot() })
		data, _ := json.MarshalIndent(snap, "", "  ")
		// Written aside and renamed: the script never reads half a file.
		if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
			log.Print(err)
			return
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			log.Print(err)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// smokeRemote renames the open proposal on the server, with its name
// field focused, once one is open: the smoke run's screenshot of a
// remote change to the focused field.
func smokeRemote(d *ui.Desktop, name string) {
	for range 180 {
		time.Sleep(250 * time.Millisecond)
		var open string
		fyne.DoAndWait(func() { open = d.Snapshot().Open })
		if open != "" {
			time.Sleep(500 * time.Millisecond)
			fyne.DoAndWait(func() { d.SmokeRemoteRename(name) })
			return
		}
	}
}

// smokeItems scrolls to the open proposal's items once one is open, for
// the smoke run's screenshot of a proposal with items.
func smokeItems(d *ui.Desktop) {
	for range 180 {
		time.Sleep(250 * time.Millisecond)
		var open string
		fyne.DoAndWait(func() { open = d.Snapshot().Open })
		if open != "" {
			time.Sleep(500 * time.Millisecond)
			fyne.DoAndWait(d.ShowItems)
			return
		}
	}
}

// smokePresent presents a proposal to the client once the first sync
// is done, with signer's name typed and a signature drawn: the smoke
// run's screenshot of the present mode.
func smokePresent(d *ui.Desktop, signer string) {
	for range 240 {
		time.Sleep(250 * time.Millisecond)
		var shown bool
		fyne.DoAndWait(func() {
			// After the smoke report has opened its first proposal.
			snap := d.Snapshot()
			shown = snap.Synced && snap.Open != "" && d.SmokePresent(signer)
		})
		if shown {
			return
		}
	}
}

// smokePicker opens the catalog picker with search typed once a
// proposal is open and the catalog is on this computer.
func smokePicker(d *ui.Desktop, search string) {
	for range 240 {
		time.Sleep(250 * time.Millisecond)
		var shown bool
		fyne.DoAndWait(func() { shown = d.Snapshot().Open != "" && d.ShowPicker(search) })
		if shown {
			return
		}
	}
}

// smokePackage adds the first catalog match of search (a package) to the
// open proposal's first option once the catalog is on this computer,
// and logs what the picker said, for the smoke run's screenshot.
func smokePackage(d *ui.Desktop, search string) {
	for range 240 {
		time.Sleep(250 * time.Millisecond)
		var said string
		fyne.DoAndWait(func() {
			if d.Snapshot().Open != "" {
				said = d.AddPackageForShot(search)
			}
		})
		if said != "" {
			log.Printf("smoke: package: %s", said)
			return
		}
	}
}

// defaultDataDir is the OS's per-user config folder: %AppData% on
// Windows (roaming, so a domain profile carries it), ~/.config on Linux,
// ~/Library/Application Support on macOS.
func defaultDataDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ".proposal-desk"
	}
	return filepath.Join(dir, "ProposalDesk")
}
