package app

import (
	"net/url"
	"strings"
)

// queryParams reads request parameters whose names match in any letter
// case (the contract's rule).
type queryParams url.Values

// all is every value of the parameter, under any spelling of its name.
func (p queryParams) all(name string) []string {
	var out []string
	for k, vs := range p {
		if strings.EqualFold(k, name) {
			out = append(out, vs...)
		}
	}
	return out
}

// first is the parameter's first value, trimmed; false when absent or
// blank.
func (p queryParams) first(name string) (string, bool) {
	vs := p.all(name)
	if len(vs) == 0 || strings.TrimSpace(vs[0]) == "" {
		return "", false
	}
	return strings.TrimSpace(vs[0]), true
}
