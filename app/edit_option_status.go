package app

// SetOptionStatus marks an option Selected (the client's choice, counted
// in the totals), Declined or Draft. Selecting one option of an area
// makes its other Selected option Draft.
type SetOptionStatus struct {
	ID       int64        `json:"proposalId"`
	OptionID int64        `json:"optionId"`
	Status   OptionStatus `json:"status"`
}

const KindSetOptionStatus MutationKind = "setOptionStatus"
const OpSetOptionStatus Operation = "SetOptionStatus"

func init() {
	registerKind(func() Mutation { return &SetOptionStatus{} }, refusedWhenLocked)
}

func (m *SetOptionStatus) Kind() MutationKind   { return KindSetOptionStatus }
func (m *SetOptionStatus) Operation() Operation { return OpSetOptionStatus }
func (m *SetOptionStatus) ProposalID() int64    { return m.ID }

func (m *SetOptionStatus) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/status",
		Extension: true, Name: "setOptionStatus", Summary: "Select or decline an option (extension)",
		Doc: "Sets the option's status: Selected (counted in the proposal's totals; the area's other Selected option becomes Draft), Declined or Draft. " + lockedDoc}
}

func (m *SetOptionStatus) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaOptionId", &m.OptionID),
		BodyEnum("Status", &m.Status, OptionStatuses, "Draft, Selected or Declined, in any letter case.").Require(),
	}
}

func (m *SetOptionStatus) Creates(*Proposal) []NewID  { return nil }
func (m *SetOptionStatus) Writes() []Field            { return []Field{OptionField(m.OptionID, "status")} }
func (m *SetOptionStatus) Events() []WebhookEventType { return causesUpdated }

func (m *SetOptionStatus) Describe() string {
	switch s, _ := parseEnum("Status", string(m.Status), OptionStatuses); s {
	case OptionSelected:
		return "Select an option"
	case OptionDeclined:
		return "Decline an option"
	}
	return "Set an option back to draft"
}

func (m *SetOptionStatus) Validate() error {
	if _, err := parseEnum("Status", string(m.Status), OptionStatuses); err != nil {
		return Invalid("Status", "%v", err)
	}
	return nil
}

func (m *SetOptionStatus) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	next, _ := parseEnum("Status", string(m.Status), OptionStatuses)
	now := At(env.Now)
	if next == OptionSelected {
		for a := range p.Areas {
			area := &p.Areas[a]
			if !areaHasOption(area, m.OptionID) {
				continue
			}
			for i := range area.Options {
				if other := &area.Options[i]; other.ID != m.OptionID && other.Status == OptionSelected {
					other.Status, other.LastModifiedDate = OptionDraft, now
				}
			}
		}
	}
	o.Status, o.LastModifiedDate = next, now
	return nil
}

func areaHasOption(a *Area, optionID int64) bool {
	for _, o := range a.Options {
		if o.ID == optionID {
			return true
		}
	}
	return false
}
