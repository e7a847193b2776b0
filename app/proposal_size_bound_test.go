package app

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// fillParts sets every string field of v (an area, option or item) to s
// and every whole-number field to its largest value: the longest a part
// can encode with texts of that length. A field added to Area, Option or
// Item that sizeBound does not count makes the encoding pass the bound.
func fillParts(v reflect.Value, s string) {
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			if f.Type() == reflect.TypeFor[string]() {
				f.SetString(s)
			}
		case reflect.Int64:
			f.SetInt(math.MaxInt64 / 1000) // amounts stay in range of their formatting
		case reflect.Bool:
			f.SetBool(true)
		}
	}
}

func TestSizeBoundCoversTheEncoding(t *testing.T) {
	for _, text := range []string{"", "plain words", strings.Repeat("\x01", 300), strings.Repeat("é\"<", 100)} {
		p := &Proposal{}
		p.Name, p.ProjectTerms = text, text
		for a := range 3 {
			area := Area{ID: int64(a + 1)}
			fillParts(reflect.ValueOf(&area).Elem(), text)
			area.Options = nil
			for o := range 2 {
				opt := Option{}
				fillParts(reflect.ValueOf(&opt).Elem(), text)
				opt.Items = nil
				for range 20 {
					it := Item{}
					fillParts(reflect.ValueOf(&it).Elem(), text)
					c := Money(math.MaxInt64 / 1000)
					it.Cost = &c
					opt.Items = append(opt.Items, it)
				}
				_ = o
				area.Options = append(area.Options, opt)
			}
			p.Areas = append(p.Areas, area)
		}
		n, err := encodedSize(p)
		if err != nil {
			t.Fatal(err)
		}
		if b := sizeBound(p); b < n {
			t.Errorf("texts %q…: bound %d below the encoding's %d bytes", text[:min(len(text), 8)], b, n)
		}
	}
}
