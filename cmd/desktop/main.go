// Command desktop is Proposal Desk's desktop app: a salesperson's
// offline proposal workspace that syncs with the server.
//
//	desktop [--data DIR] [--server URL | --connect FILE] [--demo-user ROLE]
//
// --connect takes the connection file `server apps create` writes, or a
// demo server's demo.json; with --demo-user the app signs in as the
// first verified user of that role in demo.json (for the demo only).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"proposaldesk/assets"
	syncer "proposaldesk/sync"
	"proposaldesk/ui"
)

const appID = "io.proposaldesk.desktop"

func main() {
	start := time.Now()
	log.SetFlags(0)
	log.SetPrefix("desktop: ")
	dataDir := flag.String("data", defaultDataDir(), "folder for the local data (proposals, settings)")
	server := flag.String("server", "", "server base URL to pre-fill on the sign-in form")
	connect := flag.String("connect", "", "connection file (from `server apps create`) or a demo server's demo.json")
	demoUser := flag.String("demo-user", "", "with --connect DEMO.JSON: sign in as the demo user of this role (Admin, Sales, Viewer)")
	flag.Parse()

	opts := ui.Options{DataDir: *dataDir, Icon: fyne.NewStaticResource("icon.png", assets.Icon)}
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

	a := fyneapp.NewWithID(appID)
	a.SetIcon(opts.Icon)
	d := ui.New(a, opts)
	if os.Getenv("PD_STARTUP_LOG") != "" {
		a.Lifecycle().SetOnStarted(func() {
			fmt.Fprintf(os.Stderr, "desktop: window shown %d ms after start\n", time.Since(start).Milliseconds())
		})
	}
	d.Window().ShowAndRun()
}

// defaultDataDir is the OS's per-user config folder.
func defaultDataDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ".proposal-desk"
	}
	return filepath.Join(dir, "ProposalDesk")
}
