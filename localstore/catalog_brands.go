package localstore

import (
	"fmt"

	"proposaldesk/app"
)

// CatalogBrands are the offline catalog's brands as written on their
// items, in catalog order, without the empty brand (labor and fee lines
// often have none).
func (s *Store) CatalogBrands() ([]string, error) {
	ix, err := s.catalogIndex()
	if err != nil {
		return nil, err
	}
	var brands []string
	err = s.view(func(t *txn) error {
		b := t.b(bucketCatalog)
		for _, id := range ix.BrandFirsts() {
			var it app.CatalogItem
			if ok, err := getJSON(b, idKey(id), &it); err != nil {
				return err
			} else if ok && it.Brand != "" {
				brands = append(brands, it.Brand)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("catalog brands: %w", err)
	}
	return brands, nil
}
