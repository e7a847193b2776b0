package app

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The spec's field tables (proposal-api.md, "Resources and their fields"),
// written out field by field as "name:type". Types: n number, s string,
// b boolean, d date-time (an ISO 8601 string, or null when never set),
// o object, a array; a trailing ? allows null. The extensions the
// contract documents are marked where they are added.
const (
	specLocation    = "id:n street:s suite:s city:s postalCode:s state:s stateAbbrev:s country:s phone:s"
	specContact     = "id:n partyType:s contactType:s firstName:s lastName:s companyName:s contactEmail:s contactEmailCC:s contactPhone:s"
	specSalesperson = "id:n email:s firstName:s lastName:s"
	specCurrency    = "code:s symbol:s"

	specDocument = "id:n number:n name:s status:s createdDate:d clientLastDecisionDate:d lastCompletedDate:d " +
		"lastModifiedDate:d lastModifiedByUserDate:d lastSubmittedDate:d clientLastOpenedDate:d " +
		"financialSummary:o customer:o? dealer:o coverpageImageUrl:s aboutUs:s projectDescription:s " +
		"areas:a profit:o recurringServices:o paymentSchedule:o paymentRequests:a projectTerms:s lastModifiedUser:o " +
		"internalNotes:s" // extension on both details
	specProposalOnly    = " changeOrders:a isArchived:b version:n fieldVersions:o clientLink:o?" // isArchived, version, fieldVersions, clientLink: extensions
	specClientLink      = "url:s? linkId:s sentDate:d expiresOn:d sentTo:a snapshotHash:s mail:s mailNote:s"
	specSummaryCommon   = "partsSubtotal:n partsDiscountType:s partsDiscountPercentage:n partsDiscount:n partsTotal:n laborTotal:n feeTotal:n salesTax:o currency:o"
	specProposalSummary = specSummaryCommon + " partsDiscountTaxable:n partsDiscountTaxExempt:n proposalSubtotal:n proposalTotal:n"
	specCOSummary       = specSummaryCommon + " changeOrderSubtotal:n changeOrderTotal:n"
	specSalesTax        = "taxStatus:s total:n calculation:o"
	specCalculation     = "method:s applyTo:a partsTax:n laborTax:n feeTax:n partsTax2:n laborTax2:n feeTax2:n " +
		"partsTaxName:s laborTaxName:s feeTaxName:s partsTax2Name:s laborTax2Name:s feeTax2Name:s " +
		"hasMultipleTaxSupport:b taxLocation:o? isTaxServiceAvailable:b partsTotalTax:n laborTotalTax:n feeTotalTax:n"
	specChangeOrderSummary = "id:n number:n name:s status:s total:o customer:o? createdDate:d lastModifiedDate:d lastModifiedByUserDate:d"
	specListItem           = "id:n number:n name:s status:s total:o createdDate:d lastModifiedDate:d lastModifiedByUserDate:d customer:o? salesperson:o"
	specDealer             = "companyName:s webSiteUrl:s companyPhone:s companyLogoUrl:s location:o salesperson:o"
	specArea               = "id:n name:s options:a"
	specOption             = "id:n status:s lastModifiedDate:d clientDescription:s installerDescription:s items:a total:n totalRecurringService:n"
	specItem               = "id:n parentId:n? itemType:s referencedItemId:n? createdDate:d lastModifiedDate:d costUpdateDate:d " +
		"brand:s model:s description:s name:s shortDescription:s clientNote:s imageUrl:s supplier:s " +
		"msrp:n sellPrice:n cost:n? quantity:n total:o isTaxExempt:b isRecurringService:b linkedOrders:a"
	specItemTotal   = "amount:n currency:o isCombinedPrice:b"
	specProfit      = "total:n? percentage:n? partTotal:n? partPercentage:n? laborTotal:n? laborPercentage:n? isProfitIncludeCos:b"
	specRecurring   = "items:a totalRecurringService:n"
	specRecurringIt = "name:s sellPrice:n quantity:n totalSell:n"
	specSchedule    = "customerDescription:s payments:a"
	specPayment     = "calculation:s amount:n due:o"
	specDue         = "date:d milestone:s"
	specPaymentReq  = "id:n status:s amount:n dueDate:d description:s paymentMethod:s"
	specPersonName  = "firstName:s lastName:s"
)

