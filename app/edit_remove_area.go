package app

// RemoveArea removes an area with its options and items.
type RemoveArea struct {
	ID     int64 `json:"proposalId"`
	AreaID int64 `json:"areaId"`
}

const KindRemoveArea MutationKind = "removeArea"
const OpRemoveArea Operation = "RemoveArea"

func init() {
	registerKind(func() Mutation { return &RemoveArea{} }, refusedWhenLocked)
}

func (m *RemoveArea) Kind() MutationKind   { return KindRemoveArea }
func (m *RemoveArea) Operation() Operation { return OpRemoveArea }
func (m *RemoveArea) ProposalID() int64    { return m.ID }
func (m *RemoveArea) Validate() error      { return nil }

func (m *RemoveArea) Route() Route {
	return Route{Method: "DELETE", Path: "/public/proposals/{ProposalId}/area/{AreaId}",
		Extension: true, Name: "removeArea", Summary: "Remove an area (extension)",
		Doc: "Removes the area with its options and their items. " + lockedDoc}
}

func (m *RemoveArea) Params() []Param {
	return []Param{proposalParam(&m.ID), PathID("AreaId", &m.AreaID)}
}

func (m *RemoveArea) Creates(*Proposal) []NewID  { return nil }
func (m *RemoveArea) Writes() []Field            { return partFields(scopeAreas, m.AreaID, areaFields) }
func (m *RemoveArea) Events() []WebhookEventType { return causesUpdated }
func (m *RemoveArea) Describe() string           { return "Remove an area" }

func (m *RemoveArea) apply(p *Proposal, env *Env) error {
	if _, ok := p.Area(m.AreaID); !ok {
		return Errorf(KindNotFound, "area %d not found in proposal %d", m.AreaID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	kept := p.Areas[:0]
	for _, a := range p.Areas {
		if a.ID != m.AreaID {
			kept = append(kept, a)
		}
	}
	p.Areas = kept
	return nil
}
