package app

import "fmt"

// AddItem adds an item to an option: from the catalog (CatalogItemID),
// or a custom, labor or fee line (ItemType and Name). ItemID is set only
// by the desktop (a temporary ID).
type AddItem struct {
	ID                 int64     `json:"proposalId"`
	OptionID           int64     `json:"optionId"`
	CatalogItemID      *int64    `json:"catalogItemId,omitempty"`
	ItemType           *ItemType `json:"itemType,omitempty"`
	Name               *string   `json:"name,omitempty"`
	Brand              *string   `json:"brand,omitempty"`
	Model              *string   `json:"model,omitempty"`
	Description        *string   `json:"description,omitempty"`
	SellPrice          *Money    `json:"sellPrice,omitempty"`
	Cost               *Money    `json:"cost,omitempty"`
	MSRP               *Money    `json:"msrp,omitempty"`
	Quantity           *Quantity `json:"quantity,omitempty"`
	ParentID           *int64    `json:"parentId,omitempty"`
	IsTaxExempt        *bool     `json:"isTaxExempt,omitempty"`
	IsRecurringService *bool     `json:"isRecurringService,omitempty"`
	ClientNote         *string   `json:"clientNote,omitempty"`
	ItemID             int64     `json:"itemId,omitempty"`
	// ComponentItemIDs are the IDs a package's nested lines got, in the
	// package's order: given by apply the first time (temporary ones on
	// the desktop) and kept in the outbox, so a replay gives the same
	// IDs and a sync can map each to the server's.
	ComponentItemIDs []int64 `json:"componentItemIds,omitempty"`
}

const KindAddItem MutationKind = "addItem"
const OpAddItem Operation = "AddItem"

func init() {
	registerKind(func() Mutation { return &AddItem{} }, refusedWhenLocked)
}

func (m *AddItem) Kind() MutationKind   { return KindAddItem }
func (m *AddItem) Operation() Operation { return OpAddItem }
func (m *AddItem) ProposalID() int64    { return m.ID }

func (m *AddItem) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/items",
		Extension: true, Name: "addItem", Summary: "Add an item (extension)",
		Doc: "Adds an item to the option: from the catalog (CatalogItemId: brand, model, names, type, MSRP, sell price, cost and isRecurringService are copied and referencedItemId set; fields given beside it override the copy) or a custom, labor or fee line (ItemType and Name). Quantity defaults to 1. ParentId nests it under an item of the same option that is not itself nested. At most 1,000 items per option and 5,000 per proposal. Cost needs the ViewCosts permission (403). " +
			"A catalog package (an item with components) adds the package line and, nested under it, a copy of each component with its quantity times the package's, all checked as one edit (the limits count every line; a package cannot be nested). With a package price the package line is a combined price (isCombinedPrice) and its one-time components have no price or cost of their own; without one the package line costs nothing and the components are priced as usual. " + lockedDoc}
}

func (m *AddItem) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		PathID("AreaOptionId", &m.OptionID),
		BodyID("CatalogItemId", &m.CatalogItemID, "A catalog item of the account to copy (404 when unknown)."),
		BodyEnum("ItemType", &m.ItemType, ItemTypes, "Part, Labor, Fee or CustomItem; required without CatalogItemId."),
		BodyText("Name", &m.Name, "The item's name; required without CatalogItemId.").Max(MaxNameLength).NonBlank(),
		BodyText("Brand", &m.Brand, "Brand.").Max(MaxNameLength),
		BodyText("Model", &m.Model, "Model or part number.").Max(MaxNameLength),
		BodyText("Description", &m.Description, "Description.").Max(MaxTextLength),
		BodyMoney("SellPrice", &m.SellPrice, "Unit sell price, 0 to 10,000,000, at most the currency's decimals; price × quantity at most 100,000,000,000.00.").Within(0, int64(MaxItemPrice)),
		BodyMoney("Cost", &m.Cost, "Unit cost (needs ViewCosts), 0 to 10,000,000.").Within(0, int64(MaxItemPrice)),
		BodyMoney("Msrp", &m.MSRP, "Manufacturer's list price, 0 to 10,000,000.").Within(0, int64(MaxItemPrice)),
		BodyQuantity("Quantity", &m.Quantity, "More than 0, at most 1,000,000, at most 4 decimals; default 1; price × quantity at most 100,000,000,000.00.").Above(0, int64(MaxItemQuantity)),
		BodyID("ParentId", &m.ParentID, "Nest under this item of the same option."),
		BodyBool("IsTaxExempt", &m.IsTaxExempt, "Exempt from sales tax."),
		BodyBool("IsRecurringService", &m.IsRecurringService, "A recurring service (monthly), totalled apart."),
		BodyText("ClientNote", &m.ClientNote, "A note the client sees.").Max(MaxTextLength),
	}
}

func (m *AddItem) Creates(*Proposal) []NewID {
	out := []NewID{{ID: &m.ItemID, Find: m.findAdded}}
	for i := range m.ComponentItemIDs {
		out = append(out, NewID{ID: &m.ComponentItemIDs[i], Find: func(before, after *Proposal) (int64, bool) {
			pkg, ok := m.findAdded(before, after)
			if !ok {
				return 0, false
			}
			o, _ := after.Option(m.OptionID)
			n := 0
			for _, it := range o.Items {
				if it.ParentID == pkg {
					if n == i {
						return it.ID, true
					}
					n++
				}
			}
			return 0, false
		}})
	}
	return out
}