// shape maps each object's path ("" for the root, "a.b", "list[]" for
// elements) to its fields.
type shape map[string]string

// add puts sub's paths under prefix.
func (s shape) add(prefix string, sub shape) shape {
	for p, f := range sub {
		s[joinPath(prefix, p)] = f
	}
	return s
}

func joinPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || strings.HasPrefix(b, "[]"):
		return a + b
	}
	return a + "." + b
}

func changeOrderSummaryShape() shape {
	return shape{"": specChangeOrderSummary, "total": "changeOrderTotal:n currency:o",
		"total.currency": specCurrency, "customer": specContact}
}

// documentShape is everything the two details share.
func documentShape(summary string) shape {
	return shape{
		"":                                      specDocument,
		"financialSummary":                      summary,
		"financialSummary.currency":             specCurrency,
		"financialSummary.salesTax":             specSalesTax,
		"financialSummary.salesTax.calculation": specCalculation,
		"financialSummary.salesTax.calculation.taxLocation": specLocation,
		"customer":                        specContact + " location:o?",
		"customer.location":               specLocation,
		"dealer":                          specDealer,
		"dealer.location":                 specLocation,
		"dealer.salesperson":              specSalesperson,
		"areas[]":                         specArea,
		"areas[].options[]":               specOption,
		"areas[].options[].items[]":       specItem,
		"areas[].options[].items[].total": specItemTotal,
		"areas[].options[].items[].total.currency": specCurrency,
		"profit":                         specProfit,
		"recurringServices":              specRecurring,
		"recurringServices.items[]":      specRecurringIt,
		"paymentSchedule":                specSchedule,
		"paymentSchedule.payments[]":     specPayment,
		"paymentSchedule.payments[].due": specDue,
		"paymentRequests[]":              specPaymentReq,
		"lastModifiedUser":               specPersonName,
	}
}

func proposalDetailShape() shape {
	s := documentShape(specProposalSummary)
	s[""] += specProposalOnly
	s["fieldVersions"] = "" // field name → version: keys vary, values are numbers
	s["clientLink"] = specClientLink
	return s.add("changeOrders[]", changeOrderSummaryShape())
}

func changeOrderDetailShape() shape { return documentShape(specCOSummary) }

func listResponseShape() shape {
	return shape{"": "proposals:a proposalCount:n"}.add("proposals[]", shape{
		"": specListItem, "total": "proposalTotal:n currency:o", "total.currency": specCurrency,
		"customer": specContact, "salesperson": specSalesperson,
	})
}

func parseFields(spec string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Fields(spec) {
		name, typ, _ := strings.Cut(f, ":")
		out[name] = typ
	}
	return out
}

var dateRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// jsonTypeOK reports whether v (decoded with UseNumber) has type typ.
func jsonTypeOK(v any, typ string) bool {
	if v == nil {
		return typ == "d" || strings.HasSuffix(typ, "?")
	}
	switch strings.TrimSuffix(typ, "?") {
	case "n":
		_, ok := v.(json.Number)
		return ok
	case "s":
		_, ok := v.(string)
		return ok
	case "d":
		s, ok := v.(string)
		return ok && dateRE.MatchString(s)
	case "b":
		_, ok := v.(bool)
		return ok
	case "o":
		_, ok := v.(map[string]any)
		return ok
	case "a":
		_, ok := v.([]any)
		return ok
	}
	return false
}

