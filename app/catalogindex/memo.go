package catalogindex

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"proposaldesk/app"
)

// memo remembers the answers of recent queries. An Index never changes,
// so an answer stays right for as long as the index is used; pickers
// typing the same words (every salesperson types "so", "son", "sono"…)
// then cost a map lookup. Words that are not settled by the posting
// lists make a search check every candidate's text, some milliseconds
// for a common word over 100,000 items.
type memo struct {
	mu      sync.Mutex
	answers map[string]answer
}

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

func (m *memo) get(key string) (answer, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.answers[key]
	return a, ok
}

func (m *memo) put(key string, a answer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.answers == nil {
		m.answers = map[string]answer{}
	}
	if len(m.answers) >= maxMemo {
		// Drop about a quarter, in map order: hot queries come back.
		n := maxMemo / 4
		for k := range m.answers {
			delete(m.answers, k)
			if n--; n == 0 {
				break
			}
		}
	}
	m.answers[key] = a
}

// Search returns the IDs of the query's page, in catalog order, and the
// count of all matches.
func (ix *Index) Search(q *app.CatalogQuery) (ids []int64, count int) {
	key := memoKey(q)
	if a, ok := ix.memo.get(key); ok {
		return slices.Clone(a.ids), a.count
	}
	ids, count = ix.search(q)
	ix.memo.put(key, answer{ids: slices.Clone(ids), count: count})
	return ids, count
}
