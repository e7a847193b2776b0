// Package proposaldesk holds what every part of Proposal Desk shares
// about the release itself: its version number.
package proposaldesk

import (
	_ "embed"
	"strings"
)

// VERSION is the one place the version number is written. It is embedded
// rather than set with -ldflags -X so that a plain `go build`, `go run`
// and the packaging scripts all agree without passing flags, and a
// Windows cross build reuses its cache with the same flags every time.
//
//go:embed VERSION
var versionFile string

// Version is the release version (semantic versioning, no leading v).
var Version = strings.TrimSpace(versionFile)
