package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"proposaldesk/app"
)

// The account's webhook subscriptions and their delivery logs, read-only:
// the desktop shows an Admin what is connected and what fails; creating
// and changing subscriptions stays with the tools that own the receivers.

// WebhookSubscription is a subscription as GET /public/webhook/subscriptions
// lists it (never its secret).
type WebhookSubscription struct {
	ID             int64      `json:"subscriptionId"`
	URL            string     `json:"url"`
	Description    string     `json:"description"`
	Enabled        bool       `json:"enabled"`
	Events         string     `json:"events"`
	DisabledReason string     `json:"disabledReason"`
	FailingSince   *time.Time `json:"failingSince"`
	CreatedAt      time.Time  `json:"createdAt"`
}

// WebhookAttempt is one delivery attempt of a subscription's log.
type WebhookAttempt struct {
	Event       app.WebhookEventType `json:"event"`
	At          time.Time            `json:"at"`
	StatusCode  int                  `json:"statusCode"`
	LatencyMs   int64                `json:"latencyMs"`
	Error       string               `json:"error"`
	Result      string               `json:"result"`
	NextAttempt time.Time            `json:"nextAttempt"`
}

// WebhookSubscriptions lists the account's subscriptions (Admin only).
func (c *Client) WebhookSubscriptions(ctx context.Context) ([]WebhookSubscription, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: "/public/webhook/subscriptions"})
	if err != nil {
		return nil, err
	}
	return Decode[[]WebhookSubscription](resp, "webhook subscriptions")
}

// WebhookDeliveries reads the latest limit attempts of a subscription,
// newest first (GET .../deliveries, extension).
func (c *Client) WebhookDeliveries(ctx context.Context, subscriptionID int64, limit int) ([]WebhookAttempt, error) {
	q := url.Values{"Limit": {strconv.Itoa(limit)}}
	resp, err := c.Send(ctx, Call{Method: http.MethodGet,
		Path: "/public/webhook/subscription/" + app.FormatID(subscriptionID) + "/deliveries", Query: q})
	if err != nil {
		return nil, err
	}
	return Decode[[]WebhookAttempt](resp, "webhook deliveries")
}
