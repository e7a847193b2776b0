package app

// Decisive moves: Accepted, Declined and Completed lock the proposal and
// tell the client's story, so the desktop asks before making them.

// Decisive reports whether moving to s should be confirmed first.
func (s Status) Decisive() bool { return s.Locked() }

// MoveWarnings are what is missing on p for a decisive move, in words:
// no customer, no location, a zero total. Empty when nothing is.
func MoveWarnings(p *Proposal) []string {
	var w []string
	if p.Customer == nil {
		w = append(w, "It has no customer.")
	} else if p.Customer.Location == nil {
		w = append(w, "The customer has no location, so no sales tax is computed.")
	}
	if Summarize(&p.Document).Total == 0 {
		w = append(w, "Its total is zero.")
	}
	return w
}
