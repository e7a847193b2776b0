package app

import (
	"strconv"
	"strings"
)

// Settled reports whether the server's copy (theirs) already has what
// edit m did, where mine is the proposal as m left it on the laptop:
// SettledBy with m's effect read from mine.
func Settled(m Mutation, mine, theirs *Proposal) bool {
	if mine == nil {
		return false
	}
	return SettledBy(m, Effect(m, mine), theirs)
}

// Effect is what edit m left in the conflict-checked fields it writes,
// read from after, the proposal as m left it: a field m removed is
// absent. The desktop keeps it with the queued edit, so that the edit is
// later judged by its own effect on the state it was made on, not by a
// later view that includes the edits queued after it (a nest under an
// item, then a move that un-nests it: the later view has the item at
// the top, as a server that refused both would).
func Effect(m Mutation, after *Proposal) map[Field]string {
	return FieldValuesOf(after, m.Writes())
}

// SettledBy reports whether the server's copy (theirs) already has the
// effect of edit m: every field m writes that both the effect and
// theirs have holds the same value in each, and there is at least one;
// or none of them is in either (what it removed is gone from both). Two
// laptops that made the same move offline (both submitted the proposal)
// need not show the second as refused: its effect is there, so it
// settles as done. An edit that creates something is never settled this
// way: what it made exists only on the laptop. A nil effect (an edit
// queued before effects were kept) settles only a removal.
func SettledBy(m Mutation, effect map[Field]string, theirs *Proposal) bool {
	if theirs == nil || len(CreatedIDs(m)) > 0 {
		return false
	}
	tv := FieldValuesOf(theirs, m.Writes())
	compared, present := 0, 0
	for _, f := range m.Writes() {
		a, okA := effect[f]
		b, okB := tv[f]
		if okA || okB {
			present++
		}
		if !okA || !okB {
			continue
		}
		if a != b {
			return false
		}
		compared++
	}
	return compared > 0 || present == 0
}

// RemapEffect rewrites an effect for a temporary ID the server replaced:
// fields of the part it named, and values that are that part's ID (an
// item's parent or option; a text that reads "-7" stays as it is).
func RemapEffect(effect map[Field]string, from, to int64) map[Field]string {
	if len(effect) == 0 {
		return effect
	}
	fromText, toText := strconv.FormatInt(from, 10), strconv.FormatInt(to, 10)
	out := make(map[Field]string, len(effect))
	for f, v := range effect {
		if parts := strings.SplitN(string(f), "/", 3); len(parts) == 3 && parts[1] == fromText {
			f = Field(parts[0] + "/" + toText + "/" + parts[2])
		}
		if v == fromText && f.ValueIsPartID() {
			v = toText
		}
		out[f] = v
	}
	return out
}
