package pgstore

import "fmt"

// ProposalsJSON reads the documents in one query, as PostgreSQL's text
// of the jsonb column (keys in its order, numbers as written: the same
// proposal when decoded).
func (t *tx) ProposalsJSON(ids []int64, fn func(id int64, doc []byte) error) error {
	rows, err := t.q.Query(t.ctx, "SELECT id, doc::text FROM proposals WHERE account_id = $1 AND id = ANY($2)", t.id, ids)
	if err != nil {
		return fmt.Errorf("read %d proposals: %w", len(ids), err)
	}
	docs := make(map[int64][]byte, len(ids))
	for rows.Next() {
		var id int64
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			rows.Close()
			return fmt.Errorf("read %d proposals: %w", len(ids), err)
		}
		docs[id] = doc
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %d proposals: %w", len(ids), err)
	}
	for _, id := range ids {
		if doc, ok := docs[id]; ok {
			if err := fn(id, doc); err != nil {
				return err
			}
		}
	}
	return nil
}
