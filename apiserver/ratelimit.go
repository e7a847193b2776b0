package apiserver

import (
	"sync"
	"time"
)

// Failed key exchanges allowed per user name and per client address in
// one window; more are 429 until the window ends.
const (
	exchangeFailureLimit  = 10
	exchangeFailureWindow = 15 * time.Minute
	// limiterMaxKeys bounds the limiter's memory: past it, expired
	// windows are swept, and if none has expired the oldest is dropped.
	limiterMaxKeys = 100_000
)

// rateLimiter counts failures per key in fixed windows, in memory.
type rateLimiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	keys   map[string]*rlWindow
}

type rlWindow struct {
	start time.Time
	count int
}

func newRateLimiter(limit int, window time.Duration) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, keys: map[string]*rlWindow{}}
}

// blocked reports whether key has used up its failures, and if so how
// long until it may try again.
func (l *rateLimiter) blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.keys[key]
	if !ok {
		return false, 0
	}
	end := w.start.Add(l.window)
	if !now.Before(end) {
		delete(l.keys, key)
		return false, 0
	}
	if w.count >= l.limit {
		return true, end.Sub(now)
	}
	return false, 0
}

// fail counts one failure for key.
func (l *rateLimiter) fail(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.keys[key]
	if !ok || !now.Before(w.start.Add(l.window)) {
		if !ok && len(l.keys) >= limiterMaxKeys {
			l.sweep(now)
		}
		l.keys[key] = &rlWindow{start: now, count: 1}
		return
	}
	w.count++
}

// reset forgets key's failures (after a successful sign-in by that user).
func (l *rateLimiter) reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, key)
}

func (l *rateLimiter) sweep(now time.Time) {
	var oldestKey string
	var oldest time.Time
	for k, w := range l.keys {
		if !now.Before(w.start.Add(l.window)) {
			delete(l.keys, k)
			continue
		}
		if oldestKey == "" || w.start.Before(oldest) {
			oldestKey, oldest = k, w.start
		}
	}
	if len(l.keys) >= limiterMaxKeys && oldestKey != "" {
		delete(l.keys, oldestKey)
	}
}
