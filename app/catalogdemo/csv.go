package catalogdemo

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"proposaldesk/app"
)

// WriteCSV writes items in the import format (every column), for import
// tests and benchmarks and as a sample file for dealers. A package's
// components are named by the part numbers of the items of the list
// with their IDs.
func WriteCSV(w io.Writer, items []app.CatalogItem) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(app.CatalogColumns); err != nil {
		return err
	}
	rec := make([]string, len(app.CatalogColumns))
	partNumbers := map[int64]string{}
	for i := range items {
		partNumbers[items[i].ID] = items[i].PartNumber
	}
	for i := range items {
		it := &items[i]
		cost := ""
		if it.Cost != nil {
			cost = it.Cost.String()
		}
		copy(rec, []string{string(it.ItemType), it.Brand, it.Model, it.Name, it.ShortDescription, it.Description,
			it.PartNumber, it.CategoryName, it.Supplier, it.MSRP.String(), it.SellPrice.String(), cost, it.ImageURL,
			strconv.FormatBool(it.IsDiscontinued), strconv.FormatBool(it.IsRecurringService), ""})
		var comps []string
		for _, c := range it.Components {
			pn := partNumbers[c.CatalogItemID]
			if pn == "" {
				return fmt.Errorf("write catalog CSV line %d: component %d has no part number in the list", i+2, c.CatalogItemID)
			}
			comps = append(comps, pn+":"+c.Quantity.String())
		}
		rec[len(rec)-1] = strings.Join(comps, ";")
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write catalog CSV line %d: %w", i+2, err)
		}
	}
	cw.Flush()
	return cw.Error()
}
