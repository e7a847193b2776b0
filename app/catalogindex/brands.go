package catalogindex

// BrandFirsts are the IDs of the first entry of each brand, in brand
// order: one item per brand, whose Brand is the brand as written (the
// entries hold it lower-cased), for a brand filter's choices.
func (ix *Index) BrandFirsts() []int64 {
	var ids []int64
	for i := range ix.entries {
		if i == 0 || ix.entries[i].Brand != ix.entries[i-1].Brand {
			ids = append(ids, ix.entries[i].ID)
		}
	}
	return ids
}
