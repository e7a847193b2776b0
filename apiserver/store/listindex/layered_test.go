package listindex

import "testing"

func TestLayeredWith(t *testing.T) {
	l := NewLayered(map[int]string{1: "a", 2: "b"})
	for _, tc := range []struct {
		name     string
		deltaMax int
	}{{"as a delta", 8}, {"merged into a new base", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			first := l.With(map[int]string{2: "B", 3: "C"}, tc.deltaMax)
			if merged := len(first.delta) == 0; merged != (tc.deltaMax < 2) {
				t.Errorf("delta %v after two changes with deltaMax %d", first.delta, tc.deltaMax)
			}
			m := first.With(map[int]string{4: "D"}, tc.deltaMax)
			for k, want := range map[int]string{1: "a", 2: "B", 3: "C", 4: "D"} {
				if v, ok := m.Get(k); !ok || v != want {
					t.Errorf("Get(%d) = %q, %v; want %q", k, v, ok, want)
				}
			}
			if _, ok := m.Get(5); ok {
				t.Error("Get(5) found a key never set")
			}
			all := map[int]string{}
			for k, v := range m.All() {
				if _, twice := all[k]; twice {
					t.Errorf("All yields %d twice", k)
				}
				all[k] = v
			}
			if len(all) != 4 || m.Len() != 4 || all[2] != "B" {
				t.Errorf("All = %v, Len = %d; want the 4 keys, 2 as B", all, m.Len())
			}
			// The older version is untouched.
			if v, _ := l.Get(2); v != "b" {
				t.Errorf("the base's 2 became %q", v)
			}
			if _, ok := l.Get(3); ok {
				t.Error("the base gained 3")
			}
		})
	}
}
