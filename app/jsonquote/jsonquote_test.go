package jsonquote

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// randomStrings are strings made of every kind of piece the escaping
// tells apart.
func randomStrings(n int) []string {
	pieces := []string{"a", "Z9 ", "\x00", "\x1f", "\b", "\f", "\n", "\r", "\t", "\"", "\\", "<", ">", "&",
		"\x7f", "é", "€", "😀", "\u2028", "\u2029", "\xff", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	rng := rand.New(rand.NewSource(5))
	out := make([]string, n)
	for i := range out {
		var s strings.Builder
		for range rng.Intn(8) {
			s.WriteString(pieces[rng.Intn(len(pieces))])
		}
		out[i] = s.String()
	}
	return out
}

func TestAppendMarshalMatchesMarshal(t *testing.T) {
	for _, s := range randomStrings(5000) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendMarshal([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("%q: got %s, want %s", s, got[1:], want)
		}
	}
}
