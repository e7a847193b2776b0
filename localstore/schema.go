package localstore

import (
	"encoding/binary"
)

// The file's layout. Every bucket is top level; keys that are IDs or
// sequence numbers are 8-byte big-endian, so a cursor walks them in
// order (negative temporary IDs sort after the real ones).
//
//	meta       schema version, storeId, cursor, last sync time, account
//	proposals  proposal ID → record (server copy, local view, flags)
//	list       proposal ID → ListItem (the list index, loaded into memory)
//	outbox     seq → Entry
//	creators   temporary ID → seq of the outbox entry that creates it
//	contacts   contact ID → app.Contact
//	locations  location ID → app.ContactLocation
//	contactLocations  contact ID ‖ location ID → nothing (index)
//	users      user ID → app.User
//
// Version 2 adds:
//
//	settings         name → JSON value (UI preferences; never secrets)
//	outboxByProposal proposal ID ‖ seq → nothing (index)
//
// Version 3 adds the offline catalog (catalog.go):
//
//	catalog          catalog item ID → app.CatalogItem
//	meta             catalogStoreId, catalogCursor
//
// Version 4 moves each record's server copy to its own bucket
// (servercopies.go):
//
//	serverCopies     proposal ID → app.Proposal

// Version 5 writes a record's local view once when it is the server copy
// (Record.LocalIsServer).

// Version 6 marks the outbox entries older versions queued that cannot
// be sent (an edit of proposal 0) as failed, and indexes a proposal
// entry under its proposal even when that is 0.
//
// Any version may hold, made by the first remap that needs it
// (alias.go), so no migration adds it:
//
//	aliases          temporary ID → the real ID the server gave

// SchemaVersion is the layout this code reads and writes.
const SchemaVersion = 6

var (
	bucketMeta             = []byte("meta")
	bucketProposals        = []byte("proposals")
	bucketList             = []byte("list")
	bucketOutbox           = []byte("outbox")
	bucketCreators         = []byte("creators")
	bucketContacts         = []byte("contacts")
	bucketLocations        = []byte("locations")
	bucketContactLocations = []byte("contactLocations")
	bucketUsers            = []byte("users")
	bucketSettings         = []byte("settings")         // v2
	bucketOutboxByProposal = []byte("outboxByProposal") // v2
)

// Keys of the meta bucket.
var (
	keySchema   = []byte("schema")
	keyStoreID  = []byte("storeId")
	keyCursor   = []byte("cursor")
	keyLastSync = []byte("lastSync")
	keyAccount  = []byte("account")
)

// Keys of the settings bucket.
var keySettings = []byte("app")

func idKey(id int64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, uint64(id))
	return k
}

func keyID(k []byte) int64 { return int64(binary.BigEndian.Uint64(k)) }

func seqKey(seq uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, seq)
	return k
}

func keySeq(k []byte) uint64 { return binary.BigEndian.Uint64(k) }

// pairKey is a ‖ b, for the index buckets.
func pairKey(a int64, b uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(a))
	binary.BigEndian.PutUint64(k[8:], b)
	return k
}
