package localstore

import (
	"slices"

	"proposaldesk/app"
)

// A conflict is a field whose value changed between the server copy the
// edits were made on (base) and the one just pulled (theirs), that the
// local view (mine) also changed to something else. Which fields there
// are, which an edit writes and which can conflict, app says
// (app.FieldValues, Mutation.Writes, Field.ConflictChecked).

// FieldConflicts is the three-way comparison: the fields where theirs
// differs from base and mine differs from both. Fields missing on a side
// (an option deleted) are not compared. Sorted by field.
func FieldConflicts(base, mine, theirs *app.Proposal) []Conflict {
	if base == nil || mine == nil || theirs == nil {
		return nil
	}
	b, m, t := app.FieldValues(base), app.FieldValues(mine), app.FieldValues(theirs)
	var out []Conflict
	for f, bv := range b {
		if !f.ConflictChecked() {
			continue
		}
		mv, ok1 := m[f]
		tv, ok2 := t[f]
		if !ok1 || !ok2 {
			continue
		}
		if app.FieldChanged(f, base, theirs, bv, tv) && mv != bv && mv != tv {
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

// Fields are the conflict-checked fields the entry writes (the fields of
// Record.Conflicts a keep-mine or keep-theirs of this entry settles).
func (e *Entry) Fields() []app.Field {
	if e.Kind != EntryProposal {
		return nil
	}
	m, err := e.Decode()
	if err != nil {
		return nil
	}
	return m.Writes()
}

// touches reports whether the entry writes the field.
func touches(e *Entry, field app.Field) bool {
	if e.Kind != EntryProposal {
		return false
	}
	m, err := e.Decode()
	if err != nil {
		return false
	}
	return slices.Contains(m.Writes(), field)
}
