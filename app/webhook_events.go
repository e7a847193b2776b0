package app

import (
	"fmt"
	"slices"
	"strings"
)

// WebhookEventType names a webhook event, as subscriptions list it and as the
// body's type says it.
type WebhookEventType string

// The event names of Portal's webhook API. A new kind of event is one
// line here; the edit kinds that cause it say so in their own file
// (Events), and the client-decision flow names the ones it causes.
const (
	EventProposalCreated       WebhookEventType = "proposal.created"
	EventProposalUpdated       WebhookEventType = "proposal.updated"
	EventProposalStatusChanged WebhookEventType = "proposal.status_changed"
	EventProposalSent          WebhookEventType = "proposal.sent"
	EventProposalViewed        WebhookEventType = "proposal.viewed"
	EventProposalAccepted      WebhookEventType = "proposal.accepted"
	EventProposalDeclined      WebhookEventType = "proposal.declined"
	EventProposalExpired       WebhookEventType = "proposal.expired"
	EventProposalEmailFailed   WebhookEventType = "proposal.email_failed"
	EventChangeOrderStatus     WebhookEventType = "changeorder.status_changed"
)

// WebhookEventTypes lists every event a subscription may ask for.
var WebhookEventTypes = []WebhookEventType{
	EventProposalCreated, EventProposalUpdated, EventProposalStatusChanged,
	EventProposalSent, EventProposalViewed, EventProposalAccepted,
	EventProposalDeclined, EventProposalExpired, EventProposalEmailFailed,
	EventChangeOrderStatus,
}

// EventCauser is an edit that says which webhook events it causes. Every
// registered kind is one (a test walks them); a kind that is not causes
// none.
type EventCauser interface {
	// Events are the events a committed edit of this kind causes, about
	// the proposal it stores (a copy: the new proposal).
	Events() []WebhookEventType
}

// EventsOf are the events m causes when it commits.
func EventsOf(m Mutation) []WebhookEventType {
	if c, ok := m.(EventCauser); ok {
		return c.Events()
	}
	return nil
}

// Event lists shared by the kinds.
var (
	causesCreated = []WebhookEventType{EventProposalCreated}
	causesUpdated = []WebhookEventType{EventProposalUpdated}
	causesStatus  = []WebhookEventType{EventProposalStatusChanged}
)

// ParseEventTypes reads a subscription's comma-separated Events: each a
// known name in any letter case, at least one, duplicates dropped, in
// the order of WebhookEventTypes.
func ParseEventTypes(field, s string) ([]WebhookEventType, error) {
	want := map[WebhookEventType]bool{}
	for _, part := range strings.Split(s, ",") {
		name := WebhookEventType(strings.ToLower(strings.TrimSpace(part)))
		if name == "" {
			continue
		}
		if !slices.Contains(WebhookEventTypes, name) {
			return nil, Invalid(field, "names an unknown event %q; known events: %s", part, joinEvents(WebhookEventTypes))
		}
		want[name] = true
	}
	if len(want) == 0 {
		return nil, Invalid(field, "must name at least one event: %s", joinEvents(WebhookEventTypes))
	}
	var out []WebhookEventType
	for _, e := range WebhookEventTypes {
		if want[e] {
			out = append(out, e)
		}
	}
	return out, nil
}

func joinEvents(es []WebhookEventType) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}

// JoinEvents is the comma-separated form of es, as the API answers it.
func JoinEvents(es []WebhookEventType) string { return joinEvents(es) }

// String is the event's name.
func (e WebhookEventType) String() string { return string(e) }

var _ fmt.Stringer = WebhookEventType("")

// The webhook and Zapier operations: subscriptions are the Admin's
// (they send the account's proposals, costs included, to another
// system); Zapier's polling triggers read like the proposal list.
const (
	OpManageWebhooks Operation = "ManageWebhooks"
	OpZapierTrigger  Operation = "ZapierTrigger"
)

func init() {
	operations[OpManageWebhooks] = opRule{perm: PermManageWebhooks, subscription: true}
	operations[OpZapierTrigger] = opRule{perm: PermViewProposals, subscription: true}
}
