package app

// Settled reports whether the server's copy (theirs) already has what
// edit m did to the local view (mine): every conflict-checked field m
// writes that both copies have holds the same value in each, and there
// is at least one; or none of them is in either copy (what it removed is
// gone from both). Two laptops that made the same move offline (both
// submitted the proposal) need not show the second as refused: its
// effect is there, so it settles as done. An edit that creates something
// is never settled this way: what it made exists only on the laptop.
func Settled(m Mutation, mine, theirs *Proposal) bool {
	if mine == nil || theirs == nil || len(CreatedIDs(m)) > 0 {
		return false
	}
	mv, tv := FieldValues(mine), FieldValues(theirs)
	compared, present := 0, 0
	for _, f := range m.Writes() {
		a, okA := mv[f]
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
