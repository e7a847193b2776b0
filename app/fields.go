package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The fields an edit writes, as conflict detection compares them. A
// conflict is a field whose value changed on the server since the copy
// a local edit was made on, and that the local edit also changed to
// something else. Each edit names the fields it writes (Mutation.Writes);
// FieldValues reads them all from a proposal. The names are stored in the
// desktop's conflict records, so they never change.

// A Field names one value: a proposal's ("name") or one of an area,
// option or item ("options/12/clientDescription").
type Field = string

// The proposal's fields.
const (
	FieldName               Field = "name"
	FieldSalesPerson        Field = "salesPerson"
	FieldProjectDescription Field = "projectDescription"
	FieldInternalNotes      Field = "internalNotes"
	FieldStatus             Field = "status"
	FieldCustomer           Field = "customer"
	FieldCustomerLocation   Field = "customer.location"
	FieldPartsDiscount      Field = "partsDiscount"
	FieldArchived           Field = "isArchived"
)

// Parts that live in a collection are named "<collection>/<id>/<name>".
const (
	scopeAreas   = "areas"
	scopeOptions = "options"
	scopeItems   = "items"
)

// The item fields conflict detection compares, with their words.
var itemFieldLabels = map[string]string{
	"quantity":           "Item quantity",
	"sellPrice":          "Item sell price",
	"cost":               "Item cost",
	"name":               "Item name",
	"description":        "Item description",
	"clientNote":         "Item client note",
	"isTaxExempt":        "Item tax exemption",
	"isRecurringService": "Item recurring service",
	"parentId":           "Item nesting",
	"option":             "Item option",
	"position":           "Item position",
}

// AreaField names a field of one area.
func AreaField(areaID int64, name string) Field { return scoped(scopeAreas, areaID, name) }

// OptionField names a field of one option.
func OptionField(optionID int64, name string) Field { return scoped(scopeOptions, optionID, name) }

func scoped(scope string, id int64, name string) Field {
	return scope + "/" + strconv.FormatInt(id, 10) + "/" + name
}

// fieldLabels are the words for each field, by its name within its
// scope ("" for the proposal's own).
var fieldLabels = map[string]string{
	FieldName:                              "Name",
	FieldSalesPerson:                       "Salesperson",
	FieldProjectDescription:                "Project description",
	FieldInternalNotes:                     "Installer notes",
	FieldStatus:                            "Status",
	FieldCustomer:                          "Customer",
	FieldCustomerLocation:                  "Location",
	scopeAreas + "/name":                   "Area name",
	scopeOptions + "/clientDescription":    "Option client description",
	scopeOptions + "/installerDescription": "Option installer notes",
	scopeOptions + "/status":               "Option status",
	FieldPartsDiscount:                     "Parts discount",
	FieldArchived:                          "Archived",
}

func init() {
	for name, label := range itemFieldLabels {
		fieldLabels[scopeItems+"/"+name] = label
	}
}

// FieldLabel names a field for people.
func FieldLabel(f Field) string {
	if l, ok := fieldLabels[f]; ok {
		return l
	}
	if parts := strings.SplitN(f, "/", 3); len(parts) == 3 {
		if l, ok := fieldLabels[parts[0]+"/"+parts[2]]; ok {
			return l
		}
	}
	return f
}

// FieldValues reads every conflict-checked field of p as a string.
func FieldValues(p *Proposal) map[Field]string {
	v := map[Field]string{
		FieldName:               p.Name,
		FieldSalesPerson:        strconv.FormatInt(p.SalesPerson.ID, 10),
		FieldProjectDescription: p.ProjectDescription,
		FieldInternalNotes:      p.InternalNotes,
		FieldStatus:             string(p.Status),
		FieldCustomer:           "",
		FieldCustomerLocation:   "",
		FieldPartsDiscount:      jsonString(p.Pricing),
		FieldArchived:           strconv.FormatBool(p.Archived),
	}
	if c := p.Customer; c != nil {
		v[FieldCustomer] = jsonString(map[string]any{"id": c.ID, "name": c.DisplayName()})
		if c.Location != nil {
			v[FieldCustomerLocation] = jsonString(c.Location)
		}
	}
	for _, a := range p.Areas {
		v[AreaField(a.ID, "name")] = a.Name
		for _, o := range a.Options {
			v[OptionField(o.ID, "clientDescription")] = o.ClientDescription
			v[OptionField(o.ID, "installerDescription")] = o.InstallerDescription
			v[OptionField(o.ID, "status")] = string(o.Status)
			for _, it := range o.Items {
				itemValues(v, &it, o.ID)
			}
		}
	}
	return v
}

func jsonString(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

// itemValues reads an item's conflict-checked fields.
// An item's position is not compared: it shifts whenever another item
// is added before it, which is no conflict.
func itemValues(v map[Field]string, it *Item, optionID int64) {
	cost := ""
	if it.Cost != nil {
		cost = it.Cost.String()
	}
	for name, value := range map[string]string{
		"quantity":           it.Quantity.String(),
		"sellPrice":          it.SellPrice.String(),
		"cost":               cost,
		"name":               it.Name,
		"description":        it.Description,
		"clientNote":         it.ClientNote,
		"isTaxExempt":        strconv.FormatBool(it.IsTaxExempt),
		"isRecurringService": strconv.FormatBool(it.IsRecurringService),
		"parentId":           strconv.FormatInt(it.ParentID, 10),
		"option":             strconv.FormatInt(optionID, 10),
	} {
		v[ItemField(it.ID, name)] = value
	}
}

// itemFields are every conflict-checked field of an item.
func itemFields(id int64) []Field {
	out := make([]Field, 0, len(itemFieldLabels))
	for name := range itemFieldLabels {
		out = append(out, ItemField(id, name))
	}
	slices.Sort(out)
	return out
}

// fieldOfKnownPart reports whether f names a proposal field or one of a
// part with an ID: on the server, a create's new part has none yet (its
// fields are new, so nothing can have changed them concurrently).
func fieldOfKnownPart(f Field) bool { return !strings.Contains(f, "/0/") }

// FieldChanged reports whether field f changed between two copies of a
// proposal from the server: its value, or (a change that came back to
// the same value) the version that last wrote it.
func FieldChanged(f Field, base, theirs *Proposal, baseValue, theirValue string) bool {
	return baseValue != theirValue || base.FieldVersions[f] != theirs.FieldVersions[f]
}
