package app

// A ClientDecision is an edit that is the client's own decision taken
// away from their page (the salesperson's laptop): the server writes it
// like any edit and chains its evidence beside it, in the same
// transaction.
type ClientDecision interface {
	Mutation
	// Evidence is what the event keeps of the decision; the server adds
	// its own time, the requester's address and the snapshot decided on.
	Evidence() DecisionEvidence
}

// DecisionEvidence is a client decision's event, as the edit knows it.
type DecisionEvidence struct {
	Type EventType
	// Choices are the chosen options, area → option.
	Choices map[int64]int64
	Data    map[string]string
}
