package app

// CreateArea is operation 9: a new area with its default Draft option.
// AreaID and OptionID are set only by the desktop (temporary IDs).
type CreateArea struct {
	ID       int64  `json:"proposalId"`
	Name     string `json:"name"`
	AreaID   int64  `json:"areaId,omitempty"`
	OptionID int64  `json:"optionId,omitempty"`
}

const KindCreateArea MutationKind = "createArea"
const OpCreateArea Operation = "CreateArea"

func init() {
	registerKind(func() Mutation { return &CreateArea{} }, refusedWhenLocked)
}

func (m *CreateArea) Kind() MutationKind   { return KindCreateArea }
func (m *CreateArea) Operation() Operation { return OpCreateArea }
func (m *CreateArea) ProposalID() int64    { return m.ID }
func (m *CreateArea) Validate() error      { return nil } // Name's limits are its param's

func (m *CreateArea) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area",
		Name: "createArea", Summary: "Create area (9)",
		Doc: "Adds an area with one default Draft option. The name must be unique in the proposal (case-insensitive, trimmed): 400 AreaNameTaken otherwise. " + lockedDoc}
}

func (m *CreateArea) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("Name", &m.Name, "The area name, unique in the proposal.").Max(MaxNameLength).NonBlank(),
	}
}

func (m *CreateArea) Creates(*Proposal) []NewID {
	// The new area is the one that was not there before, with this name.
	newArea := func(before, after *Proposal) (*Area, bool) {
		for i := range after.Areas {
			a := &after.Areas[i]
			if _, had := areaOf(before, a.ID); !had && SameAreaName(a.Name, m.Name) {
				return a, true
			}
		}
		return nil, false
	}
	return []NewID{
		{ID: &m.AreaID, Find: func(before, after *Proposal) (int64, bool) {
			a, ok := newArea(before, after)
			if !ok {
				return 0, false
			}
			return a.ID, true
		}},
		{ID: &m.OptionID, Find: func(before, after *Proposal) (int64, bool) {
			a, ok := newArea(before, after)
			if !ok || len(a.Options) == 0 {
				return 0, false
			}
			return a.Options[0].ID, true
		}},
	}
}

func (m *CreateArea) Writes() []Field            { return []Field{AreaField(m.AreaID, "name")} }
func (m *CreateArea) Events() []WebhookEventType { return causesUpdated }
func (m *CreateArea) Describe() string           { return "Add area " + m.Name }

func (m *CreateArea) apply(p *Proposal, env *Env) error {
	if err := checkEditable(p); err != nil {
		return err
	}
	if err := checkAreaNameFree(&p.Document, m.Name); err != nil {
		return err
	}
	now := At(env.Now)
	p.Areas = append(p.Areas, Area{
		ID:   newID(env, m.AreaID),
		Name: m.Name,
		Options: []Option{{ID: newID(env, m.OptionID), Status: OptionDraft,
			LastModifiedDate: now, Items: []Item{}}},
	})
	return nil
}

// areaOf finds an area of p, which may be nil.
func areaOf(p *Proposal, id int64) (*Area, bool) {
	if p == nil {
		return nil, false
	}
	return p.Area(id)
}
