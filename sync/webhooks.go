package syncer

import "proposaldesk/sync/apiclient"

// The webhook read types (apiclient/webhooks.go), under this package's
// names as the client's other types.
type (
	WebhookSubscription = apiclient.WebhookSubscription
	WebhookAttempt      = apiclient.WebhookAttempt
)
