package app

// ChangeItem changes an item: any of its figures, texts and flags, its
// nesting (ParentID 0 un-nests), its option (a move) and its position.
// Omitted fields keep their value.
type ChangeItem struct {
	ID                 int64     `json:"proposalId"`
	ItemID             int64     `json:"itemId"`
	Quantity           *Quantity `json:"quantity,omitempty"`
	SellPrice          *Money    `json:"sellPrice,omitempty"`
	Cost               *Money    `json:"cost,omitempty"`
	Name               *string   `json:"name,omitempty"`
	Description        *string   `json:"description,omitempty"`
	ClientNote         *string   `json:"clientNote,omitempty"`
	IsTaxExempt        *bool     `json:"isTaxExempt,omitempty"`
	IsRecurringService *bool     `json:"isRecurringService,omitempty"`
	ParentID           *int64    `json:"parentId,omitempty"`
	OptionID           *int64    `json:"areaOptionId,omitempty"`
	Position           *int64    `json:"position,omitempty"`
}

const KindChangeItem MutationKind = "changeItem"
const OpChangeItem Operation = "ChangeItem"

func init() {
	registerKind(func() Mutation { return &ChangeItem{} }, refusedWhenLocked)
}

func (m *ChangeItem) Kind() MutationKind   { return KindChangeItem }
func (m *ChangeItem) Operation() Operation { return OpChangeItem }
func (m *ChangeItem) ProposalID() int64    { return m.ID }

func (m *ChangeItem) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/items/{ItemId}",
		Extension: true, Name: "changeItem", Summary: "Change an item (extension)",
		Doc: "Changes any of the item's fields; omitted fields keep their value. ParentId nests it under an item of its option (0 un-nests); AreaOptionId moves it, with the items nested under it, to another option of the proposal; Position is its 0-based place among its option's items. Cost needs the ViewCosts permission (403). " + lockedDoc}
}

func (m *ChangeItem) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("ItemId", &m.ItemID),
		BodyQuantity("Quantity", &m.Quantity, "More than 0, at most 1,000,000, at most 4 decimals; price × quantity at most 100,000,000,000.00.").Above(0, int64(MaxItemQuantity)),
		BodyMoney("SellPrice", &m.SellPrice, "Unit sell price, 0 to 10,000,000; price × quantity at most 100,000,000,000.00.").Within(0, int64(MaxItemPrice)),
		BodyMoney("Cost", &m.Cost, "Unit cost (needs ViewCosts), 0 to 10,000,000.").Within(0, int64(MaxItemPrice)),
		BodyText("Name", &m.Name, "The item's name.").Max(MaxNameLength).NonBlank(),
		BodyText("Description", &m.Description, "Description.").Max(MaxTextLength),
		BodyText("ClientNote", &m.ClientNote, "A note the client sees.").Max(MaxTextLength),
		BodyBool("IsTaxExempt", &m.IsTaxExempt, "Exempt from sales tax."),
		BodyBool("IsRecurringService", &m.IsRecurringService, "A recurring service."),
		BodyID("ParentId", &m.ParentID, "Nest under this item of the same option; 0 un-nests.").AllowZero(),
		BodyID("AreaOptionId", &m.OptionID, "Move to this option of the proposal."),
		BodyInt("Position", &m.Position, "0-based position among the option's items."),
	}
}

func (m *ChangeItem) Creates(*Proposal) []NewID { return nil }

func (m *ChangeItem) Writes() []Field {
	var f []Field
	add := func(set bool, name string) {
		if set {
			f = append(f, ItemField(m.ItemID, name))
		}
	}
	add(m.Quantity != nil, "quantity")
	add(m.SellPrice != nil, "sellPrice")
	add(m.Cost != nil, "cost")
	add(m.Name != nil, "name")
	add(m.Description != nil, "description")
	add(m.ClientNote != nil, "clientNote")
	add(m.IsTaxExempt != nil, "isTaxExempt")
	add(m.IsRecurringService != nil, "isRecurringService")
	add(m.ParentID != nil, "parentId")
	add(m.OptionID != nil, "option")
	add(m.Position != nil || len(f) == 0, "position")
	return f
}

// Events: every change of content is an update.
func (m *ChangeItem) Events() []WebhookEventType { return causesUpdated }

func (m *ChangeItem) Describe() string {
	switch {
	case m.Quantity != nil && m.Name == nil:
		return "Change an item's quantity to " + m.Quantity.String()
	case m.Name != nil:
		return "Change item " + *m.Name
	case m.OptionID != nil:
		return "Move an item to another option"
	case m.Position != nil:
		return "Reorder an item"
	}
	return "Change an item"
}

