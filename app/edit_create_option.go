package app

// CreateOption is operation 10. OptionID is set only by the desktop (a
// temporary ID).
type CreateOption struct {
	ID                int64  `json:"proposalId"`
	AreaID            int64  `json:"areaId"`
	ClientDescription string `json:"clientDescription"`
	InternalNotes     string `json:"internalNotes"`
	OptionID          int64  `json:"optionId,omitempty"`
}

const KindCreateOption MutationKind = "createOption"
const OpCreateOption Operation = "CreateOption"

func init() {
	registerKind(func() Mutation { return &CreateOption{} }, refusedWhenLocked)
}

func (m *CreateOption) Kind() MutationKind   { return KindCreateOption }
func (m *CreateOption) Operation() Operation { return OpCreateOption }
func (m *CreateOption) ProposalID() int64    { return m.ID }

func (m *CreateOption) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area/{AreaId}/option",
		Name: "createOption", Summary: "Create option (10)",
		Doc: "Adds a Draft option to the area; an area holds at most three (400 OptionLimitReached). " + lockedDoc}
}

func (m *CreateOption) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaId", &m.AreaID),
		BodyText("ClientDescription", &m.ClientDescription, "The option's client-facing description.").Max(MaxTextLength),
		BodyText("InternalNotes", &m.InternalNotes, "Installer notes; shown as installerDescription.").Max(MaxTextLength),
	}
}

func (m *CreateOption) Creates(*Proposal) []NewID {
	return []NewID{{ID: &m.OptionID, Find: func(before, after *Proposal) (int64, bool) {
		// The newest option of the area that was not there before.
		a, ok := after.Area(m.AreaID)
		if !ok {
			return 0, false
		}
		for i := len(a.Options) - 1; i >= 0; i-- {
			if _, had := optionOf(before, a.Options[i].ID); !had {
				return a.Options[i].ID, true
			}
		}
		return 0, false
	}}}
}

func (m *CreateOption) Writes() []Field {
	return []Field{OptionField(m.OptionID, "clientDescription"), OptionField(m.OptionID, "installerDescription")}
}

// Events: every change of content is an update.
func (m *CreateOption) Events() []WebhookEventType { return causesUpdated }

func (m *CreateOption) Describe() string { return "Add an option" }

func (m *CreateOption) Validate() error {
	if err := CheckText("ClientDescription", m.ClientDescription); err != nil {
		return err
	}
	return CheckText("InternalNotes", m.InternalNotes)
}

func (m *CreateOption) apply(p *Proposal, env *Env) error {
	area, ok := p.Area(m.AreaID)
	if !ok {
		return Errorf(KindNotFound, "area %d not found in proposal %d", m.AreaID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	if err := CanAddOption(area); err != nil {
		return err
	}
	area.Options = append(area.Options, Option{
		ID: newID(env, m.OptionID), Status: OptionDraft, LastModifiedDate: At(env.Now),
		ClientDescription: m.ClientDescription, InstallerDescription: m.InternalNotes, Items: []Item{},
	})
	return nil
}

// optionOf finds an option of p, which may be nil.
func optionOf(p *Proposal, id int64) (*Option, bool) {
	if p == nil {
		return nil, false
	}
	return p.Option(id)
}
