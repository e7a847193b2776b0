package spec

import (
	"reflect"
	"strings"
	"testing"

	"proposaldesk/app"
)

type sample struct {
	Base
	Price  app.Money    `json:"price"`
	Qty    app.Quantity `json:"qty"`
	When   app.Time     `json:"when"`
	Cost   *app.Money   `json:"cost"`
	Status app.Status   `json:"status"`
	Parent *Base        `json:"parent"`
	Items  []Base       `json:"items"`
	Note   string       `json:"note,omitempty"`
	Ref    app.NullID   `json:"ref"`
	Hidden string       `json:"-"`
	Count  int          `json:"count"`
	Inline struct{ A bool }
}

type Base struct {
	ID int64 `json:"id"`
}

// TestReflectionRules: each Go type becomes the schema the document
// promises for it.
func TestReflectionRules(t *testing.T) {
	r := newReflector([]named{{name: "Base", typ: reflect.TypeFor[Base]()}},
		[]enum{enumType("Status", app.Statuses, "")})
	s, err := r.object(reflect.TypeFor[sample](), map[string]any{"price": "The price."})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got := string(raw)
	for _, want := range []string{
		`{"allOf":[{"$ref":"#/components/schemas/Base"},{"type":"object","properties":{`,
		`"price":{"type":"number","description":"The price."}`,
		`"qty":{"type":"number","description":"` + quantityDoc + `"}`,
		`"when":{"type":["string","null"],"format":"date-time"`,
		`"cost":{"type":["number","null"]`,
		`"status":{"$ref":"#/components/schemas/Status"}`,
		`"parent":{"oneOf":[{"$ref":"#/components/schemas/Base"},{"type":"null"}]}`,
		`"items":{"type":"array","items":{"$ref":"#/components/schemas/Base"}}`,
		`"ref":{"type":["integer","null"],"format":"int64"}`,
		`"count":{"type":"integer"}`,
		`"Inline":{"type":"object","properties":{"A":{"type":"boolean"}},"required":["A"]}`,
		`"required":["price","qty","when","cost","status","parent","items","ref","count","Inline"]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("schema lacks %s\n in %s", want, got)
		}
	}
	for _, absent := range []string{"Hidden", `"required":["id"`} {
		if strings.Contains(got, absent) {
			t.Errorf("schema has %s: %s", absent, got)
		}
	}
}

func TestReflectionRefusesUnknownDescriptions(t *testing.T) {
	r := newReflector(nil, nil)
	_, err := r.object(reflect.TypeFor[Base](), map[string]any{"ghost": "No such field."})
	if err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Fatalf("err = %v, want one naming the unknown field", err)
	}
	_, err = r.object(reflect.TypeFor[struct {
		M map[int]string `json:"m"`
	}](), nil)
	if err == nil {
		t.Fatal("a map[int]string was described; JSON objects have string keys")
	}
}
