package spec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
)

// webhooks takes a subscription through its routes, with one attempt in
// its log: the receiver's address is made loopback behind the API's
// back, so the worker refuses it without connecting anywhere.
func (d *demoAPI) webhooks(admin string, salesperson int64) {
	t := d.t
	var sub struct {
		SubscriptionID int64 `json:"subscriptionId"`
	}
	raw := d.do(call{method: "POST", pattern: "/public/webhook/subscribe", key: admin, want: 200,
		body: map[string]any{"Url": "https://93.184.216.34/hook", "Events": "proposal.updated,proposal.created", "Description": "CRM"}})
	if err := json.Unmarshal(raw, &sub); err != nil {
		t.Fatal(err)
	}
	sp := fmt.Sprintf("/public/webhook/subscription/%d", sub.SubscriptionID)
	d.do(call{method: "GET", pattern: "/public/webhook/subscriptions", key: admin, want: 200})
	d.do(call{method: "POST", pattern: "/public/webhook/subscription/{SubscriptionId}", path: sp, key: admin, want: 200,
		body: map[string]any{"Description": "ERP"}})
	ctx := context.Background()
	accts, err := d.st.Auth().Accounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var s store.WebhookSubscription
	for _, a := range accts {
		if s, err = d.st.Subscription(ctx, a.ID, sub.SubscriptionID); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	s.URL = "https://127.0.0.1/hook"
	if err := d.st.UpdateSubscription(ctx, s); err != nil {
		t.Fatal(err)
	}
	d.do(call{method: "POST", pattern: "/public/proposals", key: admin, want: 200, body: map[string]any{"SalesPersonId": salesperson}})
	w := webhook.NewWorker(webhook.Config{Queue: d.st, StoreID: d.st.StoreID(), Timeout: time.Second})
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("worker: %d, %v", n, err)
	}
	log := d.do(call{method: "GET", pattern: "/public/webhook/subscription/{SubscriptionId}/deliveries", path: sp + "/deliveries?Limit=5", key: admin, want: 200})
	var attempts []store.WebhookAttempt
	json.Unmarshal(log, &attempts)
	if len(attempts) != 1 {
		t.Fatalf("log %s", log)
	}
	d.do(call{method: "POST", pattern: "/public/webhook/subscription/{SubscriptionId}/deliveries/{DeliveryId}/redeliver",
		path: fmt.Sprintf("%s/deliveries/%d/redeliver", sp, attempts[0].DeliveryID), key: admin, want: 204})
	d.do(call{method: "GET", pattern: "/zapier/trigger/proposal", key: admin, want: 200})
	d.do(call{method: "GET", pattern: "/zapier/trigger/payment", key: admin, want: 200})
	d.do(call{method: "DELETE", pattern: "/public/webhook/unsubscribe/{SubscriptionId}", path: fmt.Sprintf("/public/webhook/unsubscribe/%d", sub.SubscriptionID), key: admin, want: 204})
}
