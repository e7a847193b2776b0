package catalogindex

import "math/bits"

// bitset is a set of ranks, one bit each. A posting list holding more
// than one entry in 32 is kept as a bitset as well: it is then no larger
// than the list, and intersecting long lists (a short word's pieces, an
// item type) becomes a word-wise AND instead of searches.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(r int32)      { b[r>>6] |= 1 << (r & 63) }
func (b bitset) has(r int32) bool { return b[r>>6]&(1<<(r&63)) != 0 }

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// each calls fn with the set ranks in ascending order from the one at
// index skip (the skip-th set bit, counting from 0) until fn returns
// false.
func (b bitset) each(skip int, fn func(r int32) bool) {
	for i, w := range b {
		if c := bits.OnesCount64(w); skip >= c {
			skip -= c
			continue
		}
		for w != 0 {
			t := bits.TrailingZeros64(w)
			w &= w - 1
			if skip > 0 {
				skip--
				continue
			}
			if !fn(int32(i*64 + t)) {
				return
			}
		}
	}
}

// denseMin is the length from which a posting list of an index of n
// entries also gets a bitset.
func denseMin(n int) int { return max(64, n/32) }

func bitsetOf(list []int32, n int) bitset {
	b := newBitset(n)
	for _, r := range list {
		b.set(r)
	}
	return b
}
