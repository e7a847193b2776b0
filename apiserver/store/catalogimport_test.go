package store

import "testing"

func TestCategoryKey(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Lighting", "lighting"},
		{"  LIGHTING ", "lighting"},
		{"Home Theater", "home theater"},
		{"", ""},
		{" \t", ""},
		{"Éclairage", "éclairage"},
	} {
		if got := CategoryKey(c.name); got != c.want {
			t.Errorf("CategoryKey(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
