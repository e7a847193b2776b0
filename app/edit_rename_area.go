package app

// RenameArea renames an area, with the uniqueness rule of CreateArea.
type RenameArea struct {
	ID     int64  `json:"proposalId"`
	AreaID int64  `json:"areaId"`
	Name   string `json:"name"`
}

const KindRenameArea MutationKind = "renameArea"
const OpRenameArea Operation = "RenameArea"

func init() {
	registerKind(func() Mutation { return &RenameArea{} }, refusedWhenLocked)
}

func (m *RenameArea) Kind() MutationKind   { return KindRenameArea }
func (m *RenameArea) Operation() Operation { return OpRenameArea }
func (m *RenameArea) ProposalID() int64    { return m.ID }
func (m *RenameArea) Validate() error      { return nil } // Name's limits are its param's

func (m *RenameArea) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area/{AreaId}",
		Extension: true, Name: "renameArea", Summary: "Rename an area (extension)",
		Doc: "Renames the area; the name must be unique in the proposal (case-insensitive, trimmed): 400 AreaNameTaken otherwise. " + lockedDoc}
}

func (m *RenameArea) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaId", &m.AreaID),
		BodyText("Name", &m.Name, "The new area name.").Max(MaxNameLength).NonBlank(),
	}
}

func (m *RenameArea) Creates(*Proposal) []NewID  { return nil }
func (m *RenameArea) Writes() []Field            { return []Field{AreaField(m.AreaID, "name")} }
func (m *RenameArea) Events() []WebhookEventType { return causesUpdated }
func (m *RenameArea) Describe() string           { return "Rename an area to " + m.Name }

func (m *RenameArea) apply(p *Proposal, env *Env) error {
	a, ok := p.Area(m.AreaID)
	if !ok {
		return Errorf(KindNotFound, "area %d not found in proposal %d", m.AreaID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	for _, other := range p.Areas {
		if other.ID != a.ID && SameAreaName(other.Name, m.Name) {
			return Errorf(KindAreaNameTaken, "the proposal already has an area named %q", other.Name)
		}
	}
	a.Name = m.Name
	return nil
}
