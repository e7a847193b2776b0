// Package compat holds only tests: a client written the way public
// Portal clients are written, with its own request signing (it never
// imports app/signing), run against the real server on loopback. It is
// the check that clients made for Portal work with this server unchanged.
package compat
