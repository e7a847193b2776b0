package app

// The rules of a proposal's items (the contract's "Item rules"): figures
// in range and exact, nesting one level deep inside one option, limits
// per option and per proposal, and costs only for those who may see them.

const (
	MaxItemsPerOption   = 1000
	MaxItemsPerProposal = 5000
	// MaxItemQuantity and MaxItemPrice bound what a user may enter; the
	// financial rules compute exactly far beyond them.
	MaxItemQuantity Quantity = 1_000_000 * OneUnit
	MaxItemPrice    Money    = 10_000_000 * 100
)

// The edits' params declare these bounds (Param.Within, Param.Above),
// and app.CheckParams enforces them.

// requireCosts refuses to write a cost for a user who may not see costs.
func requireCosts(env *Env) error {
	return Require(env.Actor, PermViewCosts)
}

// ItemPlace is where an item sits: its area and option.
type ItemPlace struct {
	Area   *Area
	Option *Option
	Index  int // in Option.Items
}

// Item finds an item of the document and where it is.
func (d *Document) Item(id int64) (*Item, ItemPlace, bool) {
	for a := range d.Areas {
		area := &d.Areas[a]
		for o := range area.Options {
			opt := &area.Options[o]
			for i := range opt.Items {
				if opt.Items[i].ID == id {
					return &opt.Items[i], ItemPlace{Area: area, Option: opt, Index: i}, true
				}
			}
		}
	}
	return nil, ItemPlace{}, false
}

// itemCount is the number of items of the document.
func (d *Document) itemCount() int {
	n := 0
	for _, a := range d.Areas {
		for _, o := range a.Options {
			n += len(o.Items)
		}
	}
	return n
}

// hasChildren reports whether an item of the option is nested under id.
func (o *Option) hasChildren(id int64) bool {
	for _, it := range o.Items {
		if it.ParentID == id {
			return true
		}
	}
	return false
}

// checkParent is the nesting rule: the parent is an item of the same
// option that is not itself nested, and not the item itself.
func checkParent(o *Option, itemID, parentID int64) error {
	if parentID == 0 {
		return nil
	}
	if parentID == itemID {
		return Invalid("ParentId", "an item cannot be nested under itself")
	}
	for _, it := range o.Items {
		if it.ID == parentID {
			if it.ParentID != 0 {
				return Invalid("ParentId", "items nest one level deep: item %d is itself nested", parentID)
			}
			return nil
		}
	}
	return Errorf(KindNotFound, "parent item %d is not in this option", parentID)
}

// insertAt places it in o at position pos (clamped), or, when nested, at
// the end of its parent's children so that children follow their parent.
func insertItem(o *Option, it Item) {
	pos := len(o.Items)
	if it.ParentID != 0 {
		for i, x := range o.Items {
			if x.ID == it.ParentID || x.ParentID == it.ParentID {
				pos = i + 1
			}
		}
	}
	o.Items = append(o.Items, Item{})
	copy(o.Items[pos+1:], o.Items[pos:])
	o.Items[pos] = it
}
