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
	"ProposalDetail": 9, "ClientLinkView": 8, "ChangeOrderDetail": 2, "DocumentView": 24,
	"Customer": 2, "Contact": 9, "Location": 9, "Dealer": 6, "Salesperson": 4,
	"AreaView": 3, "OptionView": 8, "ItemView": 23, "ItemTotal": 3, "Currency": 2,
	"Profit": 7, "RecurringServices": 2, "RecurringServiceItem": 4,
	"PaymentScheduleView": 2, "PaymentView": 3, "PaymentDue": 2, "PaymentRequest": 6,
	"PersonName": 2, "FinancialSummary": 13, "ChangeOrderFinancialSummary": 11,
	"SalesTax": 3, "TaxCalculation": 20, "ChangeOrderSummary": 9, "ChangeOrderTotal": 2,
	"EmailFailure": 3,
}

// The random test would miss a new field that omitempty leaves out of
// most values, or one of a type it does not fill: count them all.
func TestDetailJSONFieldCounts(t *testing.T) {
	checkJSONFieldCounts(t, "detail_json.go", detailJSONFields,
		reflect.TypeFor[ProposalDetail](), reflect.TypeFor[ChangeOrderDetail]())
}

// proposalJSONFields is detailJSONFields for the stored proposal's tree
// (Proposal.AppendJSON, document_json.go).
// Proposal's field CopiedFrom is never stored (json:"-").
var proposalJSONFields = map[string]int{
	"Proposal": 8, "ClientLink": 10, "Document": 26, "ChangeOrder": 1, "Customer": 2, "Contact": 9, "Location": 9,
	"Salesperson": 4, "DealerProfile": 5, "Currency": 2, "Area": 3, "Option": 6, "Item": 22,
	"Pricing": 3, "TaxSettings": 9, "TaxRates": 4, "PaymentSchedule": 2, "PaymentTerm": 5,
	"PaymentRequest": 6, "PersonName": 2, "EmailFailure": 3,
}

func TestProposalJSONFieldCounts(t *testing.T) {
	checkJSONFieldCounts(t, "document_json.go", proposalJSONFields, reflect.TypeFor[Proposal]())
}

// checkJSONFieldCounts holds every struct reachable from roots to its
// count of fields, which the hand-written encoder in file writes.
func checkJSONFieldCounts(t *testing.T, file string, counts map[string]int, roots ...reflect.Type) {
	t.Helper()
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
			want, ok := counts[ty.Name()]
			if !ok {
				t.Errorf("%s is new in the tree: write it in %s and count it", ty, file)
			} else if ty.NumField() != want {
				t.Errorf("%s has %d fields, %s writes %d: write the new ones and update the count", ty, ty.NumField(), file, want)
			}
			for i := range ty.NumField() {
				walk(ty.Field(i).Type)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	for name := range counts {
		if !seen[name] {
			t.Errorf("%s is no longer in the tree: drop its count", name)
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
