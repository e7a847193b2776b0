package store

import (
	"fmt"
	"iter"
	"strings"

	"proposaldesk/app"
)

// CatalogWriter is a backend's storage of one account's catalog while
// ImportCatalog applies an import to it in one transaction: how an item
// is written, found and removed, and nothing of which items go.
type CatalogWriter interface {
	// CategoryID finds or allocates the ID of the category with the key
	// (CategoryKey).
	CategoryID(key string) (int64, error)
	// ItemByKey finds the item with the key (app.CatalogKeyOf).
	ItemByKey(key string) (it app.CatalogItem, found bool, err error)
	// AddItem stores a new item under the key with an ID it allocates,
	// and returns the ID.
	AddItem(key string, it app.CatalogItem) (id int64, err error)
	// UpdateItem stores it, an item the catalog holds under the key,
	// again.
	UpdateItem(key string, it app.CatalogItem) error
	// ItemIDs calls fn with the ID of every item the catalog holds.
	ItemIDs(fn func(id int64)) error
	// RemoveItems removes the items and notes each in report
	// (report.NoteRemoved, with the item as it was).
	RemoveItems(ids []int64, report *app.CatalogImportReport) error
}

// ImportCatalog applies rows to a catalog of present items through w, with
// CatalogTx.ImportCatalog's semantics: each row is written as it comes
// (UpsertCatalogRow),
// and with app.CatalogReplace the items no row named are then removed,
// once app.CheckCatalogRemoval allows that many. A failure leaves the
// transaction to be rolled back. Every backend's ImportCatalog runs it, so
// which items a replace removes is decided in one place.
func ImportCatalog(w CatalogWriter, mode app.CatalogImportMode, present int, now app.Time,
	rows iter.Seq2[app.CatalogRow, error], report *app.CatalogImportReport) error {
	named := map[int64]struct{}{}
	for row, err := range PackagesLast(rows) {
		if err != nil {
			return err
		}
		id, err := UpsertCatalogRow(w, row, now, report)
		if err != nil {
			return fmt.Errorf("import line %d: %w", row.Line, err)
		}
		if mode == app.CatalogReplace {
			named[id] = struct{}{}
		}
	}
	if mode != app.CatalogReplace {
		return nil
	}
	var doomed []int64
	if err := w.ItemIDs(func(id int64) {
		if _, ok := named[id]; !ok {
			doomed = append(doomed, id)
		}
	}); err != nil {
		return err
	}
	if err := app.CheckCatalogRemoval(report.ConfirmRemoval, present, len(doomed)); err != nil {
		return err
	}
	if len(doomed) == 0 {
		return nil
	}
	return w.RemoveItems(doomed, report)
}

// UpsertCatalogRow writes the row's item through w and returns its ID: the
// item with the row's key takes the row's content and keeps its ID, or a
// new item is added; either is stamped with now, the import's time. An
// item the row would not change is left as it is. It counts the row in
// report (Added, Updated or Unchanged).
func UpsertCatalogRow(w CatalogWriter, row app.CatalogRow, now app.Time, report *app.CatalogImportReport) (int64, error) {
	it := row.Item
	if f, ok := w.(KeyFlusher); ok && len(row.Components) > 0 {
		if err := f.FlushKeys(); err != nil {
			return 0, err
		}
	}
	comps, err := resolveComponents(w, row.Components)
	if err != nil {
		return 0, err
	}
	it.Components = comps
	if k := CategoryKey(it.CategoryName); k != "" {
		id, err := w.CategoryID(k)
		if err != nil {
			return 0, fmt.Errorf("category %q: %w", it.CategoryName, err)
		}
		it.CategoryID = id
	}
	it.LastModifiedDate = now
	old, found, err := w.ItemByKey(row.Key)
	if err != nil {
		return 0, err
	}
	if !found {
		report.Added++
		return w.AddItem(row.Key, it)
	}
	it.ID = old.ID
	if app.SameCatalogContent(&old, &it) && old.CategoryID == it.CategoryID {
		report.Unchanged++
		return it.ID, nil
	}
	report.Updated++
	return it.ID, w.UpdateItem(row.Key, it)
}

// CategoryKey is the key a category name is stored under: names that
// differ only in case or surrounding space are one category, and a blank
// name is none ("").
func CategoryKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// A KeyFlusher is a CatalogWriter whose ItemByKey finds the keys it
// added only once they are flushed (boltstore writes them sorted, in a
// batch): a package's components are found after FlushKeys.
type KeyFlusher interface {
	FlushKeys() error
}

// PackagesLast yields rows that are not packages as they come, then the
// packages (few, kept in memory): a package's components, which may come
// later in the file, are then in the catalog when it is written.
func PackagesLast(rows iter.Seq2[app.CatalogRow, error]) iter.Seq2[app.CatalogRow, error] {
	return func(yield func(app.CatalogRow, error) bool) {
		var packages []app.CatalogRow
		for row, err := range rows {
			if err == nil && len(row.Components) > 0 {
				packages = append(packages, row)
				continue
			}
			if !yield(row, err) || err != nil {
				return
			}
		}
		for _, row := range packages {
			if !yield(row, nil) {
				return
			}
		}
	}
}

// resolveComponents finds the IDs of the items a package row names.
// The file's check (app.CatalogCSV.CheckPackages) refused rows naming
// missing items or packages; finding one here is a catalog that changed
// between the check and the write.
func resolveComponents(w CatalogWriter, refs []app.CatalogComponentRef) ([]app.CatalogComponent, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	out := make([]app.CatalogComponent, 0, len(refs))
	for _, r := range refs {
		c, found, err := w.ItemByKey(r.Key())
		if err != nil {
			return nil, fmt.Errorf("component %q: %w", r.PartNumber, err)
		}
		if !found {
			return nil, fmt.Errorf("component %q is not in the catalog", r.PartNumber)
		}
		if c.IsPackage() {
			return nil, fmt.Errorf("component %q is a package itself", r.PartNumber)
		}
		out = append(out, app.CatalogComponent{CatalogItemID: c.ID, Quantity: r.Quantity})
	}
	return out, nil
}
