package catalogindex

import (
	"slices"
	"strconv"
	"strings"

	"proposaldesk/app"
)

// An Index remembers the answers of recent queries (Index.memo). An
// Index never changes, so an answer stays right for as long as the index
// is used; pickers typing the same words (every salesperson types "so",
// "son", "sono"…) then cost a map lookup. Words that are not settled by
// the posting lists make a search check every candidate's text, some
// milliseconds for a common word over 100,000 items.
type answer struct {
	ids   []int64
	count int
}

// maxMemo bounds the memo: a few hundred KB.
const maxMemo = 4096

// memoKey is the query in a canonical form: its words, filters and page.
func memoKey(q *app.CatalogQuery) string {
	var b strings.Builder
	b.WriteString(strings.Join(q.SearchWords(), " "))
	b.WriteByte(0)
	b.WriteString(string(q.ItemType))
	b.WriteByte(0)
	for _, br := range q.Brands {
		b.WriteString(strings.ToLower(br))
		b.WriteByte(1)
	}
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(q.CategoryID, 10))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(q.PageNumber))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(q.PageSize))
	return b.String()
}

// Search returns the IDs of the query's page, in catalog order, and the
// count of all matches.
func (ix *Index) Search(q *app.CatalogQuery) (ids []int64, count int) {
	key := memoKey(q)
	if a, ok := ix.memo.Get(key); ok {
		return slices.Clone(a.ids), a.count
	}
	ids, count = ix.search(q)
	ix.memo.Put(key, answer{ids: slices.Clone(ids), count: count})
	return ids, count
}
