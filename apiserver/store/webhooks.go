package store

import (
	"context"
	"time"

	"proposaldesk/app"
)

// Webhooks is what a Store offers for webhook subscriptions and their
// deliveries (boltstore and pgstore both do). Its Tx offers WebhookTx, so
// an event is recorded in the same transaction as the change causing it.
//
// A delivery is one event for one subscription. It waits in the queue
// until an attempt succeeds, the schedule gives up, or it is sent again
// on request. Claim hands each due delivery to one sender at a time
// (replicas of a PostgreSQL server share the queue through leases);
// Finish records what an attempt did.
type Webhooks interface {
	CreateSubscription(ctx context.Context, s WebhookSubscription) (WebhookSubscription, error)
	// Subscription finds one of the account's; ErrNotFound otherwise.
	Subscription(ctx context.Context, accountID, id int64) (WebhookSubscription, error)
	Subscriptions(ctx context.Context, accountID int64) ([]WebhookSubscription, error)
	// UpdateSubscription stores s (found by its account and ID) as it
	// is; ErrNotFound when there is none.
	UpdateSubscription(ctx context.Context, s WebhookSubscription) error
	// DeleteSubscription removes it with its queue and log.
	DeleteSubscription(ctx context.Context, accountID, id int64) error

	// ClaimDeliveries hands out at most limit deliveries due at now, of
	// enabled subscriptions, oldest due first, each held by owner until
	// now+lease (or Finish): no other Claim gets it meanwhile.
	ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]WebhookJob, error)
	// FinishDeliveries records attempts made by owner. An outcome whose
	// claim owner no longer holds (its lease ran out and another took
	// it) is recorded in the log but does not move the delivery.
	FinishDeliveries(ctx context.Context, owner string, outcomes []WebhookOutcome) error
	// DeliveryLog is the subscription's latest attempts, newest first.
	DeliveryLog(ctx context.Context, accountID, subscriptionID int64, limit int) ([]WebhookAttempt, error)
	// Redeliver queues the delivery again, due at now, with the same
	// message ID; ErrNotFound when the subscription has no such one.
	Redeliver(ctx context.Context, accountID, subscriptionID, deliveryID int64, now time.Time) error
}

// WebhookLogRetention is how long a delivery log keeps an attempt, and
// the queue a delivery and its event once its last attempt is that old
// (so it can no longer be redelivered): the stores drop older ones as
// new attempts are recorded. Retries end after about three days, so
// only a subscription disabled for longer loses deliveries still queued.
const WebhookLogRetention = 30 * 24 * time.Hour

// WebhookTx is what a Tx offers beside store.Tx to record events.
type WebhookTx interface {
	// WebhookTargets are the account's enabled subscriptions (ID and
	// events only), to decide whether an event has anyone to go to.
	WebhookTargets() ([]WebhookTarget, error)
	// AddWebhookEvent records e and queues a delivery of it, due at
	// e.At, for each of subscriptionIDs.
	AddWebhookEvent(e WebhookEvent, subscriptionIDs []int64) error
}

// WebhookTarget is an enabled subscription as the write path sees it.
type WebhookTarget struct {
	ID     int64
	Events []app.WebhookEventType
}

// WebhookSubscription is a receiver of the account's events.
type WebhookSubscription struct {
	ID          int64                  `json:"id"`
	AccountID   int64                  `json:"accountId"`
	URL         string                 `json:"url"`
	Description string                 `json:"description"`
	Events      []app.WebhookEventType `json:"events"`
	Enabled     bool                   `json:"enabled"`
	// Secret signs the deliveries ("whsec_" + base64); it is a signing
	// key, kept readable.
	Secret    string    `json:"secret"`
	CreatedAt time.Time `json:"createdAt"`
	// FailingSince is the first failed attempt since the last success
	// (zero while the receiver answers).
	FailingSince time.Time `json:"failingSince"`
	// DisabledReason says why the server disabled it (empty when the
	// Admin did, or when enabled).
	DisabledReason string    `json:"disabledReason"`
	DisabledAt     time.Time `json:"disabledAt"`
}

// Record is what an attempt's outcome does to the subscription: a
// success ends its failing streak, a failure starts one, and the
// outcome may disable it.
func (s *WebhookSubscription) Record(o WebhookOutcome) {
	switch {
	case o.Disable:
		s.Enabled, s.DisabledReason, s.DisabledAt = false, o.DisableReason, o.Attempt.At
	case o.Attempt.Result == "Delivered":
		s.FailingSince = time.Time{}
	case s.FailingSince.IsZero():
		s.FailingSince = o.Attempt.At
	}
}

// Wants reports whether the subscription takes events of type e.
func (t WebhookTarget) Wants(e app.WebhookEventType) bool {
	for _, w := range t.Events {
		if w == e {
			return true
		}
	}
	return false
}

// WebhookEvent is one event: its body is rendered once, when the change
// commits, and every attempt sends the same bytes.
type WebhookEvent struct {
	ID         int64                `json:"id"`
	AccountID  int64                `json:"accountId"`
	ProposalID int64                `json:"proposalId"`
	Type       app.WebhookEventType `json:"type"`
	At         time.Time            `json:"at"`
	Body       []byte               `json:"body"`
}

// WebhookJob is a claimed delivery with what sending it needs.
type WebhookJob struct {
	DeliveryID     int64
	SubscriptionID int64
	AccountID      int64
	EventID        int64
	Type           app.WebhookEventType
	URL            string
	Secret         string
	Body           []byte
	// Attempts made before this one.
	Attempts     int
	FailingSince time.Time
	// CreatedAt is when the event was recorded (for latency figures).
	CreatedAt time.Time
}

// WebhookOutcome is what one attempt of a job did and what follows.
type WebhookOutcome struct {
	Job     WebhookJob
	Attempt WebhookAttempt
	// Done: the delivery leaves the queue (delivered, given up or 410).
	Done bool
	// NextAt is when to try again when not Done.
	NextAt time.Time
	// Disable, with its reason, disables the subscription.
	Disable       bool
	DisableReason string
}

// WebhookAttempt is one line of a subscription's delivery log.
type WebhookAttempt struct {
	ID             int64                `json:"id"`
	SubscriptionID int64                `json:"subscriptionId"`
	DeliveryID     int64                `json:"deliveryId"`
	EventID        int64                `json:"eventId"`
	Type           app.WebhookEventType `json:"event"`
	At             time.Time            `json:"at"`
	// StatusCode is the receiver's answer; 0 when none came (refused,
	// timed out, connection failed).
	StatusCode int    `json:"statusCode"`
	LatencyMs  int64  `json:"latencyMs"`
	Error      string `json:"error"`
	// Result is Delivered, Retrying, Failed or Disabled.
	Result string `json:"result"`
	// NextAttempt is when the next try is due (zero: none).
	NextAttempt time.Time `json:"nextAttempt"`
}
