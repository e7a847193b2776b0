package app

// lockedDoc is the lock rule as the API documentation says it.
const lockedDoc = "Rejected with 409 ProposalLocked when the proposal is Accepted, Declined or Completed."

// proposalParam binds the {ProposalId} of an edit's path.
func proposalParam(id *int64) Param { return PathID("ProposalId", id) }

// editableOption finds an option of the proposal that may be edited.
func editableOption(p *Proposal, optionID int64) (*Option, error) {
	o, ok := p.Option(optionID)
	if !ok {
		return nil, Errorf(KindNotFound, "option %d not found in proposal %d", optionID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return nil, err
	}
	return o, nil
}
