package app

// SetArchived archives a proposal or restores it. It works in every
// status: archiving is filing, not editing.
type SetArchived struct {
	ID         int64 `json:"proposalId"`
	IsArchived bool  `json:"isArchived"`
}

const KindSetArchived MutationKind = "setArchived"
const OpArchive Operation = "Archive"

func init() {
	registerKind(func() Mutation { return &SetArchived{} }, allowedWhenLocked)
}

func (m *SetArchived) Kind() MutationKind   { return KindSetArchived }
func (m *SetArchived) Operation() Operation { return OpArchive }
func (m *SetArchived) ProposalID() int64    { return m.ID }
func (m *SetArchived) Validate() error      { return nil }

func (m *SetArchived) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/archive",
		Extension: true, Name: "setArchived", Summary: "Archive or restore (extension)",
		Doc: "IsArchived true archives the proposal (it leaves the default list; IsArchive=true lists it), false restores it. Works in every status."}
}

func (m *SetArchived) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyBool("IsArchived", &m.IsArchived, "true archives, false restores.").Require(),
	}
}

func (m *SetArchived) Creates(*Proposal) []NewID  { return nil }
func (m *SetArchived) Writes() []Field            { return []Field{FieldArchived} }
func (m *SetArchived) Events() []WebhookEventType { return causesUpdated }

func (m *SetArchived) Describe() string {
	if m.IsArchived {
		return "Archive the proposal"
	}
	return "Restore the proposal from the archive"
}

func (m *SetArchived) apply(p *Proposal, env *Env) error {
	p.Archived = m.IsArchived
	return nil
}
