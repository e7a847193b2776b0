package boltstore

import (
	"bytes"
	"sync"
)

// decodeCache keeps decoded records beside the bytes they were decoded
// from. A lookup hands over the stored bytes the transaction sees; only
// when they are byte-for-byte the cached ones is the decoded value
// reused. So the cache can never serve a stale or uncommitted record and
// needs no invalidation: a write changes the bytes, a rollback does not.
//
// It exists because decoding JSON was most of a signed GET's cost (the
// key, user, account and proposal are read on every request).
type decodeCache[T any] struct {
	mu    sync.Mutex
	max   int
	items map[string]cached[T]
	copy  func(T) T // a deep copy, so callers may change what they get
}

type cached[T any] struct {
	raw []byte
	val T
}

func newDecodeCache[T any](max int, copy func(T) T) *decodeCache[T] {
	return &decodeCache[T]{max: max, items: make(map[string]cached[T]), copy: copy}
}

// decode returns the value stored as raw under key, decoding only when
// the cache does not hold exactly these bytes.
func (c *decodeCache[T]) decode(key string, raw []byte) (T, error) {
	c.mu.Lock()
	e, ok := c.items[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return c.copy(e.val), nil
	}
	var v T
	if err := decode(raw, &v); err != nil {
		return v, err
	}
	c.put(key, bytes.Clone(raw), c.copy(v))
	return v, nil
}

// peek calls fn with the value stored as raw under key, decoding it only
// when the cache does not hold exactly these bytes, and without the copy
// decode makes: fn must not change the value or keep it.
func (c *decodeCache[T]) peek(key string, raw []byte, fn func(*T)) error {
	c.mu.Lock()
	e, ok := c.items[key]
	c.mu.Unlock()
	if !ok || !bytes.Equal(e.raw, raw) {
		v, err := c.decode(key, raw)
		if err != nil {
			return err
		}
		e.val = v
	}
	fn(&e.val)
	return nil
}

// put keeps val as the decoded form of raw under key. Both become the
// cache's: the caller must not change them afterwards. A writer that has
// just encoded val into raw puts it so the next reader need not decode.
func (c *decodeCache[T]) put(key string, raw []byte, val T) {
	c.mu.Lock()
	if len(c.items) >= c.max {
		// Drop an arbitrary tenth: cheap, and a hot record returns at once.
		n := max(1, c.max/10)
		for k := range c.items {
			if n <= 0 {
				break
			}
			delete(c.items, k)
			n--
		}
	}
	c.items[key] = cached[T]{raw: raw, val: val}
	c.mu.Unlock()
}

func same[T any](v T) T { return v }
