package app

import (
	"reflect"
	"slices"
	"testing"
)

// detailJSONFields is how many fields each struct of the details' tree
// has as detail_json.go writes it. A field added to one of them must be
// written there too; then its count here is raised.
var detailJSONFields = map[string]int{
	"ProposalDetail": 6, "ChangeOrderDetail": 2, "DocumentView": 24,
	"Customer": 2, "Contact": 9, "Location": 9, "Dealer": 6, "Salesperson": 4,
	"AreaView": 3, "OptionView": 8, "ItemView": 23, "ItemTotal": 3, "Currency": 2,
	"Profit": 7, "RecurringServices": 2, "RecurringServiceItem": 4,
	"PaymentScheduleView": 2, "PaymentView": 3, "PaymentDue": 2, "PaymentRequest": 6,
	"PersonName": 2, "FinancialSummary": 13, "ChangeOrderFinancialSummary": 11,
	"SalesTax": 3, "TaxCalculation": 20, "ChangeOrderSummary": 9, "ChangeOrderTotal": 2,
}

// The random test would miss a new field that omitempty leaves out of
// most values, or one of a type it does not fill: count them all.
func TestDetailJSONFieldCounts(t *testing.T) {
	seen := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			walk(ty.Elem())
		case reflect.Struct:
			if ty == timeType || seen[ty.Name()] {
				return // Time writes itself (Time.appendJSON)
			}
			seen[ty.Name()] = true
			want, ok := detailJSONFields[ty.Name()]
			if !ok {
				t.Errorf("%s is new in the details' tree: write it in detail_json.go and count it in detailJSONFields", ty)
			} else if ty.NumField() != want {
				t.Errorf("%s has %d fields, detail_json.go writes %d: write the new ones and update detailJSONFields", ty, ty.NumField(), want)
			}
			for i := range ty.NumField() {
				walk(ty.Field(i).Type)
			}
		}
	}
	walk(reflect.TypeFor[ProposalDetail]())
	walk(reflect.TypeFor[ChangeOrderDetail]())
	for name := range detailJSONFields {
		if !seen[name] {
			t.Errorf("%s is no longer in the details' tree: drop it from detailJSONFields", name)
		}
	}
}

// The views the server actually builds, costs shown and hidden, encode
// the same both ways; so does a buffer that already holds a detail.
func TestDetailAppendJSONOfViews(t *testing.T) {
	for _, opts := range []ViewOptions{{ViewCosts: true}, {}} {
		for _, p := range []*Proposal{richProposal(), benchProposal(3, 2, 40), {}} {
			d := DetailView(p, opts)
			assertAppendJSON(t, "detail of "+p.Name, &d)
			for i := range p.ChangeOrders {
				co := ChangeOrderDetailView(&p.ChangeOrders[i], opts)
				assertAppendJSON(t, "change order of "+p.Name, &co)
			}
		}
	}
	d := DetailView(richProposal(), ViewOptions{})
	once, err := d.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := d.AppendJSON(slices.Clone(once))
	if err != nil {
		t.Fatal(err)
	}
	if string(twice) != string(once)+string(once) {
		t.Fatalf("appending to a full buffer changed it:\n%s", twice)
	}
}
