// Package storetest is the storage test suite every store.Store backend
// runs: the same test functions against bbolt and PostgreSQL, so both keep
// exactly the semantics the server relies on (scoping, rollback, races,
// idempotency, the changes feed, the list rules).
package storetest

import (
	"testing"
	"time"

	"proposaldesk/apiserver/store"
)

// Options are the store settings a test needs.
type Options struct {
	Now            func() time.Time // default time.Now
	IdempotencyTTL time.Duration    // default the backend's
}

// Backend is how the suite makes and inspects stores of one backend.
type Backend struct {
	// Open makes a new, empty store, closed when the test ends.
	Open func(t testing.TB, o Options) store.Store
	// Reopen closes s and opens the same data again.
	Reopen func(t testing.TB, s store.Store) store.Store
	// Dump is every stored record but ID sequences, as text, to check
	// that a failed write changed nothing.
	Dump func(t testing.TB, s store.Store) string
	// DropCaches, when the backend caches, empties its caches.
	DropCaches func(s store.Store)
}

// Run runs the whole suite.
func Run(t *testing.T, be Backend) {
	tests := []struct {
		name string
		fn   func(*testing.T, Backend)
	}{
		{"Smoke", testSmoke},
		{"ChangesFeed", testChangesFeed},
		{"Idempotency", testIdempotency},
		{"Auth", testAuth},
		{"IDsAndNumbers", testIDsAndNumbers},
		{"LocationsAndContacts", testLocationsAndContacts},
		{"PeopleFeed", testPeopleFeed},
		{"ProposalsJSON", testProposalsJSON},
		{"AccountScoping", testAccountScoping},
		{"Rollback", testRollback},
		{"ConcurrentReadModifyWrite", testConcurrentReadModifyWrite},
		{"ListEqualsSelect", testListEqualsSelect},
		{"ListPagingEdges", testListPagingEdges},
		{"Model", testModel},
		{"CatalogImportMergeReplaceAndFeed", testCatalogImportMergeReplaceAndFeed},
		{"CatalogImportWithoutPartNumbers", testCatalogImportWithoutPartNumbers},
		{"CatalogReplaceNeedsConfirmation", testCatalogReplaceNeedsConfirmation},
		{"CatalogAccountScoping", testCatalogAccountScoping},
		{"CatalogImportRollsBack", testCatalogImportRollsBack},
		{"CatalogSearchEqualsReference", testCatalogSearchEqualsReference},
		{"CatalogPackages", testCatalogPackages},
		{"ClientEvidence", testClientEvidence},
		{"MailQueue", testMailQueue},
		{"MailClaimsConcurrent", testMailClaimsConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, be) })
	}
}
