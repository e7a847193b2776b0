package boltstore

import (
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
)

// A file of schema v2 (no stamps) gets every proposal's stamp when it is
// opened, equal to the proposal's version and date.
func TestMigrationStampsEveryProposal(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	g := storetest.NewGen(5)
	g.PutRandom(t, f.S, f.A, 30)
	path := f.S.(*Store).db.Path()
	f.S.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(btx *bolt.Tx) error {
		accts := btx.Bucket(bAccounts)
		if err := accts.ForEachBucket(func(k []byte) error { return accts.Bucket(k).DeleteBucket(bStamps) }); err != nil {
			return err
		}
		return btx.Bucket(bMeta).Put(kSchema, u64(2))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checked := 0
	err = s.View(ctx, f.A, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		if err != nil {
			return err
		}
		for _, id := range ids {
			version, modified, err := tx.ProposalStamp(id)
			if err != nil {
				return err
			}
			p, err := tx.Proposal(id)
			if err != nil {
				return err
			}
			if version != p.Version || !modified.Equal(p.LastModifiedDate.Time) {
				t.Errorf("proposal %d: stamp %d %v, proposal %d %v", id, version, modified, p.Version, p.LastModifiedDate)
			}
			checked++
		}
		return nil
	})
	if err != nil || checked < 30 {
		t.Fatalf("checked %d stamps: %v", checked, err)
	}
}
