package catalogindex

import "sync"

// Cache is a small map safe for concurrent use that holds at most max
// entries: when full it drops about a quarter of them, in map order
// (random enough: hot entries come back at their next use). The index
// keeps its recent answers in one; the server keeps decoded items of a
// catalog version in another.
type Cache[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func NewCache[K comparable, V any](max int) *Cache[K, V] {
	return &Cache[K, V]{max: max, m: map[K]V{}}
}

// Get is safe on a nil cache, which holds nothing.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	if c == nil {
		var zero V
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// Put is a no-op on a nil cache.
func (c *Cache[K, V]) Put(k K, v V) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		n := max(1, c.max/4)
		for old := range c.m {
			delete(c.m, old)
			if n--; n == 0 {
				break
			}
		}
	}
	c.m[k] = v
}
