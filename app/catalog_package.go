package app

import (
	"fmt"
	"math/big"
)

// A catalog item may be a package: a system a dealer sells as one
// ("5.1 Sonos theater") made of other items of the same catalog with
// quantities. Adding it to an option adds the package line with its
// components nested under it, in one edit (AddItem).
//
// Prices: a package with a sell price (a package price) is a combined
// price: its line carries the package's price and cost, and its
// one-time components are added at no price and no cost of their own,
// so the option's total is the package price (content rule 3: the
// package line's total already includes what is nested under it). A
// recurring component (a monitoring plan in a camera kit) keeps its
// monthly price: a combined price gathers one-time lines only. A
// package without a price costs nothing itself and its components are
// priced as usual.

// CatalogComponent is one item of a package, with its quantity in one
// package.
type CatalogComponent struct {
	CatalogItemID int64    `json:"catalogItemId"`
	Quantity      Quantity `json:"quantity"`
}

// MaxPackageComponents bounds a package's components: a package is a
// system sold as one, not a second catalog.
const MaxPackageComponents = 50

// IsPackage reports whether the item is a package of other items.
func (c *CatalogItem) IsPackage() bool { return len(c.Components) > 0 }

// CheckComponentList checks what a package says on its own: at most
// MaxPackageComponents, each named once, with a quantity above 0 and at
// most MaxItemQuantity, and never the package itself (selfID 0: not
// known yet). Whether each one exists and is not a package is
// CheckComponents's.
func CheckComponentList(selfID int64, comps []CatalogComponent) error {
	if len(comps) > MaxPackageComponents {
		return Invalid("components", "a package holds at most %d items; this one has %d", MaxPackageComponents, len(comps))
	}
	seen := map[int64]bool{}
	for _, c := range comps {
		switch {
		case c.CatalogItemID <= 0:
			return Invalid("components", "catalog item %d is not an item ID", c.CatalogItemID)
		case selfID != 0 && c.CatalogItemID == selfID:
			return Invalid("components", "a package cannot contain itself")
		case seen[c.CatalogItemID]:
			return Invalid("components", "catalog item %d is listed twice; give it one quantity", c.CatalogItemID)
		case c.Quantity <= 0 || c.Quantity > MaxItemQuantity:
			return Invalid("components", "the quantity of catalog item %d must be above 0 and at most %s", c.CatalogItemID, MaxItemQuantity)
		}
		seen[c.CatalogItemID] = true
	}
	return nil
}

// CheckComponents checks a package against its catalog and returns its
// components' items, in the package's order: each must be in the
// catalog and not be a package itself (a package nests one level, as
// items do).
func CheckComponents(pkg *CatalogItem, cat Catalog) ([]CatalogItem, error) {
	if err := CheckComponentList(pkg.ID, pkg.Components); err != nil {
		return nil, err
	}
	out := make([]CatalogItem, 0, len(pkg.Components))
	for _, c := range pkg.Components {
		var it CatalogItem
		ok := false
		if cat != nil {
			var err error
			if it, ok, err = cat.CatalogItem(c.CatalogItemID); err != nil {
				return nil, fmt.Errorf("component %d of catalog item %d: %w", c.CatalogItemID, pkg.ID, err)
			}
		}
		if !ok {
			return nil, Invalid("CatalogItemId", "the package %q lists catalog item %d, which is no longer in the catalog; an Admin can import the package again", pkg.Name, c.CatalogItemID)
		}
		if it.IsPackage() {
			return nil, Invalid("CatalogItemId", "the package %q lists %q, which is a package itself; packages do not nest", pkg.Name, it.Name)
		}
		out = append(out, it)
	}
	return out, nil
}

// ComponentQuantity is a component's quantity on a proposal: its
// quantity in one package times the packages' quantity. A product that
// needs more than four decimals, or exceeds MaxItemQuantity, is refused
// rather than rounded.
func ComponentQuantity(per, packages Quantity) (Quantity, error) {
	p := new(big.Int).Mul(big.NewInt(int64(per)), big.NewInt(int64(packages)))
	q, r := new(big.Int).QuoRem(p, big.NewInt(int64(OneUnit)), new(big.Int))
	if r.Sign() != 0 {
		return 0, Invalid("Quantity", "%s packages of %s each need more than 4 decimals", packages, per)
	}
	if !q.IsInt64() || q.Int64() > int64(MaxItemQuantity) {
		return 0, Invalid("Quantity", "%s packages of %s each exceed the limit of %s", packages, per, MaxItemQuantity)
	}
	return Quantity(q.Int64()), nil
}

// PackagePriced reports whether a package has a package price: its line
// is then a combined price.
func PackagePriced(pkg *CatalogItem) bool { return pkg.SellPrice > 0 }

// componentLine is the item a package's component becomes: the catalog
// copy, at no price and cost of its own inside a priced package unless
// it is a recurring service.
func componentLine(c *CatalogItem, qty Quantity, priced bool, now Time) Item {
	it := catalogLine(c, now)
	it.Quantity = qty
	if priced && !it.IsRecurringService {
		zero := Money(0)
		it.SellPrice = 0
		if it.Cost != nil {
			it.Cost = &zero
		}
	}
	return it
}

// catalogLine is an item copied from a catalog item.
func catalogLine(c *CatalogItem, now Time) Item {
	it := Item{ItemType: c.ItemType, Quantity: OneUnit, CreatedDate: now, LastModifiedDate: now}
	it.ReferencedItemID = c.ID
	it.Brand, it.Model, it.Name = c.Brand, c.Model, c.Name
	it.ShortDescription, it.Description, it.Supplier, it.ImageURL = c.ShortDescription, c.Description, c.Supplier, c.ImageURL
	it.MSRP, it.SellPrice = c.MSRP, c.SellPrice
	it.IsRecurringService = c.IsRecurringService
	if c.Cost != nil {
		cost := *c.Cost
		it.Cost, it.CostUpdateDate = &cost, now
	}
	return it
}
