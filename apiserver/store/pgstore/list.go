package pgstore

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store/decodecache"
	"proposaldesk/app"
)

// listColumns are the proposal columns written beside the document for
// the list, in this order. Nothing reads modified_json any more (the
// server's cached renderings keep their own Last-Modified); it is still
// written for replicas of the release before during a rolling upgrade,
// and a later migration can drop it.
const listColumns = "number, name_key, client_key, status, status_rank, contact_id, salesperson_id, created_ns, modified_ns, search, modified_json"

// listValues are p's list columns, as listColumns names them.
func listValues(p *app.Proposal) []any {
	e := app.EntryOf(p)
	return []any{e.Number, strings.ToLower(e.Name), strings.ToLower(e.ClientName), string(e.Status),
		slices.Index(app.Statuses, e.Status), e.ContactID, e.SalesPersonID, nanos(e.Created.Time), nanos(e.Modified.Time), e.Search,
		jsonOf(p.LastModifiedDate)}
}

// nanos is t as Unix nanoseconds, clamped to what int64 holds, so the
// database orders times as time.Time.Compare does.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// sortColumns are app.ListQuery's sort keys as columns; anything else
// sorts by modification time, as ListQuery.Compare does.
var sortColumns = map[app.SortField]string{
	app.SortCreatedDate: "created_ns",
	app.SortNumber:      "number",
	app.SortName:        "name_key",
	app.SortClientName:  "client_key",
	app.SortStatus:      "status_rank",
}

// List answers a list query with app.ListQuery's semantics exactly (the
// shared suite holds it to ListQuery.Select). A read-only transaction
// asks the replica's list index at its feed position (listfollow.go); a
// write, which sees its own changes, asks the database: the filters and
// the search words in WHERE (the words through the trigram index), the
// sort with the ID as tie-break, the page with LIMIT, and the count of
// all matches as its own statement in the same round trip.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	if t.writable {
		return queryList(t, q, t.s.rows)
	}
	rows, count, err := t.indexedList(q)
	items := make([]app.ListItem, 0, len(rows))
	for i, r := range rows {
		it, err := t.s.rows.Decode(strconv.FormatInt(r.id, 10), rows[i].row)
		if err != nil {
			return nil, 0, fmt.Errorf("list row %d: %w", r.id, err)
		}
		items = append(items, it)
	}
	return items, count, err
}

// ListJSON is List with the rows encoded, each encoded once per version:
// the index holds them ready.
func (t *tx) ListJSON(q app.ListQuery) ([][]byte, int, error) {
	if t.writable {
		rows, count, err := queryList(t, q, t.s.rowJSON)
		out := make([][]byte, len(rows))
		for i, r := range rows {
			out[i] = r
		}
		return out, count, err
	}
	rows, count, err := t.indexedList(q)
	out := make([][]byte, len(rows))
	for i := range rows {
		out[i] = rows[i].row
	}
	return out, count, err
}

// indexedList answers q from the list index at the transaction's
// position: the page's rows and the number of all matches.
func (t *tx) indexedList(q app.ListQuery) ([]listRow, int, error) {
	ls, err := t.listState()
	if err != nil {
		return nil, 0, err
	}
	page, count := ls.idx.Query(&q)
	rows := make([]listRow, len(page))
	for i, e := range page {
		rows[i], _ = ls.rows.Get(e.ID)
	}
	return rows, count, nil
}

// queryList answers q with the database's search.
func queryList[T any](t *tx, q app.ListQuery, cache *decodecache.Cache[T]) ([]T, int, error) {
	where, args := listWhere(t.id, q)
	b := &pgx.Batch{}
	b.Queue("SELECT count(*) FROM proposals WHERE "+where, args...)
	page := q.PageSize >= 1 && q.PageNumber >= 1 && int64(q.PageNumber-1) <= math.MaxInt32/int64(q.PageSize)
	if page {
		col, ok := sortColumns[q.SortBy]
		if !ok {
			col = "modified_ns"
		}
		dir := "ASC"
		if q.Descending {
			dir = "DESC"
		}
		pargs := append(slices.Clone(args), q.PageSize, (q.PageNumber-1)*q.PageSize)
		b.Queue(fmt.Sprintf("SELECT id, list_row FROM proposals WHERE %s ORDER BY %s %s, id %s LIMIT $%d OFFSET $%d",
			where, col, dir, dir, len(pargs)-1, len(pargs)), pargs...)
	}
	res := t.q.SendBatch(t.ctx, b)
	defer res.Close()
	var count int
	if err := res.QueryRow().Scan(&count); err != nil {
		return nil, 0, fmt.Errorf("list count: %w", err)
	}
	items := []T{}
	if page {
		rows, _ := res.Query()
		var id int64
		var raw []byte
		_, err := pgx.ForEachRow(rows, []any{&id, &raw}, func() error {
			it, err := cache.Decode(strconv.FormatInt(id, 10), raw)
			if err != nil {
				return fmt.Errorf("list row %d: %w", id, err)
			}
			items = append(items, it)
			return nil
		})
		if err != nil {
			return nil, 0, fmt.Errorf("list: %w", err)
		}
	}
	return items, count, res.Close()
}

// listWhere is ListQuery.Matches as a condition and its arguments.
func listWhere(accountID int64, q app.ListQuery) (string, []any) {
	args := []any{accountID, q.Archived}
	conds := []string{"account_id = $1", "archived = $2"}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if len(q.Statuses) > 0 {
		ss := make([]string, len(q.Statuses))
		for i, s := range q.Statuses {
			ss[i] = string(s)
		}
		add("status = ANY($%d)", ss)
	}
	if q.ContactID != 0 {
		add("contact_id = $%d", q.ContactID)
	}
	if q.SalesPersonID != 0 {
		add("salesperson_id = $%d", q.SalesPersonID)
	}
	if !q.ModifiedAfter.IsZero() {
		add("modified_ns > $%d", nanos(q.ModifiedAfter.Time))
	}
	// Both sides lower-cased by Go: LIKE is strings.Contains here.
	for _, w := range strings.Fields(strings.ToLower(q.SearchText)) {
		add("search LIKE $%d", "%"+likeEscape(w)+"%")
	}
	return strings.Join(conds, " AND "), args
}

// likeEscape makes s match itself in a LIKE pattern (backslash is LIKE's
// default escape).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
