package app

// RemoveItem removes an item and the items nested under it.
type RemoveItem struct {
	ID     int64 `json:"proposalId"`
	ItemID int64 `json:"itemId"`
}

const KindRemoveItem MutationKind = "removeItem"
const OpRemoveItem Operation = "RemoveItem"

func init() {
	registerKind(func() Mutation { return &RemoveItem{} }, refusedWhenLocked)
}

func (m *RemoveItem) Kind() MutationKind   { return KindRemoveItem }
func (m *RemoveItem) Operation() Operation { return OpRemoveItem }
func (m *RemoveItem) ProposalID() int64    { return m.ID }
func (m *RemoveItem) Validate() error      { return nil }

func (m *RemoveItem) Route() Route {
	return Route{Method: "DELETE", Path: "/public/proposals/{ProposalId}/items/{ItemId}",
		Extension: true, Name: "removeItem", Summary: "Remove an item (extension)",
		Doc: "Removes the item and the items nested under it. " + lockedDoc}
}

func (m *RemoveItem) Params() []Param {
	return []Param{proposalParam(&m.ID), PathID("ItemId", &m.ItemID)}
}

func (m *RemoveItem) Creates(*Proposal) []NewID { return nil }

// Writes: every field of the item goes with it.
func (m *RemoveItem) Writes() []Field            { return partFields(scopeItems, m.ItemID, itemFields) }
func (m *RemoveItem) Events() []WebhookEventType { return causesUpdated }
func (m *RemoveItem) Describe() string           { return "Remove an item" }

func (m *RemoveItem) apply(p *Proposal, env *Env) error {
	_, place, ok := p.Item(m.ItemID)
	if !ok {
		return Errorf(KindNotFound, "item %d not found in proposal %d", m.ItemID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	takeItemWithChildren(place.Option, m.ItemID)
	place.Option.LastModifiedDate = At(env.Now)
	return nil
}
