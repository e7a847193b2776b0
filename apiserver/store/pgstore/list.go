package pgstore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"proposaldesk/app"
)

// List answers a list query with app.ListQuery's semantics exactly. The
// database narrows the candidates (the account, archived or not, and each
// search word through the trigram index on the lower-cased search text);
// app's own Matcher and Compare then decide, so the result cannot differ
// from bbolt's in letter case or collation. Only the page's rows are read.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	sql := "SELECT entry FROM proposals WHERE account_id = $1 AND archived = $2"
	args := []any{t.id, q.Archived}
	for _, w := range strings.Fields(strings.ToLower(q.SearchText)) {
		args = append(args, "%"+likeEscape(w)+"%")
		sql += fmt.Sprintf(" AND search LIKE $%d", len(args))
	}
	rows, _ := t.q.Query(t.ctx, sql, args...)
	m := q.Matcher()
	var matched []app.ListEntry
	var raw []byte
	_, err := pgx.ForEachRow(rows, []any{&raw}, func() error {
		var e app.ListEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		if m.Match(&e) {
			matched = append(matched, e)
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list: %w", err)
	}
	slices.SortFunc(matched, func(a, b app.ListEntry) int { return q.Compare(&a, &b) })
	page := q.Page(matched)
	ids := make([]int64, len(page))
	for i, e := range page {
		ids[i] = e.ID
	}
	items, err := t.rows(ids)
	if err != nil {
		return nil, 0, err
	}
	return items, len(matched), nil
}

// rows reads the list rows of ids, in that order.
func (t *tx) rows(ids []int64) ([]app.ListItem, error) {
	items := make([]app.ListItem, 0, len(ids))
	if len(ids) == 0 {
		return items, nil
	}
	rows, _ := t.q.Query(t.ctx, "SELECT id, list_row FROM proposals WHERE account_id = $1 AND id = ANY($2)", t.id, ids)
	byID := make(map[int64]app.ListItem, len(ids))
	var id int64
	var raw []byte
	_, err := pgx.ForEachRow(rows, []any{&id, &raw}, func() error {
		var it app.ListItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return fmt.Errorf("list row %d: %w", id, err)
		}
		byID[id] = it
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list rows: %w", err)
	}
	for _, id := range ids {
		it, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("list row %d: missing", id)
		}
		items = append(items, it)
	}
	return items, nil
}

// likeEscape makes s match itself in a LIKE pattern (backslash is LIKE's
// default escape).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
