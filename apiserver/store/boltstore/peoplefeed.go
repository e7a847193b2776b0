package boltstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// The people feed: like the proposals' changes feed, one entry per
// contact at the position of its latest change (the contact or one of
// its locations written).
var (
	bPeopleFeed = []byte("peoplefeed")
	bPeopleAt   = []byte("peopleat")
)

// touchContact moves contact id to the end of the people feed.
func (t *tx) touchContact(id int64) error {
	return touchFeed(t.b(bPeopleFeed), t.b(bPeopleAt), idKey(id))
}

// touchFeed moves key to the end of a feed (seq -> key) kept with its
// reverse (key -> seq).
func touchFeed(feed, at *bolt.Bucket, key []byte) error {
	if old := at.Get(key); old != nil {
		if err := feed.Delete(old); err != nil {
			return err
		}
	}
	seq, err := feed.NextSequence()
	if err != nil {
		return err
	}
	if err := feed.Put(u64(seq), key); err != nil {
		return err
	}
	return at.Put(key, u64(seq))
}

func (t *tx) PeopleChanges(cursor string, limit int) (app.PeopleChanges, error) {
	out := app.PeopleChanges{Cursor: cursor, People: []app.ContactWithLocations{}}
	var after uint64
	if cursor != "" {
		v, err := strconv.ParseUint(cursor, 10, 64)
		if err != nil {
			return out, app.Invalid("since", "%q is not a cursor this server gave", cursor)
		}
		after = v
	}
	out.PeopleCount = t.b(bPeopleAt).Stats().KeyN
	c := t.b(bPeopleFeed).Cursor()
	k, v := c.Seek(u64(after + 1))
	for ; k != nil && len(out.People) < limit; k, v = c.Next() {
		id := keyID(v)
		var ct app.Contact
		if err := decode(t.b(bContacts).Get(v), &ct); err != nil {
			return out, fmt.Errorf("contact %d: %w", id, err)
		}
		locs, err := t.Locations(id)
		if err != nil {
			return out, err
		}
		out.People = append(out.People, app.ContactWithLocations{Contact: ct, Locations: locs})
		out.Cursor = strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	out.HasMore = k != nil
	return out, nil
}

// migratePeopleFeed (schema v2) gives every account a people feed
// holding its contacts in ID order.
func migratePeopleFeed(btx *bolt.Tx) error {
	accts := btx.Bucket(bAccounts)
	return accts.ForEachBucket(func(k []byte) error {
		ab := accts.Bucket(k)
		feed, err1 := ab.CreateBucketIfNotExists(bPeopleFeed)
		at, err2 := ab.CreateBucketIfNotExists(bPeopleAt)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("account %d: people feed: %w", keyID(k), err)
		}
		return ab.Bucket(bContacts).ForEach(func(id, _ []byte) error {
			return touchFeed(feed, at, id)
		})
	})
}
