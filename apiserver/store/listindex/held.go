package listindex

import (
	"fmt"
	"slices"
	"sync"
)

// Versioned is a snapshot of an account's state at one version.
type Versioned interface{ Version() uint64 }

// Held keeps the recent versions of each account's snapshot, so a reader
// whose transaction began just before a commit still finds the version
// it sees, and builds a missing version once for all the readers that
// want it at the same time (32 clients at a cold start each decoded all
// 10,000 entries: 0.2 requests/s).
type Held[S Versioned] struct {
	keep, accounts int

	mu      sync.Mutex
	snaps   map[int64][]S
	loading map[snapKey]*snapLoad[S]
}

// NewHeld keeps keep versions of at most accounts accounts (0: any
// number); when a new account would pass that, another one's versions
// are dropped and rebuilt when next asked for.
func NewHeld[S Versioned](keep, accounts int) *Held[S] {
	return &Held[S]{keep: keep, accounts: accounts, snaps: map[int64][]S{}, loading: map[snapKey]*snapLoad[S]{}}
}

// At returns the account's snapshot at version w, if held.
func (h *Held[S]) At(account int64, w uint64) (S, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, sn := range h.snaps[account] {
		if sn.Version() == w {
			return sn, true
		}
	}
	var zero S
	return zero, false
}

// Latest returns the account's newest snapshot, if any is held.
func (h *Held[S]) Latest(account int64) (S, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var zero S
	l := h.snaps[account]
	if len(l) == 0 {
		return zero, false
	}
	return l[len(l)-1], true
}

// Newest returns the account's newest snapshot at or before version w, if
// any is held.
func (h *Held[S]) Newest(account int64, w uint64) (S, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var best S
	found := false
	for _, sn := range h.snaps[account] {
		if v := sn.Version(); v <= w && (!found || v > best.Version()) {
			best, found = sn, true
		}
	}
	return best, found
}

// Add publishes a version of the account's snapshot; versions older than
// the newest held are not kept.
func (h *Held[S]) Add(account int64, sn S) {
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.snaps[account]
	if n := len(l); n > 0 && l[n-1].Version() >= sn.Version() {
		return
	}
	if !ok && h.accounts > 0 && len(h.snaps) >= h.accounts {
		for other := range h.snaps { // an arbitrary one
			delete(h.snaps, other)
			break
		}
	}
	l = append(l, sn)
	if len(l) > h.keep {
		l = slices.Delete(l, 0, len(l)-h.keep)
	}
	h.snaps[account] = l
}

// Drop forgets version w of the account's snapshot.
func (h *Held[S]) Drop(account int64, w uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.snaps[account] = slices.DeleteFunc(h.snaps[account], func(sn S) bool { return sn.Version() == w })
}

// Reset forgets every snapshot.
func (h *Held[S]) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.snaps)
}

// Load returns the account's snapshot at version w, building it with
// build (and publishing it) unless it is held or being built.
func (h *Held[S]) Load(account int64, w uint64, build func() (S, error)) (S, error) {
	if sn, ok := h.At(account, w); ok {
		return sn, nil
	}
	key := snapKey{account, w}
	h.mu.Lock()
	l, ok := h.loading[key]
	if !ok {
		l = &snapLoad[S]{done: make(chan struct{})}
		h.loading[key] = l
	}
	h.mu.Unlock()
	if ok {
		<-l.done
		if l.err == nil {
			return l.sn, nil
		}
		// The build failed for its own reader (its request cancelled,
		// say): try once more for this one.
		sn, err := build()
		if err == nil {
			h.Add(account, sn)
		}
		return sn, err
	}
	built := false
	defer func() {
		if !built && l.err == nil { // build panicked
			l.err = fmt.Errorf("list index of account %d: build failed", account)
		}
		h.mu.Lock()
		delete(h.loading, key)
		h.mu.Unlock()
		close(l.done)
	}()
	l.sn, l.err = build()
	built = true
	if l.err == nil {
		h.Add(account, l.sn)
	}
	return l.sn, l.err
}

// snapKey names one version of an account's snapshot.
type snapKey struct {
	account int64
	w       uint64
}

// snapLoad is a build of one version in progress.
type snapLoad[S Versioned] struct {
	done chan struct{}
	sn   S
	err  error
}

// Counts says how many versions of the account's snapshot are held, and
// how many builds of any account are under way.
func (h *Held[S]) Counts(account int64) (versions, building int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.snaps[account]), len(h.loading)
}
