package apiserver

import "sync"

// renderCache keeps rendered proposal details, keyed by proposal, version
// and what the reader may see. The store moves a proposal's version on
// every stored change, so a key never names two contents; a GET still
// reads the proposal first (account scoping, the current version) and
// only skips building and encoding the view. Encoding was a third of a
// signed GET's cost.
type renderCache struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	bodies   map[renderKey][]byte
}

type renderKey struct {
	id, version int64
	costs       bool
}

func newRenderCache(maxBytes int) *renderCache {
	return &renderCache{maxBytes: maxBytes, bodies: make(map[renderKey][]byte)}
}

func (c *renderCache) get(k renderKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.bodies[k]
	return b, ok
}

// put keeps body (which the caller must not change afterwards), dropping
// arbitrary entries while over the byte budget.
func (c *renderCache) put(k renderKey, body []byte) {
	if len(body) > c.maxBytes/8 {
		return // one huge proposal must not flush everything else
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.bodies[k]; ok {
		c.bytes -= len(old)
	}
	for key, b := range c.bodies {
		if c.bytes+len(body) <= c.maxBytes {
			break
		}
		delete(c.bodies, key)
		c.bytes -= len(b)
	}
	c.bodies[k] = body
	c.bytes += len(body)
}
