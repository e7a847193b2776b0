package lockout

import (
	"context"
	"sync"
	"time"
)

// Memory is the in-memory Counter of one server process; a restart
// clears it.
type Memory struct {
	policy  Policy
	maxKeys int

	mu   sync.Mutex
	keys map[string]*Counts
}

// DefaultMaxKeys bounds Memory: past it, forgotten entries are swept,
// and if none is, the one with the oldest activity is dropped.
const DefaultMaxKeys = 200_000

// NewMemory returns an empty in-memory counter that forgets by p.
func NewMemory(p Policy, maxKeys int) *Memory {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	return &Memory{policy: p, maxKeys: maxKeys, keys: map[string]*Counts{}}
}

func pairKey(k Keys) string   { return "p\x00" + k.User + "\x00" + k.Addr }
func addrKeyOf(k Keys) string { return "a\x00" + k.Addr }
func userKey(k Keys) string   { return "u\x00" + k.User }

// deviceKey is per token, not per user: a token names one user already.
func deviceKey(k Keys) string { return "d\x00" + k.Device }

// Load implements Counter.
func (m *Memory) Load(_ context.Context, k Keys) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	get := func(key string) Counts {
		if c := m.keys[key]; c != nil {
			return *c
		}
		return Counts{}
	}
	st := State{Pair: get(pairKey(k)), Addr: get(addrKeyOf(k)), User: get(userKey(k))}
	if k.Device != "" {
		d := get(deviceKey(k))
		st.Device = &d
	}
	return st, nil
}

// Failed implements Counter.
func (m *Memory) Failed(_ context.Context, k Keys, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, key := range k.Counted() {
		c := m.entry(key, now)
		if !m.policy.Live(*c, now) {
			c.Failures = 0
		}
		c.Failures++
		c.LastFailure = now
	}
	return nil
}

// Succeeded implements Counter.
func (m *Memory) Succeeded(_ context.Context, k Keys, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, key := range k.Cleared() {
		c := m.entry(key, now)
		c.Failures, c.LastFailure, c.LastSuccess = 0, time.Time{}, now
	}
	return nil
}

// Len is the number of entries held, for tests of the bound.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}

func (m *Memory) entry(key string, now time.Time) *Counts {
	if c := m.keys[key]; c != nil {
		return c
	}
	if len(m.keys) >= m.maxKeys {
		m.sweep(now)
	}
	c := &Counts{}
	m.keys[key] = c
	return c
}

// sweep drops entries that no longer matter, and if none does, the one
// with the oldest activity.
func (m *Memory) sweep(now time.Time) {
	var oldestKey string
	var oldest time.Time
	for k, c := range m.keys {
		if !m.policy.Live(*c, now) && !m.policy.Known(*c, now) {
			delete(m.keys, k)
			continue
		}
		last := c.LastFailure
		if c.LastSuccess.After(last) {
			last = c.LastSuccess
		}
		if oldestKey == "" || last.Before(oldest) {
			oldestKey, oldest = k, last
		}
	}
	if len(m.keys) >= m.maxKeys && oldestKey != "" {
		delete(m.keys, oldestKey)
	}
}
