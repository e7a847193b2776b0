package boltstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
)

// The outgoing mail queue: bucket mail, job ID (big-endian, the bucket's
// own sequence) -> store.MailJob. The bucket is made by the first
// enqueue, so the file's schema does not change; a file without it has
// an empty queue. The queue is short (mail waiting for its first attempt
// or a retry), so a claim reads all of it.
var bMail = []byte("mail")

var _ store.MailQueue = (*Store)(nil)

// EnqueueMail implements store.MailQueue.
func (s *Store) EnqueueMail(ctx context.Context, j store.MailJob) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	err := s.update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucketIfNotExists(bMail)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		j.ID, j.Attempts = int64(seq), 0
		return putJSON(b, idKey(j.ID), j)
	})
	if err != nil {
		return 0, fmt.Errorf("enqueue mail: %w", err)
	}
	return j.ID, nil
}

// ClaimMail implements store.MailQueue.
func (s *Store) ClaimMail(ctx context.Context, now time.Time, lease time.Duration) (store.MailJob, bool, error) {
	if err := ctx.Err(); err != nil {
		return store.MailJob{}, false, err
	}
	var got store.MailJob
	found := false
	err := s.update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bMail)
		if b == nil {
			return nil
		}
		j, ok, err := earliestMail(b)
		if err != nil || !ok || j.NextAttempt.After(now) {
			return err
		}
		j.Attempts++
		j.NextAttempt = now.Add(lease)
		got, found = j, true
		return putJSON(b, idKey(j.ID), j)
	})
	if err != nil {
		return store.MailJob{}, false, fmt.Errorf("claim mail: %w", err)
	}
	return got, found, nil
}

// RetryMail implements store.MailQueue.
func (s *Store) RetryMail(ctx context.Context, id int64, attempt int, next time.Time, reason string) error {
	return s.claimed(ctx, id, attempt, func(b *bolt.Bucket, j store.MailJob) error {
		j.NextAttempt, j.LastError = next, reason
		return putJSON(b, idKey(id), j)
	})
}

// FinishMail implements store.MailQueue.
func (s *Store) FinishMail(ctx context.Context, id int64, attempt int) error {
	return s.claimed(ctx, id, attempt, func(b *bolt.Bucket, _ store.MailJob) error {
		return b.Delete(idKey(id))
	})
}

// claimed runs fn on job id if the claim with attempt still holds it.
func (s *Store) claimed(ctx context.Context, id int64, attempt int, fn func(*bolt.Bucket, store.MailJob) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(btx *bolt.Tx) error {
		b := btx.Bucket(bMail)
		var j store.MailJob
		if b != nil {
			if data := b.Get(idKey(id)); data != nil {
				if err := json.Unmarshal(data, &j); err != nil {
					return fmt.Errorf("mail job %d: %w", id, err)
				}
			}
		}
		if j.ID != id || j.Attempts != attempt {
			return fmt.Errorf("mail job %d attempt %d: %w", id, attempt, store.ErrMailClaimLost)
		}
		return fn(b, j)
	})
}

// NextMailDue implements store.MailQueue.
func (s *Store) NextMailDue(ctx context.Context) (time.Time, bool, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, false, err
	}
	var j store.MailJob
	var ok bool
	err := s.db.View(func(btx *bolt.Tx) error {
		b := btx.Bucket(bMail)
		if b == nil {
			return nil
		}
		var err error
		j, ok, err = earliestMail(b)
		return err
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next mail: %w", err)
	}
	return j.NextAttempt, ok, nil
}

// earliestMail is the job due first (the lower ID on a tie).
func earliestMail(b *bolt.Bucket) (store.MailJob, bool, error) {
	var best store.MailJob
	found := false
	err := b.ForEach(func(k, v []byte) error {
		var j store.MailJob
		if err := json.Unmarshal(v, &j); err != nil {
			return fmt.Errorf("mail job %d: %w", binary.BigEndian.Uint64(k), err)
		}
		if !found || j.NextAttempt.Before(best.NextAttempt) {
			best, found = j, true
		}
		return nil
	})
	return best, found, err
}
