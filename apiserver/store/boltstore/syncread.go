package boltstore

// ProposalsJSON hands out the stored bytes themselves: they are
// json.Marshal of the proposal, and bbolt keeps them valid until the
// transaction ends.
func (t *tx) ProposalsJSON(ids []int64, fn func(id int64, doc []byte) error) error {
	b := t.b(bProposals)
	for _, id := range ids {
		if v := b.Get(idKey(id)); v != nil {
			if err := fn(id, v); err != nil {
				return err
			}
		}
	}
	return nil
}