// checkShape compares every object of the JSON value with the shape:
// the same field names, each of its type. Every path of the shape must
// occur (the fixture must be rich enough to show it).
func checkShape(t *testing.T, what string, v any, want shape) {
	t.Helper()
	seen := map[string]bool{}
	reported := map[string]bool{}
	errorf := func(format string, args ...any) { // once per message, not per array element
		t.Helper()
		if msg := fmt.Sprintf(format, args...); !reported[msg] {
			reported[msg] = true
			t.Error(msg)
		}
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(path+"[]", e)
			}
		case map[string]any:
			seen[path] = true
			spec, ok := want[path]
			if !ok {
				errorf("%s: undocumented object at %q", what, path)
				return
			}
			fields := parseFields(spec)
			for name, typ := range fields {
				val, present := x[name]
				switch {
				case !present:
					errorf("%s: %q lacks field %q", what, path, name)
				case !jsonTypeOK(val, typ):
					errorf("%s: %s = %v, want type %s", what, joinPath(path, name), val, typ)
				}
			}
			for name, val := range x {
				if _, ok := fields[name]; !ok {
					errorf("%s: undocumented field %q", what, joinPath(path, name))
					continue
				}
				walk(joinPath(path, name), val)
			}
		}
	}
	walk("", v)
	for path := range want {
		if !seen[path] {
			t.Errorf("%s: the fixture never shows %q", what, path)
		}
	}
}

// decodeNumbers encodes v and decodes it generically, keeping numbers as
// written (json.Number): tests never turn money into float64.
func decodeNumbers(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFieldSets(t *testing.T) {
	p := richProposal()
	p.ClientLink = &ClientLink{ID: "a1", TokenHash: "00", SentDate: At(p.CreatedDate.Time), ExpiresOn: At(p.CreatedDate.AddDate(0, 0, 30)),
		SentTo: []string{"ada@example.com"}, SnapshotHash: "ff", Mail: MailNotSent}
	for _, opts := range []ViewOptions{{ViewCosts: true}, {ViewCosts: false}} {
		checkShape(t, "proposal detail", decodeNumbers(t, DetailView(p, opts)), proposalDetailShape())
		checkShape(t, "change-order detail", decodeNumbers(t, ChangeOrderDetailView(&p.ChangeOrders[0], opts)),
			changeOrderDetailShape())
	}
	list := ListResponse{Proposals: []ListItem{ListItemView(p)}, Count: 1}
	checkShape(t, "list response", decodeNumbers(t, list), listResponseShape())
	checkShape(t, "list item", decodeNumbers(t, ListItemView(p)), listResponseShape().sub("proposals[]"))
	checkShape(t, "change-order summary", decodeNumbers(t, ChangeOrderSummaryView(&p.ChangeOrders[0])),
		changeOrderSummaryShape())
	// The operation-8 list is a bare array of summaries.
	summaries := []ChangeOrderSummary{ChangeOrderSummaryView(&p.ChangeOrders[0])}
	checkShape(t, "change-order list", decodeNumbers(t, summaries), shape{}.add("[]", changeOrderSummaryShape()))
}

// sub is the part of the shape under prefix.
func (s shape) sub(prefix string) shape {
	out := shape{}
	for p, f := range s {
		switch {
		case p == prefix:
			out[""] = f
		case strings.HasPrefix(p, prefix+"."):
			out[strings.TrimPrefix(p, prefix+".")] = f
		case strings.HasPrefix(p, prefix+"[]"):
			out[strings.TrimPrefix(p, prefix)] = f
		}
	}
	return out
}

func TestChangeOrderDetailDiffers(t *testing.T) {
	p := richProposal()
	co := decodeNumbers(t, ChangeOrderDetailView(&p.ChangeOrders[0], ViewOptions{ViewCosts: true})).(map[string]any)
	for _, name := range []string{"changeOrders", "isArchived", "version", "fieldVersions", "clientLink"} {
		if _, ok := co[name]; ok {
			t.Errorf("change-order detail has %q", name)
		}
	}
	if _, ok := co["internalNotes"]; !ok {
		t.Error("change-order detail lacks internalNotes")
	}
	fs := co["financialSummary"].(map[string]any)
	for _, name := range []string{"changeOrderSubtotal", "changeOrderTotal"} {
		if _, ok := fs[name]; !ok {
			t.Errorf("change-order financialSummary lacks %q", name)
		}
	}
	for _, name := range []string{"proposalSubtotal", "proposalTotal", "partsDiscountTaxable", "partsDiscountTaxExempt"} {
		if _, ok := fs[name]; ok {
			t.Errorf("change-order financialSummary has %q", name)
		}
	}
}

// at follows a path of keys and indexes through decoded JSON.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, k := range path {
		switch k := k.(type) {
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			if v, ok = obj[k]; !ok {
				t.Fatalf("%v: no field %q", path, k)
			}
		case int:
			arr, ok := v.([]any)
			if !ok || k >= len(arr) {
				t.Fatalf("%v: no element %d", path, k)
			}
			v = arr[k]
		}
	}
	return v
}

