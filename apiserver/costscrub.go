package apiserver

import (
	"bytes"
	"encoding/json"
	"strings"

	"proposaldesk/internal/jsonscan"
)

// hideCostsJSON appends to dst the stored proposal doc (app.Proposal's
// JSON) with the value of every item's cost replaced by null: what
// decoding it, app.Proposal.HideCosts and encoding it again give, read
// and written as bytes. A reader without ViewCosts syncing the account
// was a decode and an encode per proposal on the server (about 1 ms
// each). Only the items' own members named cost are touched (in
// areas[].options[].items[], the proposal's and each change order's;
// keys in any letter case, as encoding/json matches them), found by
// following the document's structure, never by searching its text: a
// name or a map key that says "cost" stays as it is.
// TestHideCostsJSONEqualsHideCosts holds it to HideCosts.
func hideCostsJSON(dst, doc []byte) ([]byte, error) {
	w := costWalker{b: doc}
	end, err := w.value(jsonscan.SkipSpace(doc, 0), levelProposal)
	if err == nil {
		err = jsonscan.End(doc, end)
	}
	if err != nil {
		return dst, err
	}
	from := 0
	for _, s := range w.costs {
		dst = append(dst, doc[from:s[0]]...)
		dst = append(dst, "null"...)
		from = s[1]
	}
	return append(dst, doc[from:]...), nil
}

// What an object of the proposal is, as far as its items' costs go.
type costLevel int

const (
	levelOther costLevel = iota
	levelProposal
	levelChangeOrder
	levelArea
	levelOption
	levelItem
)

// childLevel is the level of the objects in the member key of an object
// at level l (directly or as the elements of an array).
func childLevel(l costLevel, key []byte) costLevel {
	switch {
	case (l == levelProposal || l == levelChangeOrder) && keyIs(key, "areas"):
		return levelArea
	case l == levelProposal && keyIs(key, "changeOrders"):
		return levelChangeOrder
	case l == levelArea && keyIs(key, "options"):
		return levelOption
	case l == levelOption && keyIs(key, "items"):
		return levelItem
	}
	return levelOther
}

// keyIs reports whether the quoted key is name, in any letter case as
// encoding/json matches keys.
func keyIs(key []byte, name string) bool {
	raw := key[1 : len(key)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.EqualFold(raw, []byte(name))
	}
	var s string
	return json.Unmarshal(key, &s) == nil && strings.EqualFold(s, name)
}

// costWalker finds the spans of the items' cost values in b.
type costWalker struct {
	b     []byte
	costs [][2]int
}

// value walks the value at b[i], at level l if it is an object or holds
// objects, and returns the index after it. Values that hold no items
// are skipped, not walked.
func (w *costWalker) value(i int, l costLevel) (int, error) {
	switch {
	case l == levelOther || i >= len(w.b):
		return jsonscan.ValueEnd(w.b, i)
	case w.b[i] == '[':
		return jsonscan.Array(w.b, i, func(el int) (int, error) { return w.value(el, l) })
	case w.b[i] != '{':
		return jsonscan.ValueEnd(w.b, i)
	}
	return jsonscan.Object(w.b, i, func(key []byte, v int) (int, error) {
		if l == levelItem && keyIs(key, "cost") {
			end, err := jsonscan.ValueEnd(w.b, v)
			if err == nil {
				w.costs = append(w.costs, [2]int{v, end})
			}
			return end, err
		}
		return w.value(v, childLevel(l, key))
	})
}
