package boltstore

import "time"

// Fair groups. bbolt has one writer, and a group's writes are
// acknowledged together at its commit, so a write waits for every write
// of the group it joins and of the group running when it arrived. One
// account writing large proposals (up to app.MaxProposalBytes, about a
// quarter of a second each) from several clients would otherwise fill
// every group with its writes, and another account's small write would
// wait for several of them: 0.77 s p99 against 23–43 ms alone
// (scripts/bench-abuse.sh, docs/performance.md).
//
// So the writer keeps a queue per account and plans each group from them
// (planGroup): accounts whose writes are cheap share a group as before; an
// account whose writes are heavy puts one write in a group, and that
// group holds no cheap write of another account while such writes wait.
// Heavy and cheap groups alternate, so neither starves: a cheap write
// waits for at most the heavy write running and then its own group.

// heavyWrite is the mean time of an account's writes past which they are
// heavy: ten times an ordinary edit of a 500-item proposal, and far below
// the quarter second of a proposal at the size bound.
const heavyWrite = 8 * time.Millisecond

// waiting is one account's queued writes as planGroup sees them.
type waiting struct {
	n     int  // queued writes
	heavy bool // the account's recent writes were heavy
}

// planGroup chooses the next group: how many writes to take from each
// account of ws (in their round-robin order), at most max in all. When
// both kinds wait, heavyTurn says whether this group is the heavy one;
// next is the turn for the group after it.
func planGroup(ws []waiting, heavyTurn bool, max int) (take []int, next bool) {
	take = make([]int, len(ws))
	light, heavy := 0, 0
	for _, w := range ws {
		if w.n == 0 {
			continue
		}
		if w.heavy {
			heavy++
		} else {
			light++
		}
	}
	switch {
	case heavy == 0 && light == 0:
		return take, heavyTurn
	case heavy > 0 && (light == 0 || heavyTurn):
		// One write of each heavy account, cheap ones kept out.
		taken := 0
		for i, w := range ws {
			if w.heavy && w.n > 0 && taken < max {
				take[i], taken = 1, taken+1
			}
		}
		return take, false
	default:
		// Every cheap write, in turns one per account, up to max; the
		// heavy accounts have the next group.
		taken := 0
		for left := true; left && taken < max; {
			left = false
			for i, w := range ws {
				if !w.heavy && take[i] < w.n && taken < max {
					take[i]++
					taken++
					left = left || take[i] < w.n
				}
			}
		}
		return take, heavy > 0
	}
}

// writeCost keeps each account's recent write time: the mean of its
// last few writes, weighted to the latest, so an account becomes heavy
// after a few large writes and cheap again after a few small ones.
type writeCost map[int64]time.Duration

func (c writeCost) heavy(account int64) bool { return c[account] > heavyWrite }

func (c writeCost) observe(account int64, d time.Duration) {
	if prev, ok := c[account]; ok {
		d = (prev + d) / 2
	}
	c[account] = d
}

// accountQueues holds the writes taken off the channel, per account, and
// the accounts in round-robin order.
type accountQueues struct {
	calls map[int64][]*writeCall
	order []int64
	cost  writeCost
	heavy bool // heavyTurn of the next plan
}

func newAccountQueues() *accountQueues {
	return &accountQueues{calls: map[int64][]*writeCall{}, cost: writeCost{}}
}

func (q *accountQueues) empty() bool { return len(q.order) == 0 }

func (q *accountQueues) push(c *writeCall) {
	if len(q.calls[c.account]) == 0 {
		q.order = append(q.order, c.account)
	}
	q.calls[c.account] = append(q.calls[c.account], c)
}

// next takes the next group off the queues. Accounts served move to the
// back of the order, so the first place goes round.
func (q *accountQueues) next(max int) []*writeCall {
	ws := make([]waiting, len(q.order))
	for i, a := range q.order {
		ws[i] = waiting{n: len(q.calls[a]), heavy: q.cost.heavy(a)}
	}
	take, turn := planGroup(ws, q.heavy, max)
	q.heavy = turn
	var group []*writeCall
	var kept, served []int64
	for i, a := range q.order {
		if take[i] == 0 {
			kept = append(kept, a)
			continue
		}
		group = append(group, q.calls[a][:take[i]]...)
		rest := q.calls[a][take[i]:]
		if len(rest) == 0 {
			delete(q.calls, a)
			continue
		}
		q.calls[a] = rest
		served = append(served, a)
	}
	q.order = append(kept, served...)
	return group
}
