package apiserver

import "sync"

// renderCache keeps rendered proposal details, keyed by proposal, version
// and what the reader may see. The store moves a proposal's version on
// every stored change, so a key never names two contents; a GET still
// reads the proposal first (account scoping, the current version) and
// only skips building and encoding the view. Encoding was a third of a
// signed GET's cost. Each entry keeps its response's header values too
// (formatting the Last-Modified date alone was 2 % of a cached GET).
type renderCache struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	results  map[renderKey]result
}

type renderKey struct {
	id, version int64
	costs       bool
}

func newRenderCache(maxBytes int) *renderCache {
	return &renderCache{maxBytes: maxBytes, results: make(map[renderKey]result)}
}

func (c *renderCache) get(k renderKey) (result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res, ok := c.results[k]
	return res, ok
}

// put keeps res, a rendered result whose body the caller must not change
// afterwards, dropping arbitrary entries while over the byte budget.
func (c *renderCache) put(k renderKey, res result) {
	if len(res.body) > c.maxBytes/8 {
		return // one huge proposal must not flush everything else
	}
	hv := res.headerValues()
	res.header = &hv
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.results[k]; ok {
		c.bytes -= len(old.body)
	}
	for key, old := range c.results {
		if c.bytes+len(res.body) <= c.maxBytes {
			break
		}
		delete(c.results, key)
		c.bytes -= len(old.body)
	}
	c.results[k] = res
	c.bytes += len(res.body)
}
