package localstore

import (
	"testing"

	"proposaldesk/app"
)

// RemapID decodes only entries whose text mentions the ID, and of those
// changes only the ones that refer to it: -1 is inside -10 … -19, whose
// entries keep their IDs.
func TestRemapTouchesOnlyEntriesReferringToTheID(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	var ids []int64
	for i := range 12 {
		c, err := s.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient,
			FirstName: "Temp", LastName: string(rune('A' + i))}, envAt(i, sales))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if ids[0] != -1 || ids[11] != -12 {
		t.Fatalf("temporary IDs %v", ids)
	}
	if err := s.RemapID(ctx, -1, 900); err != nil {
		t.Fatal(err)
	}
	entries, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		want := ids[i]
		if i == 0 {
			want = 900
		}
		if e.ContactID != want {
			t.Fatalf("entry %d has contact %d, want %d", e.Seq, e.ContactID, want)
		}
	}
	if _, ok, _ := s.Contact(-10); !ok {
		t.Fatal("contact -10 lost")
	}
	if _, ok, _ := s.Contact(900); !ok {
		t.Fatal("contact 900 missing")
	}
}
