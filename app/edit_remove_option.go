package app

// RemoveOption removes an option and its items; an area keeps at least
// one option.
type RemoveOption struct {
	ID       int64 `json:"proposalId"`
	OptionID int64 `json:"optionId"`
}

const KindRemoveOption MutationKind = "removeOption"
const OpRemoveOption Operation = "RemoveOption"

func init() {
	registerKind(func() Mutation { return &RemoveOption{} }, refusedWhenLocked)
}

func (m *RemoveOption) Kind() MutationKind   { return KindRemoveOption }
func (m *RemoveOption) Operation() Operation { return OpRemoveOption }
func (m *RemoveOption) ProposalID() int64    { return m.ID }
func (m *RemoveOption) Validate() error      { return nil }

func (m *RemoveOption) Route() Route {
	return Route{Method: "DELETE", Path: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}",
		Extension: true, Name: "removeOption", Summary: "Remove an option (extension)",
		Doc: "Removes the option with its items. An area keeps at least one option: removing its last is 400 ValidationFailed. " + lockedDoc}
}

func (m *RemoveOption) Params() []Param {
	return []Param{proposalParam(&m.ID), PathID("AreaOptionId", &m.OptionID)}
}

func (m *RemoveOption) Creates(*Proposal) []NewID { return nil }
func (m *RemoveOption) Writes() []Field {
	return partFields(scopeOptions, m.OptionID, optionFields)
}

// Events: every change of content is an update.
func (m *RemoveOption) Events() []WebhookEventType { return causesUpdated }

func (m *RemoveOption) Describe() string { return "Remove an option" }

func (m *RemoveOption) apply(p *Proposal, env *Env) error {
	for a := range p.Areas {
		area := &p.Areas[a]
		for i, o := range area.Options {
			if o.ID != m.OptionID {
				continue
			}
			if err := checkEditable(p); err != nil {
				return err
			}
			if len(area.Options) == 1 {
				return Invalid("AreaOptionId", "is the last option of area %q: an area keeps at least one option (remove the area instead)", area.Name)
			}
			area.Options = append(area.Options[:i], area.Options[i+1:]...)
			return nil
		}
	}
	return Errorf(KindNotFound, "option %d not found in proposal %d", m.OptionID, p.ID)
}
