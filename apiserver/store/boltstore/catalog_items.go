package boltstore

import (
	"proposaldesk/app"
	"proposaldesk/app/catalogindex"
)

// itemCache keeps decoded catalog items of one catalog version for the
// search pages: decoding an item's JSON cost more than the search itself
// (about 17 µs an item, ten to a page), and pickers typing the same
// words ask for the same first pages. A new version (an import) gets a
// new cache with its index, so nothing in it is ever stale. Items are
// returned by value; their Cost pointer is shared, and callers copy it
// (app.CatalogView) rather than write through it. A nil cache (a reader
// of an older version) holds nothing.
type itemCache = catalogindex.Cache[int64, app.CatalogItem]

// maxCachedItems bounds the cache (a few MB).
const maxCachedItems = 8192

func newItemCache() *itemCache { return catalogindex.NewCache[int64, app.CatalogItem](maxCachedItems) }
