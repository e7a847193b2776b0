// Package locale makes Fyne read a C or POSIX locale with an encoding
// ("C.UTF-8", common in containers and CI) as English instead of logging
// "Error parsing user locale C" at every start. It must be imported
// (blank) by main: its init runs before Fyne's lang package reads the
// environment, because it depends only on os and strings (Go initializes
// a package as soon as its imports are, in import-path order).
package locale

import (
	"os"
	"strings"
)

func init() { Fix(os.Getenv, os.Setenv) }

// Fix sets LANGUAGE=en when the effective locale (LC_ALL, LC_MESSAGES,
// LANG: the first set) is C or POSIX with an encoding and LANGUAGE is
// empty. LANGUAGE is what Fyne's locale lookup reads next; programs
// that use gettext ignore it under a C locale, so nothing else changes.
func Fix(getenv func(string) string, setenv func(string, string) error) {
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = getenv(k); loc != "" {
			break
		}
	}
	base, _, _ := strings.Cut(loc, ".")
	base, _, _ = strings.Cut(base, "@")
	if (base == "C" || base == "POSIX") && loc != base && getenv("LANGUAGE") == "" {
		_ = setenv("LANGUAGE", "en")
	}
}
