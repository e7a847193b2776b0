package localstore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"proposaldesk/app"
)

// The fields a user edits and the server can change behind them. A
// conflict is a field whose value changed between the server copy the
// edits were made on (base) and the one just pulled (theirs), that the
// local view (mine) also changed to something else.

// Field names used in Conflict.Field.
const (
	FieldName               = "name"
	FieldSalesPerson        = "salesPerson"
	FieldProjectDescription = "projectDescription"
	FieldInternalNotes      = "internalNotes"
	FieldStatus             = "status"
	FieldCustomer           = "customer"
	FieldCustomerLocation   = "customer.location"
)

// OptionField names an option's field: "options/<id>/<name>".
func OptionField(optionID int64, name string) string {
	return "options/" + strconv.FormatInt(optionID, 10) + "/" + name
}

// fieldValues reads every conflict-checked field of p as a string.
func fieldValues(p *app.Proposal) map[string]string {
	v := map[string]string{
		FieldName:               p.Name,
		FieldSalesPerson:        strconv.FormatInt(p.SalesPerson.ID, 10),
		FieldProjectDescription: p.ProjectDescription,
		FieldInternalNotes:      p.InternalNotes,
		FieldStatus:             string(p.Status),
		FieldCustomer:           "",
		FieldCustomerLocation:   "",
	}
	if c := p.Customer; c != nil {
		v[FieldCustomer] = jsonString(map[string]any{"id": c.ID, "name": c.DisplayName()})
		if c.Location != nil {
			v[FieldCustomerLocation] = jsonString(c.Location)
		}
	}
	for _, a := range p.Areas {
		for _, o := range a.Options {
			v[OptionField(o.ID, "clientDescription")] = o.ClientDescription
			v[OptionField(o.ID, "installerDescription")] = o.InstallerDescription
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

// FieldConflicts is the three-way comparison: the fields where theirs
// differs from base and mine differs from both. Fields missing on a side
// (an option deleted) are not compared. Sorted by field.
func FieldConflicts(base, mine, theirs *app.Proposal) []Conflict {
	if base == nil || mine == nil || theirs == nil {
		return nil
	}
	b, m, t := fieldValues(base), fieldValues(mine), fieldValues(theirs)
	var out []Conflict
	for f, bv := range b {
		mv, ok1 := m[f]
		tv, ok2 := t[f]
		if !ok1 || !ok2 {
			continue
		}
		if tv != bv && mv != bv && mv != tv {
			out = append(out, Conflict{Field: f, Base: bv, Mine: mv, Theirs: tv})
		}
	}
	slices.SortFunc(out, func(a, b Conflict) int {
		if a.Field < b.Field {
			return -1
		}
		if a.Field > b.Field {
			return 1
		}
		return 0
	})
	return out
}

// mutationFields are the conflict-checked fields a mutation writes.
func mutationFields(m app.Mutation) []string {
	switch m := m.(type) {
	case *app.UpdateProposal:
		var f []string
		if m.Name != nil {
			f = append(f, FieldName)
		}
		if m.SalesPersonID != nil {
			f = append(f, FieldSalesPerson)
		}
		return f
	case *app.SetDescription:
		return []string{FieldProjectDescription}
	case *app.SetInternalNotes:
		return []string{FieldInternalNotes}
	case *app.ChangeStatus:
		return []string{FieldStatus}
	case *app.AssignContact:
		return []string{FieldCustomer, FieldCustomerLocation}
	case *app.AssignLocation:
		return []string{FieldCustomerLocation}
	case *app.SetOptionClientDescription:
		return []string{OptionField(m.OptionID, "clientDescription")}
	case *app.SetOptionInstallerNotes:
		return []string{OptionField(m.OptionID, "installerDescription")}
	}
	return nil
}

// Fields are the conflict-checked fields the entry writes (the fields of
// Record.Conflicts a keep-mine or keep-theirs of this entry settles).
func (e *Entry) Fields() []string {
	if e.Kind != EntryProposal {
		return nil
	}
	m, err := e.Decode()
	if err != nil {
		return nil
	}
	return mutationFields(m)
}

// touches reports whether the entry writes the field.
func touches(e *Entry, field string) bool {
	if e.Kind != EntryProposal {
		return false
	}
	m, err := e.Decode()
	if err != nil {
		return false
	}
	return slices.Contains(mutationFields(m), field)
}
