// Package assets holds the desktop app's embedded files: the icon
// (drawn by gen_icon.go; regenerate with `go generate ./assets`).
package assets

import _ "embed"

//go:generate go run gen_icon.go

// Icon is the app icon, a 512×512 PNG.
//
//go:embed icon.png
var Icon []byte
