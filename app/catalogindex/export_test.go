package catalogindex

import "proposaldesk/app"

// SearchUncached is Search without the memo, for the benchmarks of the
// search itself.
func (ix *Index) SearchUncached(q *app.CatalogQuery) ([]int64, int) { return ix.search(q) }
