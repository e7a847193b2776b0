package app

import (
	"maps"
	"net/url"
	"slices"
	"strings"
)

// queryParams reads request parameters whose names match in any letter
// case (the contract's rule).
type queryParams url.Values

// all is every value of the parameter, under any spelling of its name;
// the spellings in sorted order, so the result never depends on the
// map's order.
func (p queryParams) all(name string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if strings.EqualFold(k, name) {
			out = append(out, p[k]...)
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
