package apiserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// wantHidden is what hideCostsJSON must give for doc: the decoded
// proposal with app.Proposal.HideCosts applied.
func checkHideCostsJSON(t *testing.T, name string, doc []byte) {
	t.Helper()
	var want app.Proposal
	if err := json.Unmarshal(doc, &want); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want.HideCosts()
	out, err := hideCostsJSON([]byte("prefix"), doc)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, ok := bytes.CutPrefix(out, []byte("prefix"))
	if !ok {
		t.Fatalf("%s: the prefix in dst was not kept", name)
	}
	var got app.Proposal
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v in %s", name, err, out)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the bytes decode to\n%+v\nHideCosts gives\n%+v", name, got, want)
	}
}

// demoDocs are the stored JSON of every proposal of the demo account.
func demoDocs(t testing.TB) [][]byte {
	t.Helper()
	e, a := demoFixture(t)
	var docs [][]byte
	if err := e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		if err != nil {
			return err
		}
		return tx.ProposalsJSON(ids, func(_ int64, doc []byte) error {
			docs = append(docs, bytes.Clone(doc))
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return docs
}

// Over every proposal of the demo account (stored JSON, and as
// PostgreSQL's text spaces it), and over proposals made to mislead a
// search of the text, the bytes are exactly HideCosts.
func TestHideCostsJSONEqualsHideCosts(t *testing.T) {
	docs := demoDocs(t)
	costs := 0
	for _, doc := range docs {
		costs += bytes.Count(doc, []byte(`"cost":`)) - bytes.Count(doc, []byte(`"cost":null`))
	}
	if len(docs) < 10 || costs == 0 {
		t.Fatalf("the demo account has %d proposals with %d costs", len(docs), costs)
	}
	for _, doc := range docs {
		checkHideCostsJSON(t, "demo", doc)
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, doc, " ", "\t"); err != nil {
			t.Fatal(err)
		}
		checkHideCostsJSON(t, "demo, spaced", spaced.Bytes())
	}

	misleading := `{"id":7,"name":"\"cost\":12.00, \"areas\":[","internalNotes":"cost","fieldVersions":{"cost":3,"items/9/cost":4},
		"customer":{"cost":1},"areas":[{"id":1,"name":"cost","cost":5,"options":[{"id":2,"cost":6,"items":[
			{"id":3,"name":"{\"cost\":1}","cost":19.99,"sellPrice":25.00},
			{"id":4,"Cost":7.5},
			{"id":5,"co\u0073t":8.25,"clientNote":"]}"},
			{"id":6,"cost":null}]}]}],
		"changeOrders":[{"id":8,"areas":[{"id":9,"options":[{"id":10,"items":[{"id":11,"cost":3.00}]}]}]}]}`
	checkHideCostsJSON(t, "misleading", []byte(misleading))
	out, _ := hideCostsJSON(nil, []byte(misleading))
	for _, kept := range []string{`"fieldVersions":{"cost":3,"items/9/cost":4}`, `"customer":{"cost":1}`, `"name":"cost","cost":5`, `"id":2,"cost":6`} {
		if !bytes.Contains(out, []byte(kept)) {
			t.Errorf("%s was changed: %s", kept, out)
		}
	}
	for _, cost := range []string{"19.99", "7.5", "8.25", "3.00"} {
		if bytes.Contains(out, []byte(cost)) {
			t.Errorf("the cost %s is still there: %s", cost, out)
		}
	}

	for _, bad := range []string{``, `{"areas":[{"options":[{"items":[{"cost":1}]}]}`, `{"a":1} {}`, `{"a" 1}`, `{"a":"x}`, `{"a":1,}`} {
		if out, err := hideCostsJSON(nil, []byte(bad)); err == nil {
			t.Errorf("%q: no error, gave %s", bad, out)
		}
	}
}
