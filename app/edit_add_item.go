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
		Doc: "Adds an item to the option: from the catalog (CatalogItemId: brand, model, names, type, MSRP, sell price, cost and isRecurringService are copied and referencedItemId set; fields given beside it override the copy) or a custom, labor or fee line (ItemType and Name). Quantity defaults to 1. ParentId nests it under an item of the same option that is not itself nested. At most 1,000 items per option and 5,000 per proposal. Cost needs the ViewCosts permission (403). " + lockedDoc}
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
	return []NewID{{ID: &m.ItemID, Find: func(before, after *Proposal) (int64, bool) {
		o, ok := after.Option(m.OptionID)
		if !ok {
			return 0, false
		}
		// The newest item of the option that was not there before.
		for i := len(o.Items) - 1; i >= 0; i-- {
			if _, _, had := itemOf(before, o.Items[i].ID); !had {
				return o.Items[i].ID, true
			}
		}
		return 0, false
	}}}
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
	if len(o.Items) >= MaxItemsPerOption {
		return Invalid("AreaOptionId", "the option already has the maximum of %d items", MaxItemsPerOption)
	}
	if p.itemCount() >= MaxItemsPerProposal {
		return Invalid("AreaOptionId", "the proposal already has the maximum of %d items", MaxItemsPerProposal)
	}
	now := At(env.Now)
	it := Item{ItemType: ItemCustomItem, Quantity: OneUnit, CreatedDate: now, LastModifiedDate: now}
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
		it.ReferencedItemID = c.ID
		it.ItemType, it.Brand, it.Model, it.Name = c.ItemType, c.Brand, c.Model, c.Name
		it.ShortDescription, it.Description, it.Supplier, it.ImageURL = c.ShortDescription, c.Description, c.Supplier, c.ImageURL
		it.MSRP, it.SellPrice = c.MSRP, c.SellPrice
		it.IsRecurringService = c.IsRecurringService
		if c.Cost != nil {
			cost := *c.Cost
			it.Cost, it.CostUpdateDate = &cost, now
		}
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
	if m.ParentID != nil {
		if err := checkParent(o, it.ID, *m.ParentID); err != nil {
			return err
		}
		it.ParentID = *m.ParentID
	}
	if err := CheckItem(&it); err != nil {
		return err
	}
	insertItem(o, it)
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
