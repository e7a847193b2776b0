package boltstore

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestPlanGroup(t *testing.T) {
	H := func(n int) waiting { return waiting{n: n, heavy: true} }
	L := func(n int) waiting { return waiting{n: n} }
	tests := []struct {
		name      string
		ws        []waiting
		heavyTurn bool
		max       int
		take      []int
		next      bool
	}{
		{"nothing waits", []waiting{L(0)}, true, 256, []int{0}, true},
		{"cheap writes share one group", []waiting{L(3), L(2)}, false, 256, []int{3, 2}, false},
		{"cheap writes share it even on the heavy turn", []waiting{L(3), L(2)}, true, 256, []int{3, 2}, false},
		{"the group's bound is shared in turns", []waiting{L(5), L(1), L(4)}, false, 6, []int{3, 1, 2}, false},
		{"heavy alone: one write of each heavy account", []waiting{H(4), H(2)}, false, 256, []int{1, 1}, false},
		{"cheap first, then the heavy turn", []waiting{H(4), L(1)}, false, 256, []int{0, 1}, true},
		{"heavy turn keeps the cheap out", []waiting{H(4), L(1)}, true, 256, []int{1, 0}, false},
		{"heavy bounded by max", []waiting{H(1), H(1), H(1)}, false, 2, []int{1, 1, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			take, next := planGroup(tt.ws, tt.heavyTurn, tt.max)
			if !slices.Equal(take, tt.take) || next != tt.next {
				t.Errorf("planGroup(%v, %v, %d) = %v, %v; want %v, %v", tt.ws, tt.heavyTurn, tt.max, take, next, tt.take, tt.next)
			}
		})
	}
}

// A cheap write queued behind an account's heavy writes runs in the
// second group at the latest, and no group holds two heavy writes of one
// account, whatever order the writes arrived in.
func TestAccountQueuesServeCheapWritesBetweenHeavyOnes(t *testing.T) {
	q := newAccountQueues()
	q.cost.observe(1, 250*time.Millisecond)
	q.cost.observe(2, time.Millisecond)
	call := func(a int64) *writeCall { return &writeCall{account: a} }
	for range 4 {
		q.push(call(1))
	}
	q.push(call(2))
	var groups []string
	for !q.empty() {
		g := q.next(maxGroup)
		groups = append(groups, accountsOf(g))
		if len(groups) == 2 {
			q.push(call(2)) // another cheap write arrives meanwhile
		}
	}
	want := []string{"[2]", "[1]", "[2]", "[1]", "[1]", "[1]"}
	if !slices.Equal(groups, want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
}

func TestWriteCostFollowsRecentWrites(t *testing.T) {
	c := writeCost{}
	if c.heavy(7) {
		t.Fatal("an account never seen is heavy")
	}
	c.observe(7, 300*time.Millisecond)
	if !c.heavy(7) {
		t.Fatal("an account after a 300 ms write is not heavy")
	}
	n := 0
	for c.heavy(7) {
		c.observe(7, 100*time.Microsecond)
		n++
	}
	if n > 8 {
		t.Errorf("%d cheap writes to become cheap again; want a few", n)
	}
}

func accountsOf(g []*writeCall) string {
	as := make([]int64, len(g))
	for i, c := range g {
		as[i] = c.account
	}
	return fmt.Sprint(as)
}
