package pgstore

import (
	"encoding/json"
	"fmt"
	"sync"
)

// countCache keeps the number of matches of recent list queries, keyed by
// the account's feed position as the reading transaction saw it. Every
// proposal write moves that position in its own transaction (PutProposal),
// so a key never names two different counts, on any replica: a count is
// reused only by a reader whose snapshot holds exactly the proposals it
// was counted over. Counting a common search word was most of a list
// page's cost (every match's row is read), and office staff page through
// the same search.
type countCache struct {
	mu     sync.Mutex
	max    int
	counts map[string]int
}

func newCountCache(max int) *countCache {
	return &countCache{max: max, counts: map[string]int{}}
}

// countKey names a count: account, feed position, condition and its
// arguments (as JSON, so no two argument lists share a key).
func countKey(accountID, feedSeq int64, where string, args []any) (string, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("list count key: %w", err)
	}
	return fmt.Sprintf("%d %d %s %s", accountID, feedSeq, where, a), nil
}

func (c *countCache) get(key string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.counts[key]
	return n, ok
}

// put keeps a count, dropping arbitrary ones when full (entries of old
// feed positions are never asked for again).
func (c *countCache) put(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.counts) >= c.max {
		drop := max(1, c.max/10)
		for k := range c.counts {
			if drop == 0 {
				break
			}
			delete(c.counts, k)
			drop--
		}
	}
	c.counts[key] = n
}