func (m *ChangeItem) Validate() error {
	// Lengths and ranges are the params' declarations, checked by Apply
	// before Validate.
	if m.ParentID != nil && *m.ParentID < 0 && !IsTemporaryID(*m.ParentID) {
		return Invalid("ParentId", "must be an item ID or 0")
	}
	if m.Position != nil && *m.Position < 0 {
		return Invalid("Position", "must be 0 or more")
	}
	return nil
}

func (m *ChangeItem) apply(p *Proposal, env *Env) error {
	it, place, ok := p.Item(m.ItemID)
	if !ok {
		return Errorf(KindNotFound, "item %d not found in proposal %d", m.ItemID, p.ID)
	}
	if err := checkEditable(p); err != nil {
		return err
	}
	if m.Cost != nil {
		if err := requireCosts(env); err != nil {
			return err
		}
	}
	now := At(env.Now)
	next := *it
	if m.Quantity != nil {
		next.Quantity = *m.Quantity
	}
	if m.SellPrice != nil {
		next.SellPrice = *m.SellPrice
	}
	if m.Cost != nil {
		cost := *m.Cost
		next.Cost, next.CostUpdateDate = &cost, now
	}
	for _, t := range []struct{ dst, src *string }{
		{&next.Name, m.Name}, {&next.Description, m.Description}, {&next.ClientNote, m.ClientNote}} {
		if t.src != nil {
			*t.dst = *t.src
		}
	}
	if m.IsTaxExempt != nil {
		next.IsTaxExempt = *m.IsTaxExempt
	}
	if m.IsRecurringService != nil {
		next.IsRecurringService = *m.IsRecurringService
	}
	next.LastModifiedDate = now
	if err := CheckItem(&next); err != nil {
		return err
	}
	*it = next

	// Where it goes: its option (a move takes its children along), its
	// parent, its position.
	target := place.Option
	if m.OptionID != nil && *m.OptionID != place.Option.ID {
		o, ok := p.Option(*m.OptionID)
		if !ok {
			return Errorf(KindNotFound, "option %d not found in proposal %d", *m.OptionID, p.ID)
		}
		if it.ParentID != 0 && (m.ParentID == nil || *m.ParentID != 0) {
			return Invalid("AreaOptionId", "a nested item stays in its parent's option: un-nest it (ParentId 0) to move it")
		}
		moved := takeItemWithChildren(place.Option, m.ItemID)
		if len(o.Items)+len(moved) > MaxItemsPerOption {
			return Invalid("AreaOptionId", "the option already has the maximum of %d items", MaxItemsPerOption)
		}
		o.Items = append(o.Items, moved...)
		place.Option.LastModifiedDate = now
		target = o
	}
	idx := indexOfItem(target, m.ItemID)
	if m.ParentID != nil {
		if *m.ParentID != 0 && target.hasChildren(m.ItemID) {
			return Invalid("ParentId", "items nest one level deep: item %d has items nested under it", m.ItemID)
		}
		if err := checkParent(target, m.ItemID, *m.ParentID); err != nil {
			return err
		}
		target.Items[idx].ParentID = *m.ParentID
		if *m.ParentID != 0 && m.Position == nil {
			// Place it among its new parent's children.
			it := target.Items[idx]
			target.Items = append(target.Items[:idx], target.Items[idx+1:]...)
			insertItem(target, it)
		}
	}
	if m.Position != nil {
		moveItem(target, m.ItemID, int(*m.Position))
	}
	target.LastModifiedDate = now
	return nil
}

// takeItemWithChildren removes an item and the items nested under it from
// o, in their order.
func takeItemWithChildren(o *Option, id int64) []Item {
	var taken, kept []Item
	for _, it := range o.Items {
		if it.ID == id || it.ParentID == id {
			taken = append(taken, it)
		} else {
			kept = append(kept, it)
		}
	}
	o.Items = kept
	if o.Items == nil {
		o.Items = []Item{}
	}
	return taken
}

func indexOfItem(o *Option, id int64) int {
	for i, it := range o.Items {
		if it.ID == id {
			return i
		}
	}
	return -1
}

// moveItem puts an item at position pos of its option (clamped to the
// end).
func moveItem(o *Option, id int64, pos int) {
	i := indexOfItem(o, id)
	if i < 0 {
		return
	}
	it := o.Items[i]
	o.Items = append(o.Items[:i], o.Items[i+1:]...)
	if pos > len(o.Items) {
		pos = len(o.Items)
	}
	o.Items = append(o.Items, Item{})
	copy(o.Items[pos+1:], o.Items[pos:])
	o.Items[pos] = it
}
