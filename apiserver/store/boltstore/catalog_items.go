package boltstore

import (
	"sync"

	"proposaldesk/app"
)

// itemCache keeps decoded catalog items of one catalog version for the
// search pages: decoding an item's JSON cost more than the search itself
// (about 17 µs an item, ten to a page), and pickers typing the same
// words ask for the same first pages. A new version (an import) gets a
// new cache with its index, so nothing in it is ever stale. Items are
// returned by value; their Cost pointer is shared, and callers copy it
// (app.CatalogView) rather than write through it.
type itemCache struct {
	mu    sync.Mutex
	items map[int64]app.CatalogItem
}

// maxCachedItems bounds the cache (a few MB).
const maxCachedItems = 8192

func newItemCache() *itemCache { return &itemCache{items: map[int64]app.CatalogItem{}} }

// get is safe on a nil cache (a reader of an older version has none).
func (c *itemCache) get(id int64) (app.CatalogItem, bool) {
	if c == nil {
		return app.CatalogItem{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[id]
	return it, ok
}

func (c *itemCache) put(id int64, it app.CatalogItem) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.items) >= maxCachedItems {
		// Drop about a quarter, in map order (random enough): the hot
		// items come back at their next request.
		n := maxCachedItems / 4
		for k := range c.items {
			delete(c.items, k)
			if n--; n == 0 {
				break
			}
		}
	}
	c.items[id] = it
}