func TestNullableValues(t *testing.T) {
	p := richProposal()
	shown := decodeNumbers(t, DetailView(p, ViewOptions{ViewCosts: true}))
	hidden := decodeNumbers(t, DetailView(p, ViewOptions{}))
	item := func(v any, area, opt, idx int, field string) any {
		return at(t, v, "areas", area, "options", opt, "items", idx, field)
	}
	num := func(s string) any { return json.Number(s) }
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"known cost shown", item(shown, 0, 0, 0, "cost"), num("900.00")},
		{"known cost hidden", item(hidden, 0, 0, 0, "cost"), nil},
		{"unknown cost shown as null", item(shown, 0, 0, 7, "cost"), nil},
		{"zero cost is not null", item(shown, 0, 0, 2, "cost"), num("0.00")},
		{"profit shown", at(t, shown, "profit", "total"), num("905.00")},
		{"profit hidden", at(t, hidden, "profit", "total"), nil},
		{"profit percentage hidden", at(t, hidden, "profit", "percentage"), nil},
		{"part profit hidden", at(t, hidden, "profit", "partTotal"), nil},
		{"part percentage hidden", at(t, hidden, "profit", "partPercentage"), nil},
		{"labor profit hidden", at(t, hidden, "profit", "laborTotal"), nil},
		{"labor percentage hidden", at(t, hidden, "profit", "laborPercentage"), nil},
		{"isProfitIncludeCos stays a boolean", at(t, hidden, "profit", "isProfitIncludeCos"), false},
		{"set date", at(t, shown, "createdDate"), "2026-03-01T12:00:00.000Z"},
		{"never-completed date", at(t, shown, "lastCompletedDate"), nil},
		{"item date never set", item(shown, 0, 0, 1, "createdDate"), nil},
		{"option date never set", at(t, shown, "areas", 1, "options", 0, "lastModifiedDate"), nil},
		{"payment due date never set", at(t, shown, "paymentSchedule", "payments", 1, "due", "date"), nil},
		{"change order date never set", at(t, shown, "changeOrders", 1, "lastModifiedByUserDate"), nil},
		{"top-level parentId", item(shown, 0, 0, 0, "parentId"), nil},
		{"nested parentId", item(shown, 0, 0, 5, "parentId"), num("35")},
		{"deeper parentId", item(shown, 0, 0, 6, "parentId"), num("36")},
		{"referencedItemId set", item(shown, 0, 0, 0, "referencedItemId"), num("9001")},
		{"referencedItemId unset", item(shown, 0, 0, 1, "referencedItemId"), nil},
		{"change order without customer", at(t, shown, "changeOrders", 1, "customer"), nil},
		{"change order with customer", at(t, shown, "changeOrders", 0, "customer", "id"), num("401")},
		{"linkedOrders is an empty array", item(shown, 0, 0, 0, "linkedOrders"), []any{}},
		{"garage has no options", at(t, shown, "areas", 2, "options"), []any{}},
	}
	for _, tc := range tests {
		if !jsonEqual(tc.got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.name, tc.got, tc.want)
		}
	}

	// Every cost and profit figure is null when hidden.
	for ai, a := range at(t, hidden, "areas").([]any) {
		for oi, o := range at(t, a, "options").([]any) {
			for ii := range at(t, o, "items").([]any) {
				if c := item(hidden, ai, oi, ii, "cost"); c != nil {
					t.Errorf("hidden cost of item %d/%d/%d = %v", ai, oi, ii, c)
				}
			}
		}
	}

	// No customer, no tax location: null, in every view.
	bare := richProposal()
	bare.Customer = nil
	bare.Tax.TaxLocation = nil
	bare.ChangeOrders[0].Customer = nil
	nulls := []struct {
		name string
		got  any
	}{
		{"detail customer", at(t, decodeNumbers(t, DetailView(bare, ViewOptions{})), "customer")},
		{"list customer", at(t, decodeNumbers(t, ListItemView(bare)), "customer")},
		{"change-order detail customer", at(t, decodeNumbers(t, ChangeOrderDetailView(&bare.ChangeOrders[0], ViewOptions{})), "customer")},
		{"change-order summary customer", at(t, decodeNumbers(t, ChangeOrderSummaryView(&bare.ChangeOrders[0])), "customer")},
		{"tax location", at(t, decodeNumbers(t, DetailView(bare, ViewOptions{})), "financialSummary", "salesTax", "calculation", "taxLocation")},
	}
	for _, tc := range nulls {
		if tc.got != nil {
			t.Errorf("%s = %v, want null", tc.name, tc.got)
		}
	}
	noLoc := richProposal()
	noLoc.Customer.Location = nil
	if got := at(t, decodeNumbers(t, DetailView(noLoc, ViewOptions{})), "customer", "location"); got != nil {
		t.Errorf("customer without a location: location = %v, want null", got)
	}
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestEmptyProposalArrays(t *testing.T) {
	// A new proposal has no areas, payments, requests or change orders:
	// each list is an empty array, never null; applyTo defaults to None.
	p := &Proposal{Document: Document{ID: 1, Number: 1, Name: "Proposal 1", Status: StatusDraft}}
	v := decodeNumbers(t, DetailView(p, ViewOptions{ViewCosts: true}))
	for _, path := range [][]any{
		{"areas"}, {"changeOrders"}, {"paymentRequests"}, {"paymentSchedule", "payments"},
		{"recurringServices", "items"},
	} {
		if got := at(t, v, path...); !jsonEqual(got, []any{}) {
			t.Errorf("%v = %#v, want []", path, got)
		}
	}
	calc := at(t, v, "financialSummary", "salesTax", "calculation")
	if got := at(t, calc, "applyTo"); !jsonEqual(got, []any{"None"}) {
		t.Errorf("applyTo = %v, want [None]", got)
	}
	wants := map[string]any{"method": "ClientLocation"}
	for k, want := range wants {
		if got := at(t, calc, k); got != want {
			t.Errorf("%s = %v, want %v", k, got, want)
		}
	}
	fs := at(t, v, "financialSummary")
	if at(t, fs, "salesTax", "taxStatus") != "Undefined" || at(t, fs, "partsDiscountType") != "Percentage" ||
		!jsonEqual(at(t, fs, "currency"), map[string]any{"code": "USD", "symbol": "$"}) {
		t.Errorf("defaults: %v", fs)
	}
	if at(t, fs, "proposalTotal") != json.Number("0.00") {
		t.Errorf("proposalTotal = %v, want 0.00", at(t, fs, "proposalTotal"))
	}
}

