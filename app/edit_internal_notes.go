package app

// SetInternalNotes is operation 6. Installers need their notes after a
// proposal is accepted, so this write works in every status.
type SetInternalNotes struct {
	ID            int64  `json:"proposalId"`
	InternalNotes string `json:"internalNotes"`
}

const KindSetInternalNotes MutationKind = "setInternalNotes"
const OpSetInternalNotes Operation = "SetInternalNotes"

func init() {
	registerKind(func() Mutation { return &SetInternalNotes{} }, allowedWhenLocked)
}

func (m *SetInternalNotes) Kind() MutationKind   { return KindSetInternalNotes }
func (m *SetInternalNotes) Operation() Operation { return OpSetInternalNotes }
func (m *SetInternalNotes) ProposalID() int64    { return m.ID }
func (m *SetInternalNotes) Validate() error      { return CheckText("InternalNotes", m.InternalNotes) }

func (m *SetInternalNotes) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/internalnotes",
		Name: "setInternalNotes", Summary: "Update installer notes (6)",
		Doc: "Sets the internal installer notes (shown as internalNotes, never client-facing); an empty string clears them. Works in every status, including Accepted and Completed."}
}

func (m *SetInternalNotes) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("InternalNotes", &m.InternalNotes, "The notes; empty clears them.").Max(MaxTextLength).Require(),
	}
}

func (m *SetInternalNotes) Creates(*Proposal) []NewID  { return nil }
func (m *SetInternalNotes) Writes() []Field            { return []Field{FieldInternalNotes} }
func (m *SetInternalNotes) Events() []WebhookEventType { return causesUpdated }
func (m *SetInternalNotes) Describe() string           { return "Change the installer notes" }

func (m *SetInternalNotes) apply(p *Proposal, env *Env) error {
	p.InternalNotes = m.InternalNotes
	return nil
}