// findAdded finds the added line in the server's copy: the newest item
// of the option that was not there before and is not nested under
// another new one (a package's components follow their package).
func (m *AddItem) findAdded(before, after *Proposal) (int64, bool) {
	o, ok := after.Option(m.OptionID)
	if !ok {
		return 0, false
	}
	isNew := func(id int64) bool {
		_, _, had := itemOf(before, id)
		return !had
	}
	for i := len(o.Items) - 1; i >= 0; i-- {
		it := &o.Items[i]
		if isNew(it.ID) && (it.ParentID == 0 || !isNew(it.ParentID)) {
			return it.ID, true
		}
	}
	return 0, false
}

func (m *AddItem) Writes() []Field            { return []Field{ItemField(m.ItemID, "quantity")} }
func (m *AddItem) Events() []WebhookEventType { return causesUpdated }

func (m *AddItem) Describe() string {
	switch {
	case m.Name != nil:
		return "Add " + *m.Name
	case m.CatalogItemID != nil:
		return "Add a catalog item"
	}
	return "Add an item"
}

func (m *AddItem) Validate() error {
	if m.CatalogItemID == nil {
		if m.ItemType == nil {
			return Invalid("ItemType", "is required without CatalogItemId")
		}
		if m.Name == nil {
			return Invalid("Name", "is required without CatalogItemId")
		}
	}
	// Lengths, ranges and the item type's values are the params'
	// declarations, checked by Apply before Validate.
	return nil
}

func (m *AddItem) apply(p *Proposal, env *Env) error {
	o, err := editableOption(p, m.OptionID)
	if err != nil {
		return err
	}
	if m.Cost != nil {
		if err := requireCosts(env); err != nil {
			return err
		}
	}
	now := At(env.Now)
	it := Item{ItemType: ItemCustomItem, Quantity: OneUnit, CreatedDate: now, LastModifiedDate: now}
	var pkg *CatalogItem
	var comps []CatalogItem
	if m.CatalogItemID != nil {
		var c CatalogItem
		ok := false
		if env.Catalog != nil {
			var err error
			if c, ok, err = env.Catalog.CatalogItem(*m.CatalogItemID); err != nil {
				return fmt.Errorf("catalog item %d: %w", *m.CatalogItemID, err)
			}
		}
		if !ok {
			return Errorf(KindNotFound, "catalog item %d not found in this account", *m.CatalogItemID)
		}
		it = catalogLine(&c, now)
		if c.IsPackage() {
			if comps, err = CheckComponents(&c, env.Catalog); err != nil {
				return err
			}
			pkg = &c
		}
	}
	if n := 1 + len(comps); len(o.Items)+n > MaxItemsPerOption {
		return Invalid("AreaOptionId", "the option has %d items; adding %d would pass the maximum of %d", len(o.Items), n, MaxItemsPerOption)
	} else if p.itemCount()+n > MaxItemsPerProposal {
		return Invalid("AreaOptionId", "the proposal has %d items; adding %d would pass the maximum of %d", p.itemCount(), n, MaxItemsPerProposal)
	}
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	if m.ItemType != nil { // Validate accepted it in any letter case
		it.ItemType, _ = parseEnum("ItemType", string(*m.ItemType), ItemTypes)
	}
	set(&it.Name, m.Name)
	set(&it.Brand, m.Brand)
	set(&it.Model, m.Model)
	set(&it.Description, m.Description)
	set(&it.ClientNote, m.ClientNote)
	if m.SellPrice != nil {
		it.SellPrice = *m.SellPrice
	}
	if m.MSRP != nil {
		it.MSRP = *m.MSRP
	}
	if m.Cost != nil {
		cost := *m.Cost
		it.Cost, it.CostUpdateDate = &cost, now
	}
	if m.Quantity != nil {
		it.Quantity = *m.Quantity
	}
	if m.IsTaxExempt != nil {
		it.IsTaxExempt = *m.IsTaxExempt
	}
	if m.IsRecurringService != nil {
		it.IsRecurringService = *m.IsRecurringService
	}
	it.ID = newID(env, m.ItemID)
	if m.ParentID != nil && *m.ParentID != 0 && pkg != nil {
		return Invalid("ParentId", "a package holds its items nested under it, so it cannot be nested itself")
	}
	if m.ParentID != nil {
		if err := checkParent(o, it.ID, *m.ParentID); err != nil {
			return err
		}
		it.ParentID = *m.ParentID
	}
	if err := CheckItem(&it); err != nil {
		return err
	}
	lines := []Item{it}
	if pkg != nil {
		// The line's price is the package's unless the request gave one.
		priced := it.SellPrice > 0
		lines[0].IsCombinedPrice = priced
		if !priced {
			if lines[0].Cost != nil && m.Cost == nil {
				zero := Money(0)
				lines[0].Cost = &zero
			}
		}
		for i := range comps {
			q, err := ComponentQuantity(pkg.Components[i].Quantity, it.Quantity)
			if err != nil {
				return err
			}
			c := componentLine(&comps[i], q, priced, now)
			if i < len(m.ComponentItemIDs) {
				c.ID = newID(env, m.ComponentItemIDs[i])
			} else {
				c.ID = newID(env, 0)
			}
			c.ParentID = it.ID
			if err := CheckItem(&c); err != nil {
				return err
			}
			lines = append(lines, c)
		}
		// The IDs given are kept with the edit (see ComponentItemIDs).
		ids := make([]int64, len(comps))
		for i := range comps {
			ids[i] = lines[i+1].ID
		}
		m.ComponentItemIDs = ids
	}
	for _, l := range lines {
		insertItem(o, l)
	}
	o.LastModifiedDate = now
	return nil
}

// itemOf finds an item of p, which may be nil.
func itemOf(p *Proposal, id int64) (*Item, ItemPlace, bool) {
	if p == nil {
		return nil, ItemPlace{}, false
	}
	return p.Item(id)
}
