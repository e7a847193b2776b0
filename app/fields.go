package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The fields an edit writes, as conflict detection and settling compare
// them. A conflict is a field whose value changed on the server since the
// copy a local edit was made on, and that the local edit also changed to
// something else. Each edit names the fields it writes (Mutation.Writes);
// the tables below declare every field once, with its words and how to
// read it, and FieldValues reads them all from a proposal. A field an
// edit writes that no table declares would never conflict and a refused
// edit of it would settle as done, so a test applies every kind and
// checks that what it writes is read here.

// A Field names one value: a proposal's ("name") or one of an area,
// option or item ("options/12/clientDescription"). The names are stored
// in the desktop's conflict records, so they never change.
type Field string

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

// A fieldDecl declares one field of a T (a proposal, area, option or
// placed item): its name within its scope, its words for people and how
// to read it as a string.
type fieldDecl[T any] struct {
	name  string
	label string
	read  func(T) string
	// unchecked: a concurrent change on both sides is no conflict (an
	// item's position shifts whenever another item is added before it).
	// Settling still compares it.
	unchecked bool
	// partID: the value is the ID of another part (an item's parent or
	// option), which a temporary ID may be until the server replaces it.
	partID bool
}

// placedItem is an item where it sits: its option and its place there.
type placedItem struct {
	*Item
	option int64
	index  int
}

var proposalFields = declare("", []fieldDecl[*Proposal]{
	{name: string(FieldName), label: "Name", read: func(p *Proposal) string { return p.Name }},
	{name: string(FieldSalesPerson), label: "Salesperson", read: func(p *Proposal) string { return strconv.FormatInt(p.SalesPerson.ID, 10) }},
	{name: string(FieldProjectDescription), label: "Project description", read: func(p *Proposal) string { return p.ProjectDescription }},
	{name: string(FieldInternalNotes), label: "Installer notes", read: func(p *Proposal) string { return p.InternalNotes }},
	{name: string(FieldStatus), label: "Status", read: func(p *Proposal) string { return string(p.Status) }},
	{name: string(FieldCustomer), label: "Customer", read: func(p *Proposal) string {
		if c := p.Customer; c != nil {
			return jsonString(map[string]any{"id": c.ID, "name": c.DisplayName()})
		}
		return ""
	}},
	{name: string(FieldCustomerLocation), label: "Location", read: func(p *Proposal) string {
		if c := p.Customer; c != nil && c.Location != nil {
			return jsonString(c.Location)
		}
		return ""
	}},
	{name: string(FieldPartsDiscount), label: "Parts discount", read: func(p *Proposal) string { return jsonString(p.Pricing) }},
	{name: string(FieldArchived), label: "Archived", read: func(p *Proposal) string { return strconv.FormatBool(p.Archived) }},
})

var areaFields = declare(scopeAreas, []fieldDecl[*Area]{
	{name: "name", label: "Area name", read: func(a *Area) string { return a.Name }},
})

var optionFields = declare(scopeOptions, []fieldDecl[*Option]{
	{name: "clientDescription", label: "Option client description", read: func(o *Option) string { return o.ClientDescription }},
	{name: "installerDescription", label: "Option installer notes", read: func(o *Option) string { return o.InstallerDescription }},
	{name: "status", label: "Option status", read: func(o *Option) string { return string(o.Status) }},
})

var itemFields = declare(scopeItems, []fieldDecl[placedItem]{
	{name: "quantity", label: "Item quantity", read: func(it placedItem) string { return it.Quantity.String() }},
	{name: "sellPrice", label: "Item sell price", read: func(it placedItem) string { return it.SellPrice.String() }},
	{name: "cost", label: "Item cost", read: func(it placedItem) string {
		if it.Cost == nil {
			return ""
		}
		return it.Cost.String()
	}},
	{name: "name", label: "Item name", read: func(it placedItem) string { return it.Name }},
	{name: "description", label: "Item description", read: func(it placedItem) string { return it.Description }},
	{name: "clientNote", label: "Item client note", read: func(it placedItem) string { return it.ClientNote }},
	{name: "isTaxExempt", label: "Item tax exemption", read: func(it placedItem) string { return strconv.FormatBool(it.IsTaxExempt) }},
	{name: "isRecurringService", label: "Item recurring service", read: func(it placedItem) string { return strconv.FormatBool(it.IsRecurringService) }},
	{name: "parentId", label: "Item nesting", read: func(it placedItem) string { return strconv.FormatInt(it.ParentID, 10) }, partID: true},
	{name: "option", label: "Item option", read: func(it placedItem) string { return strconv.FormatInt(it.option, 10) }, partID: true},
	{name: "position", label: "Item position", read: func(it placedItem) string { return strconv.Itoa(it.index) }, unchecked: true},
})

// fieldInfo is what is known of a field without the part it belongs to,
// by its key ("name", "options/status").
type fieldInfo struct {
	label     string
	unchecked bool
	partID    bool
}

var fieldInfos = map[string]fieldInfo{}

