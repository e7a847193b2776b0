package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"
)

// AppendJSON writes the same bytes as json.Marshal for the stored
// proposal and for the API's details, whose every field (found by
// reflection, so a field added later is covered) takes random values:
// zero and not, nil and empty slices and maps, strings that need
// escaping, far dates.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		newValue func() jsonAppender
	}{
		{"proposal", func() jsonAppender { return new(Proposal) }},
		{"proposal detail", func() jsonAppender { return new(ProposalDetail) }},
		{"change order detail", func() jsonAppender { return new(ChangeOrderDetail) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(11))
			for i := range 300 {
				v := tc.newValue()
				fillRandom(rng, reflect.ValueOf(v).Elem(), 0)
				assertAppendJSON(t, fmt.Sprintf("value %d", i), v)
			}
		})
	}
}

// jsonAppender is a type with a hand-written encoder held equal to
// json.Marshal.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// assertAppendJSON checks that v.AppendJSON appends json.Marshal(v) to
// what the buffer held.
func assertAppendJSON(t *testing.T, name string, v jsonAppender) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.AppendJSON([]byte("x"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got[0] != 'x' {
		t.Fatalf("%s: the buffer's first byte became %q", name, got[0])
	}
	if got = got[1:]; !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: differs at byte %d:\n got …%s\nwant …%s", name, i, window(got, i), window(want, i))
	}
}

// window is b around offset i, for a readable failure.
func window(b []byte, i int) []byte {
	return b[max(0, i-60):min(len(b), i+60)]
}

var jsonStrings = []string{"", "Part", `say "hi"`, `back\slash`, "<b>&</b>", "tab\there", "é ünïcode", "\u2028", "bad \xff utf8", "new\nline"}

var timeType = reflect.TypeFor[Time]()

// fillRandom sets v to a random value, recursing into structs, slices,
// pointers and maps (depth bounds the nesting; the
// detail's items sit eight levels down).
func fillRandom(rng *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == timeType {
		switch rng.Intn(3) {
		case 0:
			v.Set(reflect.ValueOf(Time{}))
		case 1:
			v.Set(reflect.ValueOf(At(time.Unix(rng.Int63n(4e9), rng.Int63n(1e9)))))
		default:
			v.Set(reflect.ValueOf(At(time.Date(10000+rng.Intn(5), 1, 2, 3, 4, 5, 0, time.UTC))))
		}
		return
	}
	switch v.Kind() {
	case reflect.Int64, reflect.Int, reflect.Int32:
		if rng.Intn(3) > 0 {
			v.SetInt(rng.Int63n(2e9) - 1e9)
		}
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.String:
		v.SetString(jsonStrings[rng.Intn(len(jsonStrings))])
	case reflect.Pointer:
		if depth < 12 && rng.Intn(2) == 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fillRandom(rng, v.Elem(), depth+1)
		}
	case reflect.Slice:
		n := rng.Intn(4) - 1 // -1: nil
		if n < 0 || depth > 12 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fillRandom(rng, v.Index(i), depth+1)
		}
	case reflect.Map:
		n := rng.Intn(5) - 1 // -1: nil; 0: empty
		if n < 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range n {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(rng, k, depth+1)
			fillRandom(rng, e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(rng, v.Field(i), depth+1)
			}
		}
	}
}

// BenchmarkEncodeProposal compares AppendJSON with json.Marshal on a
// proposal of 500 items and on the load command's create-area case, 20
// areas of one option each and no items (the document's own fields weigh
// most).
func BenchmarkEncodeProposal(b *testing.B) {
	for _, shape := range []struct {
		name                  string
		areas, options, items int
	}{{"500items", 5, 1, 100}, {"20areas", 20, 1, 0}} {
		p := benchProposal(shape.areas, shape.options, shape.items)
		b.Run(shape.name+"/marshal", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(shape.name+"/append", func(b *testing.B) {
			for b.Loop() {
				if _, err := p.AppendJSON(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
