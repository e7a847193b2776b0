package app

// SetDescription is operation 5: the client-facing project description.
type SetDescription struct {
	ID          int64  `json:"proposalId"`
	Description string `json:"description"`
}

const KindSetDescription MutationKind = "setDescription"
const OpSetDescription Operation = "SetDescription"

func init() {
	registerKind(func() Mutation { return &SetDescription{} }, refusedWhenLocked)
}

func (m *SetDescription) Kind() MutationKind   { return KindSetDescription }
func (m *SetDescription) Operation() Operation { return OpSetDescription }
func (m *SetDescription) ProposalID() int64    { return m.ID }
func (m *SetDescription) Validate() error      { return CheckText("Description", m.Description) }

func (m *SetDescription) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/description",
		Name: "setProjectDescription", Summary: "Update project description (5)",
		Doc: "Sets the client-facing project description; an empty string clears it. " + lockedDoc}
}

func (m *SetDescription) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("Description", &m.Description, "The description; empty clears it.").Max(MaxTextLength).Require(),
	}
}

func (m *SetDescription) Creates(*Proposal) []NewID  { return nil }
func (m *SetDescription) Writes() []Field            { return []Field{FieldProjectDescription} }
func (m *SetDescription) Events() []WebhookEventType { return causesUpdated }
func (m *SetDescription) Describe() string           { return "Change the project description" }

func (m *SetDescription) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	p.ProjectDescription = m.Description
	return nil
}
