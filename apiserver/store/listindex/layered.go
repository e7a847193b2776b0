package listindex

import (
	"iter"
	"maps"
)

// Layered is a map that is never changed once made: a base shared by
// many versions and the few keys changed since, merged into a new base
// once they pass a bound, so a new version costs its changes. The stores
// keep each proposal's list row this way beside the index, and a
// snapshot its delta.
type Layered[K comparable, V any] struct {
	base, delta map[K]V
	n           int // distinct keys
}

// NewLayered is a Layered over base, which becomes the Layered's.
func NewLayered[K comparable, V any](base map[K]V) Layered[K, V] {
	return Layered[K, V]{base: base, n: len(base)}
}

// Get returns the value of k.
func (l Layered[K, V]) Get(k K) (V, bool) {
	if v, ok := l.delta[k]; ok {
		return v, true
	}
	v, ok := l.base[k]
	return v, ok
}

// Len is the number of keys.
func (l Layered[K, V]) Len() int { return l.n }

// All yields every key once, with its value.
func (l Layered[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for k, v := range l.delta {
			if !yield(k, v) {
				return
			}
		}
		for k, v := range l.base {
			if _, shadowed := l.delta[k]; shadowed {
				continue
			}
			if !yield(k, v) {
				return
			}
		}
	}
}

// With is l with the keys of changed set, merged into a new base when
// more than deltaMax keys have changed. l is unchanged.
func (l Layered[K, V]) With(changed map[K]V, deltaMax int) Layered[K, V] {
	n := l.n
	for k := range changed {
		if _, ok := l.Get(k); !ok {
			n++
		}
	}
	if len(l.delta)+len(changed) <= deltaMax {
		delta := maps.Clone(l.delta)
		if delta == nil {
			delta = make(map[K]V, len(changed))
		}
		maps.Copy(delta, changed)
		return Layered[K, V]{base: l.base, delta: delta, n: n}
	}
	base := maps.Clone(l.base)
	if base == nil {
		base = make(map[K]V, n)
	}
	maps.Copy(base, l.delta)
	maps.Copy(base, changed)
	return Layered[K, V]{base: base, n: n}
}