// declare records the words of a scope's fields ("" for the proposal's
// own) and returns the table.
func declare[T any](scope string, decls []fieldDecl[T]) []fieldDecl[T] {
	for _, d := range decls {
		k := d.name
		if scope != "" {
			k = scope + "/" + d.name
		}
		if _, dup := fieldInfos[k]; dup {
			panic("bug: field " + k + " declared twice")
		}
		fieldInfos[k] = fieldInfo{label: d.label, unchecked: d.unchecked, partID: d.partID}
	}
	return decls
}

// AreaField names a field of one area.
func AreaField(areaID int64, name string) Field { return scoped(scopeAreas, areaID, name) }

// OptionField names a field of one option.
func OptionField(optionID int64, name string) Field { return scoped(scopeOptions, optionID, name) }

// ItemField names a field of one item.
func ItemField(itemID int64, name string) Field { return scoped(scopeItems, itemID, name) }

func scoped(scope string, id int64, name string) Field {
	return Field(scope + "/" + strconv.FormatInt(id, 10) + "/" + name)
}

// info finds the field's declaration, by its name within its scope.
func (f Field) info() (fieldInfo, bool) {
	k := string(f)
	if parts := strings.SplitN(k, "/", 3); len(parts) == 3 {
		k = parts[0] + "/" + parts[2]
	}
	i, ok := fieldInfos[k]
	return i, ok
}

// ConflictChecked reports whether a change of f on the server and a
// different one here is a conflict. An item's position is not: it shifts
// whenever another item is added before it.
func (f Field) ConflictChecked() bool {
	i, ok := f.info()
	return ok && !i.unchecked
}

// ValueIsPartID reports whether f's value is the ID of another part of
// the proposal (an item's parent or option).
func (f Field) ValueIsPartID() bool {
	i, ok := f.info()
	return ok && i.partID
}

// FieldLabel names a field for people.
func FieldLabel(f Field) string {
	if i, ok := f.info(); ok {
		return i.label
	}
	return string(f)
}

// FieldValues reads every declared field of p as a string.
func FieldValues(p *Proposal) map[Field]string {
	v := map[Field]string{}
	for _, d := range proposalFields {
		v[Field(d.name)] = d.read(p)
	}
	for i := range p.Areas {
		a := &p.Areas[i]
		readPart(v, scopeAreas, a.ID, areaFields, a)
		for j := range a.Options {
			o := &a.Options[j]
			readPart(v, scopeOptions, o.ID, optionFields, o)
			for k := range o.Items {
				readPart(v, scopeItems, o.Items[k].ID, itemFields, placedItem{&o.Items[k], o.ID, k})
			}
		}
	}
	return v
}

// FieldValuesOf is FieldValues for the fields named only: what an edit
// writes, for its effect and its settling. Reading every field of a
// 500-item proposal for the two or three an edit writes allocated about
// 0.85 MB an edit, a quarter of a structural edit's allocations on the
// desktop, and as much again for each edit a push settles.
func FieldValuesOf(p *Proposal, fields []Field) map[Field]string {
	out := make(map[Field]string, len(fields))
	for _, f := range fields {
		if v, ok := fieldValue(p, f); ok {
			out[f] = v
		}
	}
	return out
}

// fieldValue reads one field, if p has its part.
func fieldValue(p *Proposal, f Field) (string, bool) {
	parts := strings.SplitN(string(f), "/", 3)
	if len(parts) == 1 {
		return readField(proposalFields, parts[0], p)
	}
	if len(parts) != 3 {
		return "", false
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return "", false
	}
	scope, name := parts[0], parts[2]
	for i := range p.Areas {
		a := &p.Areas[i]
		if scope == scopeAreas && a.ID == id {
			return readField(areaFields, name, a)
		}
		for j := range a.Options {
			o := &a.Options[j]
			if scope == scopeOptions && o.ID == id {
				return readField(optionFields, name, o)
			}
			if scope != scopeItems {
				continue
			}
			for k := range o.Items {
				if o.Items[k].ID == id {
					return readField(itemFields, name, placedItem{&o.Items[k], o.ID, k})
				}
			}
		}
	}
	return "", false
}

// readField reads the field of x declared under name.
func readField[T any](decls []fieldDecl[T], name string, x T) (string, bool) {
	for _, d := range decls {
		if d.name == name {
			return d.read(x), true
		}
	}
	return "", false
}

func readPart[T any](v map[Field]string, scope string, id int64, decls []fieldDecl[T], x T) {
	for _, d := range decls {
		v[scoped(scope, id, d.name)] = d.read(x)
	}
}

func jsonString(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

// partFields are every declared field of one part.
func partFields[T any](scope string, id int64, decls []fieldDecl[T]) []Field {
	out := make([]Field, 0, len(decls))
	for _, d := range decls {
		out = append(out, scoped(scope, id, d.name))
	}
	slices.Sort(out)
	return out
}

// fieldOfKnownPart reports whether f names a proposal field or one of a
// part with an ID: on the server, a create's new part has none yet (its
// fields are new, so nothing can have changed them concurrently).
func fieldOfKnownPart(f Field) bool { return !strings.Contains(string(f), "/0/") }

// FieldChanged reports whether field f changed between two copies of a
// proposal from the server: its value, or (a change that came back to
// the same value) the version that last wrote it.
func FieldChanged(f Field, base, theirs *Proposal, baseValue, theirValue string) bool {
	return baseValue != theirValue || base.FieldVersions[f] != theirs.FieldVersions[f]
}
