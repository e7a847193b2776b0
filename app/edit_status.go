package app

// ChangeStatus is the status-change extension; the allowed moves are
// Status.CanMoveTo.
type ChangeStatus struct {
	ID     int64  `json:"proposalId"`
	Status Status `json:"status"`
}

const KindChangeStatus MutationKind = "changeStatus"
const OpChangeStatus Operation = "ChangeStatus"

func init() {
	registerKind(func() Mutation { return &ChangeStatus{} }, allowedWhenLocked)
}

func (m *ChangeStatus) Kind() MutationKind   { return KindChangeStatus }
func (m *ChangeStatus) Operation() Operation { return OpChangeStatus }
func (m *ChangeStatus) ProposalID() int64    { return m.ID }

func (m *ChangeStatus) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/status", Extension: true,
		Name: "changeStatus", Summary: "Change status (extension)",
		Doc: "Moves the proposal to Status along an allowed move (see the Status schema); anything else is 409 InvalidTransition. Submitted sets lastSubmittedDate; Accepted/Declined set clientLastDecisionDate; Completed sets lastCompletedDate."}
}

func (m *ChangeStatus) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyEnum("Status", &m.Status, Statuses, "The new status, in any letter case.").Require(),
	}
}

func (m *ChangeStatus) Creates(*Proposal) []NewID  { return nil }
func (m *ChangeStatus) Writes() []Field            { return []Field{FieldStatus} }
func (m *ChangeStatus) Events() []WebhookEventType { return causesStatus }
func (m *ChangeStatus) Describe() string           { return "Move to " + string(m.Status) }

func (m *ChangeStatus) Validate() error {
	if _, err := ParseStatus(string(m.Status)); err != nil {
		return Invalid("Status", "%v", err)
	}
	return nil
}

func (m *ChangeStatus) apply(p *Proposal, env *Env) error {
	// Validate accepted the status in any letter case; move to its
	// canonical spelling.
	next, err := ParseStatus(string(m.Status))
	if err != nil {
		return Invalid("Status", "%v", err)
	}
	if !p.Status.CanMoveTo(next) {
		return Errorf(KindInvalidTransition, "a %s proposal cannot move to %s", p.Status, next)
	}
	now := At(env.Now)
	p.Status = next
	switch next {
	case StatusSubmitted:
		p.LastSubmittedDate = now
	case StatusAccepted, StatusDeclined:
		p.ClientLastDecisionDate = now
	case StatusCompleted:
		p.LastCompletedDate = now
	}
	return nil
}
