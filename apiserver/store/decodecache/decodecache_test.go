package decodecache

import (
	"testing"

	"proposaldesk/app"
)

func TestDecodeCacheServesOnlyTheBytesItWasGiven(t *testing.T) {
	c := New(4, func(p app.Proposal) app.Proposal { return *p.Clone() })
	v1 := []byte(`{"id":1,"name":"Theater","areas":[{"id":2,"name":"Rack","options":[]}]}`)
	v2 := []byte(`{"id":1,"name":"Theater v2","areas":[]}`)

	p, err := c.Decode("1", v1)
	if err != nil || p.Name != "Theater" {
		t.Fatalf("first decode = %q, %v", p.Name, err)
	}
	// A caller changing what it got changes nothing cached.
	p.Name = "scribbled"
	p.Areas[0].Name = "scribbled"
	again, _ := c.Decode("1", v1)
	if again.Name != "Theater" || again.Areas[0].Name != "Rack" {
		t.Errorf("cached value was changed through a returned copy: %q / %q", again.Name, again.Areas[0].Name)
	}
	// New bytes under the same key are decoded, never answered from cache.
	if p, _ := c.Decode("1", v2); p.Name != "Theater v2" {
		t.Errorf("after a write got %q, want the new record", p.Name)
	}
	// Bad bytes are an error, not a cached value.
	if _, err := c.Decode("1", []byte(`{`)); err == nil {
		t.Error("malformed record decoded without error")
	}
	// The cache stays bounded.
	for i := range 20 {
		c.Decode(string(rune('a'+i)), v2)
	}
	if n := c.Len(); n > 4 {
		t.Errorf("cache holds %d items, bound is 4", n)
	}
}
