package app

// CatalogItem is one product, labor or fee line of an account's catalog
// (the contract's "Proposal content and catalog"). Items added to a
// proposal from the catalog copy its brand, model, names, type, MSRP,
// sell price, cost and recurring flag, and keep its ID as
// referencedItemId.
type CatalogItem struct {
	ID               int64    `json:"id"`
	ItemType         ItemType `json:"itemType"`
	Brand            string   `json:"brand"`
	Model            string   `json:"model"`
	Name             string   `json:"name"`
	ShortDescription string   `json:"shortDescription"`
	Description      string   `json:"description"`
	PartNumber       string   `json:"partNumber"`
	CategoryID       int64    `json:"categoryId"`
	CategoryName     string   `json:"categoryName"`
	Supplier         string   `json:"supplier"`
	MSRP             Money    `json:"msrp"`
	SellPrice        Money    `json:"sellPrice"`
	Cost             *Money   `json:"cost"` // nil: not known, or hidden from the caller
	ImageURL         string   `json:"imageUrl"`
	// IsRecurringService marks a monthly service (remote monitoring, a
	// care plan): an item added from it is recurring too, so it counts
	// in totalRecurringService instead of the one-time totals.
	IsRecurringService bool `json:"isRecurringService"`
	IsDiscontinued     bool `json:"isDiscontinued"`
	LastModifiedDate   Time `json:"lastModifiedDate"`
	// Components make the item a package (catalog_package.go); empty
	// for any other item.
	Components []CatalogComponent `json:"components,omitempty"`
}

// Catalog looks up the account's catalog for the rule engine: the server
// answers from its store inside the write's transaction, the desktop
// from its offline copy.
type Catalog interface {
	// CatalogItem finds an item; found is false for an ID the account
	// does not have, and err is a failure to read (never "not found").
	CatalogItem(id int64) (it CatalogItem, found bool, err error)
}
