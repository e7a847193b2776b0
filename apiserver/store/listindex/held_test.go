package listindex

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

type ver uint64

func (v ver) Version() uint64 { return uint64(v) }

func TestHeldKeepsRecentVersions(t *testing.T) {
	h := NewHeld[ver](3, 0)
	for _, v := range []ver{1, 2, 4, 3, 5, 6} { // 3 arrives after 4: not kept
		h.Add(7, v)
	}
	for w, want := range map[uint64]bool{1: false, 2: false, 3: false, 4: true, 5: true, 6: true} {
		if _, ok := h.At(7, w); ok != want {
			t.Errorf("At(%d) held = %v, want %v", w, ok, want)
		}
	}
	for w, want := range map[uint64]ver{4: 4, 5: 5, 9: 6} {
		if got, ok := h.Newest(7, w); !ok || got != want {
			t.Errorf("Newest(%d) = %d, %v; want %d", w, got, ok, want)
		}
	}
	if _, ok := h.Newest(7, 3); ok {
		t.Error("Newest(3) found a version though none at or before 3 is held")
	}
	h.Drop(7, 6)
	if got, _ := h.Latest(7); got != 5 {
		t.Errorf("after dropping 6 the latest is %d, want 5", got)
	}
}

func TestHeldBoundsAccounts(t *testing.T) {
	h := NewHeld[ver](2, 3)
	for acct := range int64(10) {
		h.Add(acct, 1)
	}
	n := 0
	for acct := range int64(10) {
		if _, ok := h.Latest(acct); ok {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d accounts held, want 3", n)
	}
	if _, ok := h.Latest(9); !ok {
		t.Error("the account added last was dropped")
	}
}

// Readers of a version being built wait for that build, and all get it.
func TestHeldBuildsOnceForConcurrentReaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHeld[ver](4, 0)
		var builds atomic.Int32
		release := make(chan struct{})
		got := make([]ver, 16)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() {
				got[i], _ = h.Load(1, 5, func() (ver, error) {
					builds.Add(1)
					<-release
					return 5, nil
				})
			})
		}
		synctest.Wait() // one reader builds, fifteen wait for it
		close(release)
		wg.Wait()
		if n := builds.Load(); n != 1 {
			t.Errorf("%d builds for 16 concurrent readers, want 1", n)
		}
		for i, v := range got {
			if v != 5 {
				t.Errorf("reader %d got %d", i, v)
			}
		}
		if versions, building := h.Counts(1); versions != 1 || building != 0 {
			t.Errorf("held %d versions, %d builds left; want 1 and 0", versions, building)
		}
	})
}

// A reader waiting for a build that fails (its own request cancelled,
// say) builds for itself instead of taking the other's error.
func TestHeldRetriesAFailedBuildForAWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHeld[ver](4, 0)
		release := make(chan struct{})
		errFirst := errors.New("first reader's request was cancelled")
		first, waiter := make(chan error, 1), make(chan ver, 1)
		go func() {
			_, err := h.Load(1, 2, func() (ver, error) {
				<-release
				return 0, errFirst
			})
			first <- err
		}()
		synctest.Wait() // the first reader is building
		go func() {
			v, err := h.Load(1, 2, func() (ver, error) { return 2, nil })
			if err != nil {
				t.Errorf("waiter: %v", err)
			}
			waiter <- v
		}()
		synctest.Wait() // the second waits for the first's build
		close(release)
		if err := <-first; !errors.Is(err, errFirst) {
			t.Errorf("first reader: %v, want its own error", err)
		}
		if v := <-waiter; v != 2 {
			t.Errorf("waiter got %d, want 2", v)
		}
	})
}
