package app

// UpdateProposal is operation 4: a partial update of name and salesperson.
type UpdateProposal struct {
	ID            int64   `json:"proposalId"`
	Name          *string `json:"name,omitempty"`
	SalesPersonID *int64  `json:"salesPersonId,omitempty"`
}

const KindUpdateProposal MutationKind = "updateProposal"
const OpUpdateProposal Operation = "UpdateProposal"

func init() {
	registerKind(func() Mutation { return &UpdateProposal{} }, refusedWhenLocked)
}

func (m *UpdateProposal) Kind() MutationKind   { return KindUpdateProposal }
func (m *UpdateProposal) Operation() Operation { return OpUpdateProposal }
func (m *UpdateProposal) ProposalID() int64    { return m.ID }

func (m *UpdateProposal) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}",
		Name: "updateProposal", Summary: "Update proposal name/salesperson (4)",
		Doc: "Partial update: omitted fields keep their values; both may be sent together. " + lockedDoc}
}

func (m *UpdateProposal) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("Name", &m.Name, "The new name.").Max(MaxNameLength).NonBlank(),
		BodyID("SalesPersonId", &m.SalesPersonID, "A user of the same account."),
	}
}

func (m *UpdateProposal) Creates(*Proposal) []NewID { return nil }

func (m *UpdateProposal) Writes() []Field {
	var f []Field
	if m.Name != nil {
		f = append(f, FieldName)
	}
	if m.SalesPersonID != nil {
		f = append(f, FieldSalesPerson)
	}
	return f
}

// Events: every change of content is an update.
func (m *UpdateProposal) Events() []WebhookEventType { return causesUpdated }

func (m *UpdateProposal) Describe() string {
	if m.Name != nil {
		return "Rename to " + *m.Name
	}
	return "Change the salesperson"
}

func (m *UpdateProposal) Validate() error {
	if m.SalesPersonID != nil && *m.SalesPersonID <= 0 {
		return Invalid("SalesPersonId", "must be a user ID")
	}
	return nil
}

func (m *UpdateProposal) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	if m.SalesPersonID != nil {
		sp, err := salesperson(env, *m.SalesPersonID)
		if err != nil {
			return err
		}
		p.SalesPerson = sp
	}
	if m.Name != nil {
		p.Name = *m.Name
	}
	return nil
}
