package app

// SetOptionClientDescription is operation 11.
type SetOptionClientDescription struct {
	ID                int64  `json:"proposalId"`
	OptionID          int64  `json:"optionId"`
	ClientDescription string `json:"clientDescription"`
}

const KindSetOptionClientDesc MutationKind = "setOptionClientDescription"
const OpSetOptionClientDesc Operation = "SetOptionClientDescription"

func init() {
	registerKind(func() Mutation { return &SetOptionClientDescription{} }, refusedWhenLocked)
}

func (m *SetOptionClientDescription) Kind() MutationKind   { return KindSetOptionClientDesc }
func (m *SetOptionClientDescription) Operation() Operation { return OpSetOptionClientDesc }
func (m *SetOptionClientDescription) ProposalID() int64    { return m.ID }
func (m *SetOptionClientDescription) Validate() error {
	return CheckText("ClientDescription", m.ClientDescription)
}

func (m *SetOptionClientDescription) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/clientdescription",
		Name: "setOptionClientDescription", Summary: "Update option client description (11)",
		Doc: "The option must belong to the proposal (404 otherwise). An empty string clears. " + lockedDoc}
}

func (m *SetOptionClientDescription) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaOptionId", &m.OptionID),
		BodyText("ClientDescription", &m.ClientDescription, "The description; empty clears it.").Max(MaxTextLength).Require(),
	}
}

func (m *SetOptionClientDescription) Creates(*Proposal) []NewID { return nil }
func (m *SetOptionClientDescription) Writes() []Field {
	return []Field{OptionField(m.OptionID, "clientDescription")}
}

// Events: every change of content is an update.
func (m *SetOptionClientDescription) Events() []WebhookEventType { return causesUpdated }

func (m *SetOptionClientDescription) Describe() string {
	return "Change an option's client description"
}

func (m *SetOptionClientDescription) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	o.ClientDescription = m.ClientDescription
	o.LastModifiedDate = At(env.Now)
	return nil
}
