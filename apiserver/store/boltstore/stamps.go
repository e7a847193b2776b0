package boltstore

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// A proposal's stamp (its version and lastModifiedDate) is kept beside
// it in accounts/<id>/stamps, so a detail GET whose rendering is cached
// reads a few bytes, not the proposal: with more proposals than the
// decode cache holds, decoding each one just for its version was a
// signed GET's largest cost. Value: the version (8 bytes, big endian),
// then the date as the proposal's JSON has it. Nothing reads the date
// since the server's cached renderings keep their own Last-Modified; it
// is still written so that the release before can open the file again.
var bStamps = []byte("stamps")

func encodeStamp(p *app.Proposal) ([]byte, error) {
	date, err := p.LastModifiedDate.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(date)), uint64(p.Version)), date...), nil
}

// stampVersion is the version a stamp holds.
func stampVersion(v []byte) (int64, error) {
	if len(v) < 8 {
		return 0, fmt.Errorf("corrupt stamp %x", v)
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

// migrateStamps (schema v3) stamps every proposal.
func migrateStamps(btx *bolt.Tx) error {
	accts := btx.Bucket(bAccounts)
	return accts.ForEachBucket(func(k []byte) error {
		ab := accts.Bucket(k)
		stamps, err := ab.CreateBucketIfNotExists(bStamps)
		if err != nil {
			return fmt.Errorf("account %d: stamps: %w", keyID(k), err)
		}
		return ab.Bucket(bProposals).ForEach(func(id, v []byte) error {
			var p app.Proposal
			if err := decode(v, &p); err != nil {
				return fmt.Errorf("account %d: proposal %d: %w", keyID(k), keyID(id), err)
			}
			s, err := encodeStamp(&p)
			if err != nil {
				return err
			}
			return stamps.Put(id, s)
		})
	})
}
