package app

// OpPeopleChanges is GET /public/people/changes (extension): the feed a
// laptop keeps its copy of the account's contacts and locations with.
const OpPeopleChanges Operation = "PeopleChanges"

// Paging of the people changes feed (Limit).
const (
	DefaultPeopleChangesLimit = 500
	MaxPeopleChangesLimit     = 2000
)

// ContactWithLocations is a contact as it is now with every location it
// has, in ID order: one entry of the people feed.
type ContactWithLocations struct {
	Contact
	Locations []ContactLocation `json:"locations"`
}

// PeopleChanges is GET /public/people/changes' body: the contacts added
// or changed after the cursor (a change to one of a contact's locations
// is a change of the contact), each once, oldest change first, with
// their locations. Contacts are never removed, so the feed has no
// deletions. HasMore says another page follows at Cursor; PeopleCount is
// the account's number of contacts, for a first download's progress.
type PeopleChanges struct {
	StoreID     string                 `json:"storeId"`
	Cursor      string                 `json:"cursor"`
	People      []ContactWithLocations `json:"people"`
	HasMore     bool                   `json:"hasMore"`
	PeopleCount int                    `json:"peopleCount"`
}
