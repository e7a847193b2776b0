package localstore

import (
	"bytes"
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// A record whose local view is the server copy (no edit waiting) writes
// the proposal once; one with an edit writes both; both read back the
// same after a reopen.
func TestRecordWritesAnUneditedProposalOnce(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	plain, edited := pulled(t, s, f, "Plain"), pulled(t, s, f, "Edited")
	if _, err := s.Edit(ctx, edited.ID, &app.SetDescription{ID: edited.ID, Description: "mine"}, envAt(1, sales)); err != nil {
		t.Fatal(err)
	}
	raw := func(id int64) []byte {
		var v []byte
		s.db.View(func(tx *bolt.Tx) error { v = bytes.Clone(tx.Bucket(bucketProposals).Get(idKey(id))); return nil })
		return v
	}
	for _, reopened := range []bool{false, true} {
		if reopened {
			s = reopen(t, s)
		}
		if v := raw(plain.ID); !bytes.Contains(v, []byte(`"local":null`)) || !bytes.Contains(v, []byte(`"localIsServer":true`)) {
			t.Errorf("the unedited record is stored as %.300s", v)
		}
		if v := raw(edited.ID); bytes.Contains(v, []byte(`"localIsServer"`)) || bytes.Contains(v, []byte(`"local":null`)) {
			t.Errorf("the edited record is stored as %.300s", v)
		}
		r, err := s.Record(plain.ID)
		if err != nil || r.Local == nil || !reflect.DeepEqual(r.Local, r.Server) || r.Local.Name != "Plain" || r.LocalIsServer {
			t.Errorf("unedited record read back (reopened %v): %+v, %v", reopened, r, err)
		}
		r, err = s.Record(edited.ID)
		if err != nil || r.Local.ProjectDescription != "mine" || r.Server.ProjectDescription == "mine" {
			t.Errorf("edited record read back (reopened %v): %+v, %v", reopened, r, err)
		}
	}
}