// TestRichProposalFigures checks the rich fixture's figures, worked out
// by hand:
//
// Living Room, option 21 (Selected, counted):
//
//	31 TV part        1299.99 × 1    = 1299.99   cost 900.00
//	32 labor            85.00 × 2.5  =  212.50   cost 100.00
//	33 fee              25.00 × 1    =   25.00   cost 0
//	34 custom (part)   150.00 × 1    =  150.00   cost 60.00
//	35 bundle part     200.00 × 1    =  200.00   cost 100.00  (amount 200+300+40 = 540.00)
//	36   speaker part  150.00 × 2    =  300.00   cost 160.00
//	37     mount labor  20.00 × 2    =   40.00   cost 20.00
//	38 recurring        29.99 × 1    =   29.99   (recurring)
//	39 exempt part      49.95 × 3    =  149.85   cost 30.00
//	option total 2377.34, recurring 29.99
//
// Option 22 (Draft, not counted): 499.00. Kitchen option 23 (only one,
// counted): 10.50 × 0.3333 = 3.49965 → 3.50, cost 2.00 × 0.3333 =
// 0.6666 → 0.67. Garage: no options.
//
// Parts subtotal 1299.99+150+200+300+149.85+3.50 = 2103.34, taxable
// 2103.34 − 149.85 = 1953.49. Discount 5% = 105.167 → 105.17; taxable
// share 105.17 × 1953.49 / 2103.34 = 97.6773 → 97.68, exempt 7.49. Parts
// total 1998.17; labor 212.50 + 40 = 252.50; fee 25.00; subtotal 2275.67.
// Tax (parts, labor; two rates): parts base 1953.49 − 97.68 = 1855.81,
// 6.25% = 115.988 → 115.99, 0.5% = 9.279 → 9.28; labor 252.50 × 6.25% =
// 15.78125 → 15.78, second 0%. Tax 141.05; total 2416.72.
// Costs: parts 900+60+100+160+30+0.67 = 1250.67, labor 120. Profit
// 2275.67 − 1370.67 = 905.00 (39.7685%); parts 1998.17 − 1250.67 = 747.50
// (37.4092%); labor 252.50 − 120 = 132.50 (52.4752%).
// Payments: 50% = 1208.36; fixed 500.00; remainder 708.36.
// Change order 1: parts 399, labor 85, 5% off parts = 19.95, parts total
// 379.05, subtotal 464.05; tax 379.05 × 6.25% = 23.69, × 0.5% = 1.90,
// labor 85 × 6.25% = 5.31; total 464.05 + 30.90 = 494.95 (its recurring
// 9.99 streaming line stays out), all of it the remainder payment.
// Change order 2 has no areas: 0.00.
func TestRichProposalFigures(t *testing.T) {
	p := richProposal()
	v := decodeNumbers(t, DetailView(p, ViewOptions{ViewCosts: true}))
	want := map[string]string{
		"financialSummary.partsSubtotal":                         "2103.34",
		"financialSummary.partsDiscountType":                     "Percentage",
		"financialSummary.partsDiscountPercentage":               "5",
		"financialSummary.partsDiscount":                         "105.17",
		"financialSummary.partsDiscountTaxable":                  "97.68",
		"financialSummary.partsDiscountTaxExempt":                "7.49",
		"financialSummary.partsTotal":                            "1998.17",
		"financialSummary.laborTotal":                            "252.50",
		"financialSummary.feeTotal":                              "25.00",
		"financialSummary.proposalSubtotal":                      "2275.67",
		"financialSummary.salesTax.taxStatus":                    "Ok",
		"financialSummary.salesTax.total":                        "141.05",
		"financialSummary.salesTax.calculation.partsTotalTax":    "125.27",
		"financialSummary.salesTax.calculation.laborTotalTax":    "15.78",
		"financialSummary.salesTax.calculation.feeTotalTax":      "0.00",
		"financialSummary.salesTax.calculation.partsTax":         "6.25",
		"financialSummary.salesTax.calculation.partsTax2":        "0.5",
		"financialSummary.salesTax.calculation.partsTax2Name":    "Local",
		"financialSummary.salesTax.calculation.taxLocation.city": "Springfield",
		"financialSummary.proposalTotal":                         "2416.72",
		"profit.total":                                           "905.00",
		"profit.percentage":                                      "39.7685",
		"profit.partTotal":                                       "747.50",
		"profit.partPercentage":                                  "37.4092",
		"profit.laborTotal":                                      "132.50",
		"profit.laborPercentage":                                 "52.4752",
		"recurringServices.totalRecurringService":                "29.99",
		"recurringServices.items.0.name":                         "Monitoring",
		"recurringServices.items.0.totalSell":                    "29.99",
		"areas.0.options.0.total":                                "2377.34",
		"areas.0.options.0.totalRecurringService":                "29.99",
		"areas.0.options.0.items.4.total.amount":                 "540.00",
		"areas.0.options.0.items.4.total.isCombinedPrice":        "true",
		"areas.0.options.0.items.5.total.amount":                 "300.00",
		"areas.0.options.0.items.5.total.isCombinedPrice":        "false",
		"areas.0.options.0.items.6.total.amount":                 "40.00",
		"areas.0.options.0.items.8.total.amount":                 "149.85",
		"areas.0.options.0.items.1.quantity":                     "2.5",
		"areas.0.options.1.total":                                "499.00",
		"areas.0.options.1.totalRecurringService":                "0.00",
		"areas.1.options.0.total":                                "3.50",
		"areas.1.options.0.items.0.quantity":                     "0.3333",
		"paymentSchedule.payments.0.calculation":                 "50%",
		"paymentSchedule.payments.0.amount":                      "1208.36",
		"paymentSchedule.payments.1.calculation":                 "Fixed",
		"paymentSchedule.payments.1.amount":                      "500.00",
		"paymentSchedule.payments.2.calculation":                 "Remainder",
		"paymentSchedule.payments.2.amount":                      "708.36",
		"paymentSchedule.payments.2.due.milestone":               "Completion",
		"paymentRequests.0.amount":                               "1000.00",
		"changeOrders.0.total.changeOrderTotal":                  "494.95",
		"changeOrders.0.total.currency.code":                     "USD",
		"changeOrders.1.total.changeOrderTotal":                  "0.00",
		"dealer.salesperson.email":                               "sam@dealer.example",
		"customer.location.stateAbbrev":                          "MA",
		"internalNotes":                                          "Gate code 1234.",
		"isArchived":                                             "false",
		"version":                                                "12",
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var path []any
		for _, part := range strings.Split(k, ".") {
			if n, err := strconv.Atoi(part); err == nil {
				path = append(path, n)
			} else {
				path = append(path, part)
			}
		}
		got := at(t, v, path...)
		var s string
		switch g := got.(type) {
		case json.Number:
			s = g.String()
		case string:
			s = g
		default:
			b, _ := json.Marshal(g)
			s = string(b)
		}
		if s != want[k] {
			t.Errorf("%s = %s, want %s", k, s, want[k])
		}
	}

	co := ChangeOrderDetailView(&p.ChangeOrders[0], ViewOptions{ViewCosts: true}).FinancialSummary
	if co.PartsDiscount != m("19.95") || co.PartsTotal != m("379.05") || co.ChangeOrderSubtotal != m("464.05") ||
		co.SalesTax.Total != m("30.90") || co.ChangeOrderTotal != m("494.95") {
		t.Errorf("change order 1 summary = %+v", co)
	}
	cov := ChangeOrderDetailView(&p.ChangeOrders[0], ViewOptions{})
	if pay := cov.PaymentSchedule.Payments; len(pay) != 1 || pay[0].Amount != m("494.95") ||
		cov.RecurringServices.TotalRecurringService != m("9.99") {
		t.Errorf("change order 1 payments %+v, recurring %+v", pay, cov.RecurringServices)
	}
}

// TestGoldenDetail compares the whole detail of the rich fixture with
// testdata/proposal_detail.golden.json, so that any change of a value or
// a field shows in review. After an intended change, rerun with -update
// and check the diff by hand against TestRichProposalFigures.
func TestGoldenDetail(t *testing.T) {
	tests := []struct {
		file string
		view any
	}{
		{"proposal_detail.golden.json", DetailView(richProposal(), ViewOptions{ViewCosts: true})},
		{"change_order_detail_nocosts.golden.json", ChangeOrderDetailView(&richProposal().ChangeOrders[0], ViewOptions{})},
	}
	for _, tc := range tests {
		got, err := json.MarshalIndent(tc.view, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", tc.file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the view; first difference near:\n%s", path, firstDiff(string(want), string(got)))
		}
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(trailing bytes)"
}
