package mail

import (
	"slices"
	"sync"
	"time"
)

// Latencies keeps the last n times from enqueue to accepted by the SMTP
// server, and how many there were in all.
type Latencies struct {
	mu    sync.Mutex
	ring  []time.Duration
	next  int
	count int
}

func newLatencies(n int) *Latencies { return &Latencies{ring: make([]time.Duration, 0, n)} }

func (l *Latencies) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count++
	if len(l.ring) < cap(l.ring) {
		l.ring = append(l.ring, d)
		return
	}
	l.ring[l.next] = d
	l.next = (l.next + 1) % len(l.ring)
}

// Quantile is the q-quantile (0.5: the median) of the kept times, and
// the number of all mail accepted; 0, 0 before any.
func (l *Latencies) Quantile(q float64) (time.Duration, int) {
	l.mu.Lock()
	kept := slices.Clone(l.ring)
	count := l.count
	l.mu.Unlock()
	if len(kept) == 0 {
		return 0, 0
	}
	slices.Sort(kept)
	i := min(int(q*float64(len(kept))), len(kept)-1)
	return kept[i], count
}
