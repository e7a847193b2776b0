package listindex

import "maps"

// Layered is a map that is never changed once made: a base shared by
// many versions and the few keys changed since, merged into a new base
// once they pass a bound, so a new version costs its changes. The stores
// keep each proposal's list row this way beside the index.
type Layered[K comparable, V any] struct {
	base, delta map[K]V
}

// NewLayered is a Layered over base, which becomes the Layered's.
func NewLayered[K comparable, V any](base map[K]V) Layered[K, V] {
	return Layered[K, V]{base: base}
}

// Get returns the value of k.
func (l Layered[K, V]) Get(k K) (V, bool) {
	if v, ok := l.delta[k]; ok {
		return v, true
	}
	v, ok := l.base[k]
	return v, ok
}

// With is l with the keys of changed set, merged into a new base when
// more than deltaMax keys have changed. l is unchanged.
func (l Layered[K, V]) With(changed map[K]V, deltaMax int) Layered[K, V] {
	if len(l.delta)+len(changed) <= deltaMax {
		delta := maps.Clone(l.delta)
		if delta == nil {
			delta = make(map[K]V, len(changed))
		}
		maps.Copy(delta, changed)
		return Layered[K, V]{base: l.base, delta: delta}
	}
	base := maps.Clone(l.base)
	maps.Copy(base, l.delta)
	maps.Copy(base, changed)
	return Layered[K, V]{base: base}
}
