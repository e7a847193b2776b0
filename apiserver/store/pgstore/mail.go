package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store"
)

var _ store.MailQueue = (*Store)(nil)

// mailMessage is the message column of mail_jobs.
type mailMessage struct {
	To      []string `json:"to"`
	Subject string   `json:"subject"`
	Text    string   `json:"text"`
	HTML    string   `json:"html"`
}

const mailColumns = "id, account_id, proposal_id, message, enqueued_at, attempts, next_attempt, last_error"

// EnqueueMail implements store.MailQueue.
func (s *Store) EnqueueMail(ctx context.Context, j store.MailJob) (int64, error) {
	msg, err := json.Marshal(mailMessage{j.To, j.Subject, j.Text, j.HTML})
	if err != nil {
		return 0, fmt.Errorf("enqueue mail: %w", err)
	}
	var id int64
	err = s.pool.QueryRow(ctx, `INSERT INTO mail_jobs (account_id, proposal_id, message, enqueued_at, next_attempt)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, j.AccountID, j.ProposalID, msg, j.EnqueuedAt.UTC(), j.NextAttempt.UTC()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("enqueue mail: %w", dbErr(err))
	}
	return id, nil
}

// ClaimMail implements store.MailQueue: the due job is locked with SKIP
// LOCKED, so replicas claiming at once take different jobs (or none),
// never the same one.
func (s *Store) ClaimMail(ctx context.Context, now time.Time, lease time.Duration) (store.MailJob, bool, error) {
	row := s.pool.QueryRow(ctx, `UPDATE mail_jobs SET attempts = attempts + 1, next_attempt = $2
		WHERE id = (SELECT id FROM mail_jobs WHERE next_attempt <= $1 ORDER BY next_attempt, id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+mailColumns, now.UTC(), now.Add(lease).UTC())
	j, err := scanMailJob(row)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.MailJob{}, false, nil
	}
	if err != nil {
		return store.MailJob{}, false, fmt.Errorf("claim mail: %w", dbErr(err))
	}
	return j, true, nil
}

// RetryMail implements store.MailQueue.
func (s *Store) RetryMail(ctx context.Context, id int64, attempt int, next time.Time, reason string) error {
	tag, err := s.pool.Exec(ctx, "UPDATE mail_jobs SET next_attempt = $3, last_error = $4 WHERE id = $1 AND attempts = $2",
		id, attempt, next.UTC(), reason)
	return mailClaimResult("retry", id, attempt, tag.RowsAffected(), err)
}

// FinishMail implements store.MailQueue.
func (s *Store) FinishMail(ctx context.Context, id int64, attempt int) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM mail_jobs WHERE id = $1 AND attempts = $2", id, attempt)
	return mailClaimResult("finish", id, attempt, tag.RowsAffected(), err)
}

func mailClaimResult(op string, id int64, attempt int, rows int64, err error) error {
	if err != nil {
		return fmt.Errorf("%s mail job %d: %w", op, id, dbErr(err))
	}
	if rows == 0 {
		return fmt.Errorf("%s mail job %d attempt %d: %w", op, id, attempt, store.ErrMailClaimLost)
	}
	return nil
}

// NextMailDue implements store.MailQueue.
func (s *Store) NextMailDue(ctx context.Context) (time.Time, bool, error) {
	var due *time.Time
	if err := s.pool.QueryRow(ctx, "SELECT min(next_attempt) FROM mail_jobs").Scan(&due); err != nil {
		return time.Time{}, false, fmt.Errorf("next mail: %w", dbErr(err))
	}
	if due == nil {
		return time.Time{}, false, nil
	}
	return *due, true, nil
}

func scanMailJob(row pgx.Row) (store.MailJob, error) {
	var j store.MailJob
	var msg []byte
	if err := row.Scan(&j.ID, &j.AccountID, &j.ProposalID, &msg, &j.EnqueuedAt, &j.Attempts, &j.NextAttempt, &j.LastError); err != nil {
		return store.MailJob{}, err
	}
	var m mailMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return store.MailJob{}, fmt.Errorf("mail job %d: %w", j.ID, err)
	}
	j.To, j.Subject, j.Text, j.HTML = m.To, m.Subject, m.Text, m.HTML
	return j, nil
}
