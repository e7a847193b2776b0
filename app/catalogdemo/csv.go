package catalogdemo

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"proposaldesk/app"
)

// WriteCSV writes items in the import format (every column), for import
// tests and benchmarks and as a sample file for dealers.
func WriteCSV(w io.Writer, items []app.CatalogItem) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(app.CatalogColumns); err != nil {
		return err
	}
	rec := make([]string, len(app.CatalogColumns))
	for i := range items {
		it := &items[i]
		cost := ""
		if it.Cost != nil {
			cost = it.Cost.String()
		}
		copy(rec, []string{string(it.ItemType), it.Brand, it.Model, it.Name, it.ShortDescription, it.Description,
			it.PartNumber, it.CategoryName, it.Supplier, it.MSRP.String(), it.SellPrice.String(), cost, it.ImageURL,
			strconv.FormatBool(it.IsDiscontinued), strconv.FormatBool(it.IsRecurringService)})
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("write catalog CSV line %d: %w", i+2, err)
		}
	}
	cw.Flush()
	return cw.Error()
}
