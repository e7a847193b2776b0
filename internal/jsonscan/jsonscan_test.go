package jsonscan

import "testing"

// ValueEnd ends each value where encoding/json would, whatever brackets
// and quotes its strings hold, and fails on a value left open.
func TestValueEnd(t *testing.T) {
	tests := []struct {
		in   string
		want int // -1: an error
	}{
		{`"a"x`, 3},
		{`"a\"b\\"x`, 8},
		{`{"a":"}]"}x`, 10},
		{`[1,[2,{"b":"["}],3] x`, 19},
		{`-12.5e3,`, 7},
		{`true}`, 4},
		{`null`, 4},
		{`{"a":[1}`, -1},
		{`"abc`, -1},
		{`,`, -1},
		{``, -1},
	}
	for _, tc := range tests {
		got, err := ValueEnd([]byte(tc.in), 0)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("%q: no error (end %d)", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %d %v, want %d", tc.in, got, err, tc.want)
		}
	}
}
