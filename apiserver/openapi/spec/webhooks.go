package spec

import (
	"reflect"
	"strings"

	"proposaldesk/app"
)

// The webhook subscriptions, their delivery log and Zapier's triggers.

var webhookTags = []string{"Webhooks"}

func eventNames() string {
	s := make([]string, len(app.WebhookEventTypes))
	for i, e := range app.WebhookEventTypes {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}

func webhookSchemas(server func(string) reflect.Type) []named {
	return []named{
		{name: "WebhookSubscription", typ: server("WebhookSubscription"),
			doc: "A webhook subscription. secretKey (whsec_ and base64) appears only in subscribe's answer: keep it to verify deliveries.",
			fields: map[string]any{
				"events":         "The events it receives, comma-separated: " + eventNames() + ".",
				"secretKey":      "Only in subscribe's answer: the Standard Webhooks signing secret.",
				"disabledReason": "Extension. Why the server disabled it (410 Gone, or every delivery failing for three days); empty otherwise.",
				"disabledAt":     dateTime(true, "Extension. When the server disabled it; null otherwise."),
				"failingSince":   dateTime(true, "Extension. The first failed attempt since the last success; null while the receiver answers."),
				"createdAt":      dateTime(false, "Extension. When it was made."),
			}},
		{name: "WebhookAttempt", typ: server("WebhookAttempt"),
			doc: "Extension. One attempt of a delivery: the event, the receiver's status code (0 when none came: refused, timed out, connection failed), the latency, the result (Delivered, Retrying, Failed, Disabled) and the next attempt's time (null when none).",
			fields: map[string]any{
				"event":       "The event's type.",
				"nextAttempt": dateTime(false, "When the next attempt is due; the zero time (0001-01-01T00:00:00Z) when none follows."),
				"at":          dateTime(false, "When the attempt was made."),
			}},
	}
}

func webhookDocs() map[string]opDoc {
	subBody := func(required []string, doc string) *obj {
		return requestBody(o(
			"Url", strDoc("The receiver: https to a public host (http and private addresses only on a server started with --webhook-allow-private). Loopback, link-local, private and metadata addresses are refused, here and at every delivery."),
			"Events", strDoc("Comma-separated event names: "+eventNames()+"."),
			"Description", o("type", "string", "maxLength", 1000, "description", "Free text."),
			"Enabled", boolean().with("description", "false pauses deliveries; true resumes them and clears a disabledReason."),
		), required, doc)
	}
	ok := jsonOK(ref("WebhookSubscription"), "The subscription.")
	noContent := o("description", "Done; no body.", "headers", o())
	return map[string]opDoc{
		"POST /public/webhook/subscribe": {id: "webhookSubscribe", summary: "Subscribe to webhooks", tags: webhookTags,
			doc:  "Admin only. Deliveries follow the Standard Webhooks specification: headers webhook-id (the same on every retry), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 of id.timestamp.body keyed by the secret). The body is {type, timestamp, data}, data the proposal detail as an Admin reads it; data.version grows by one with each change of the proposal, so a receiver orders one proposal's events by it. Retries: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h with jitter, Retry-After honoured; 410 disables; three days of failures disable.",
			body: subBody([]string{"Url", "Events"}, "The subscription."), ok: ok, errors: []string{"BadRequest"}},
		"GET /public/webhook/subscriptions": {id: "webhookSubscriptions", summary: "List webhook subscriptions", tags: webhookTags,
			doc: "Admin only. A bare array, without secrets.", ok: jsonOK(arr(ref("WebhookSubscription")), "The subscriptions.")},
		"POST /public/webhook/subscription/{SubscriptionId}": {id: "webhookUpdate", summary: "Update a webhook subscription", tags: webhookTags,
			doc:  "Admin only. Any of Url, Events, Enabled, Description; omitted fields keep their value.",
			body: subBody([]string{}, "The fields to change."), ok: ok, errors: []string{"BadRequest", "NotFound"}},
		"DELETE /public/webhook/unsubscribe/{SubscriptionId}": {id: "webhookUnsubscribe", summary: "Unsubscribe", tags: webhookTags,
			doc: "Admin only. Removes the subscription with its queue and log. An unknown ID is 400 ValidationFailed (Portal's answer).", ok: noContent, noContent: true, errors: []string{"BadRequest"}},
		"GET /public/webhook/subscription/{SubscriptionId}/deliveries": {id: "webhookDeliveries", summary: "Delivery log (extension)", tags: webhookTags,
			doc:   "Admin only. The subscription's latest attempts, newest first.",
			query: []*obj{queryParam("Limit", o("type", "integer", "minimum", 1, "maximum", 500, "default", 100), "How many attempts.")},
			ok:    jsonOK(arr(ref("WebhookAttempt")), "The attempts."), errors: []string{"NotFound"}},
		"POST /public/webhook/subscription/{SubscriptionId}/deliveries/{DeliveryId}/redeliver": {id: "webhookRedeliver", summary: "Redeliver (extension)", tags: webhookTags,
			doc: "Admin only. Queues the delivery again at once, with the same webhook-id, and a fresh schedule.", ok: noContent, noContent: true, errors: []string{"NotFound"},
			body: requestBody(o(), []string{}, "No fields.")},
		"GET /zapier/trigger/proposal": {id: "zapierProposalTrigger", summary: "Zapier trigger: proposal changes", tags: webhookTags,
			doc: "Zapier's polling trigger: a bare array of the account's 50 latest-changed proposals (not archived), newest first, each the proposal detail as the caller's role reads it with id \"<proposalId>-<version>\" (unique per change, as Zapier deduplicates by it) and proposalId beside it.",
			ok:  jsonOK(arr(o("type", "object", "additionalProperties", true)), "The changes.")},
		"GET /zapier/trigger/payment": {id: "zapierPaymentTrigger", summary: "Zapier trigger: payment requests", tags: webhookTags,
			doc: "Zapier's polling trigger for payment requests: always [] while the server records none.",
			ok:  jsonOK(arr(o("type", "object", "additionalProperties", true)), "The payment requests.")},
	}
}

func dateTime(null bool, doc string) *obj {
	if null {
		return o("type", []string{"string", "null"}, "format", "date-time", "description", doc)
	}
	return o("type", "string", "format", "date-time", "description", doc)
}
