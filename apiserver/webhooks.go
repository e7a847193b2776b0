package apiserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
)

// Webhook subscriptions (Portal's paths, Admin only), their delivery
// log and redelivery (extensions), and Zapier's polling triggers. The
// deliveries themselves are the webhook package's worker.

// webhookRoutes are the routes of this file.
func (s *Server) webhookRoutes() []routeDef {
	r := func(method, pattern string, op app.Operation, ext bool, h handlerFunc) routeDef {
		return routeDef{Route{Method: method, Pattern: pattern, Operation: op, Extension: ext}, h}
	}
	return []routeDef{
		r("POST", "/public/webhook/subscribe", app.OpManageWebhooks, false, s.subscribe),
		r("GET", "/public/webhook/subscriptions", app.OpManageWebhooks, false, s.listSubscriptions),
		r("POST", "/public/webhook/subscription/{SubscriptionId}", app.OpManageWebhooks, false, s.updateSubscription),
		r("DELETE", "/public/webhook/unsubscribe/{SubscriptionId}", app.OpManageWebhooks, false, s.unsubscribe),
		r("GET", "/public/webhook/subscription/{SubscriptionId}/deliveries", app.OpManageWebhooks, true, s.deliveryLog),
		r("POST", "/public/webhook/subscription/{SubscriptionId}/deliveries/{DeliveryId}/redeliver", app.OpManageWebhooks, true, s.redeliver),
		r("GET", "/zapier/trigger/proposal", app.OpZapierTrigger, false, s.zapierProposals),
		r("GET", "/zapier/trigger/payment", app.OpZapierTrigger, false, s.zapierPayments),
	}
}

// subscriptionJSON is a subscription as the API shows it; SecretKey only
// in subscribe's answer.
type subscriptionJSON struct {
	SubscriptionID int64  `json:"subscriptionId"`
	URL            string `json:"url"`
	Description    string `json:"description"`
	Enabled        bool   `json:"enabled"`
	Events         string `json:"events"`
	SecretKey      string `json:"secretKey,omitempty"`
	// Extensions: why the server disabled it, and since when deliveries
	// fail.
	DisabledReason string     `json:"disabledReason"`
	DisabledAt     *time.Time `json:"disabledAt"`
	FailingSince   *time.Time `json:"failingSince"`
	CreatedAt      time.Time  `json:"createdAt"`
}

func subscriptionOut(sub store.WebhookSubscription) subscriptionJSON {
	t := func(v time.Time) *time.Time {
		if v.IsZero() {
			return nil
		}
		v = v.UTC()
		return &v
	}
	return subscriptionJSON{SubscriptionID: sub.ID, URL: sub.URL, Description: sub.Description, Enabled: sub.Enabled,
		Events: app.JoinEvents(sub.Events), DisabledReason: sub.DisabledReason, DisabledAt: t(sub.DisabledAt),
		FailingSince: t(sub.FailingSince), CreatedAt: sub.CreatedAt.UTC()}
}

// maxWebhookURL and maxWebhookDescription bound the subscription's texts.
const (
	maxWebhookURL         = 2000
	maxWebhookDescription = 1000
)

func (s *Server) webhooks() (store.Webhooks, error) {
	wh, ok := s.st.(store.Webhooks)
	if !ok {
		return nil, app.Errorf(app.KindInternal, "this store keeps no webhooks")
	}
	return wh, nil
}

// subscriptionCall is the store and the path's SubscriptionId.
func (s *Server) subscriptionCall(c *call) (store.Webhooks, int64, error) {
	wh, err := s.webhooks()
	if err != nil {
		return nil, 0, err
	}
	id, err := c.pathID("SubscriptionId")
	return wh, id, err
}

// writeJSON answers 200 with v.
func writeJSON(c *call, v any) error {
	res, err := jsonResult(v)
	if err != nil {
		return err
	}
	return c.write(res)
}

func (s *Server) webhookGuard() *webhook.Guard {
	return &webhook.Guard{AllowPrivate: s.cfg.WebhookAllowPrivate, Lookup: s.cfg.WebhookLookup}
}

// checkWebhookURL refuses a URL the worker would refuse to deliver to.
func (s *Server) checkWebhookURL(c *call, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if len(raw) > maxWebhookURL {
		return "", app.Invalid("Url", "is longer than %d characters", maxWebhookURL)
	}
	if err := s.webhookGuard().CheckURL(c.r.Context(), raw); err != nil {
		msg := err.Error()
		if errors.Is(err, webhook.ErrForbiddenAddress) {
			msg += " (loopback, link-local, private and metadata addresses are refused; an office server delivering inside its own network is started with --webhook-allow-private)"
		}
		return "", app.Invalid("Url", "%s", msg)
	}
	return raw, nil
}

// POST /public/webhook/subscribe
func (s *Server) subscribe(c *call) error {
	wh, err := s.webhooks()
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"Url", fString}, {"Events", fString}, {"Description", fString}})
	if err != nil {
		return err
	}
	rawURL, ok := f["Url"].(string)
	if !ok {
		return app.Invalid("Url", "is required")
	}
	u, err := s.checkWebhookURL(c, rawURL)
	if err != nil {
		return err
	}
	evs, _ := f["Events"].(string)
	events, err := app.ParseEventTypes("Events", evs)
	if err != nil {
		return err
	}
	desc, _ := f["Description"].(string)
	if len([]rune(desc)) > maxWebhookDescription {
		return app.Invalid("Description", "is longer than %d characters", maxWebhookDescription)
	}
	secret, err := webhook.NewSecret()
	if err != nil {
		return err
	}
	sub, err := wh.CreateSubscription(c.r.Context(), store.WebhookSubscription{AccountID: c.account.ID, URL: u,
		Description: desc, Events: events, Enabled: true, Secret: secret, CreatedAt: c.now.UTC()})
	if err != nil {
		return err
	}
	out := subscriptionOut(sub)
	out.SecretKey = sub.Secret
	return writeJSON(c, out)
}

// GET /public/webhook/subscriptions
func (s *Server) listSubscriptions(c *call) error {
	wh, err := s.webhooks()
	if err != nil {
		return err
	}
	subs, err := wh.Subscriptions(c.r.Context(), c.account.ID)
	if err != nil {
		return err
	}
	out := make([]subscriptionJSON, len(subs))
	for i, sub := range subs {
		out[i] = subscriptionOut(sub)
	}
	return writeJSON(c, out)
}

// POST /public/webhook/subscription/{SubscriptionId}
func (s *Server) updateSubscription(c *call) error {
	wh, id, err := s.subscriptionCall(c)
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"Url", fString}, {"Events", fString}, {"Enabled", fBool}, {"Description", fString}})
	if err != nil {
		return err
	}
	sub, err := wh.Subscription(c.r.Context(), c.account.ID, id)
	if err != nil {
		return err
	}
	if v, ok := f["Url"].(string); ok {
		if sub.URL, err = s.checkWebhookURL(c, v); err != nil {
			return err
		}
	}
	if v, ok := f["Events"].(string); ok {
		if sub.Events, err = app.ParseEventTypes("Events", v); err != nil {
			return err
		}
	}
	if v, ok := f["Description"].(string); ok {
		if len([]rune(v)) > maxWebhookDescription {
			return app.Invalid("Description", "is longer than %d characters", maxWebhookDescription)
		}
		sub.Description = v
	}
	if v, ok := f["Enabled"].(bool); ok {
		if v && !sub.Enabled {
			// A fresh start: the failures that disabled it are the past.
			sub.DisabledReason, sub.DisabledAt, sub.FailingSince = "", time.Time{}, time.Time{}
		}
		sub.Enabled = v
	}
	if err := wh.UpdateSubscription(c.r.Context(), sub); err != nil {
		return err
	}
	s.wakeWebhooks()
	return writeJSON(c, subscriptionOut(sub))
}

// DELETE /public/webhook/unsubscribe/{SubscriptionId}: Portal answers an
// unknown ID with 400, not 404.
func (s *Server) unsubscribe(c *call) error {
	wh, id, err := s.subscriptionCall(c)
	if err != nil {
		return err
	}
	if err := wh.DeleteSubscription(c.r.Context(), c.account.ID, id); err != nil {
		if app.KindOf(err) == app.KindNotFound {
			return app.Invalid("SubscriptionId", "there is no subscription %d", id)
		}
		return err
	}
	return c.write(result{status: http.StatusNoContent})
}

// maxLog bounds a delivery log page.
const maxLog = 500

// GET /public/webhook/subscription/{SubscriptionId}/deliveries?Limit=
func (s *Server) deliveryLog(c *call) error {
	wh, id, err := s.subscriptionCall(c)
	if err != nil {
		return err
	}
	limit := 100
	for k, vs := range c.r.URL.Query() {
		if strings.EqualFold(k, "Limit") && len(vs) > 0 {
			n, err := strconv.Atoi(vs[0])
			if err != nil || n < 1 || n > maxLog {
				return app.Invalid("Limit", "must be a whole number from 1 to %d", maxLog)
			}
			limit = n
		}
	}
	log, err := wh.DeliveryLog(c.r.Context(), c.account.ID, id, limit)
	if err != nil {
		return err
	}
	return writeJSON(c, log)
}

// POST /public/webhook/subscription/{SubscriptionId}/deliveries/{DeliveryId}/redeliver
func (s *Server) redeliver(c *call) error {
	wh, id, err := s.subscriptionCall(c)
	if err != nil {
		return err
	}
	did, err := c.pathID("DeliveryId")
	if err != nil {
		return err
	}
	if err := wh.Redeliver(c.r.Context(), c.account.ID, id, did, c.now); err != nil {
		return err
	}
	s.wakeWebhooks()
	return c.write(result{status: http.StatusNoContent})
}

func (s *Server) wakeWebhooks() {
	if s.cfg.WebhookWake != nil {
		s.cfg.WebhookWake()
	}
}

// zapierPage is how many changes a Zapier poll gets.
const zapierPage = 50

// GET /zapier/trigger/proposal: the latest proposal changes, newest
// first, each the detail as the caller's role reads it, with id
// "<proposalId>-<version>": unique per change, so Zapier's
// deduplication sees every change once, and proposalId beside it.
func (s *Server) zapierProposals(c *call) error {
	q := app.DefaultListQuery()
	q.PageSize = zapierPage
	opts := c.viewOptions()
	return s.view(c, func(tx store.Tx) (result, error) {
		page, _, err := tx.List(q)
		if err != nil {
			return result{}, err
		}
		out := make([]map[string]json.RawMessage, 0, len(page))
		for _, it := range page {
			p, err := tx.Proposal(it.ID)
			if err != nil {
				return result{}, err
			}
			d := app.DetailView(p, opts)
			b, err := d.AppendJSON(nil)
			if err != nil {
				return result{}, err
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return result{}, err
			}
			m["proposalId"] = m["id"]
			m["id"], _ = json.Marshal(strconv.FormatInt(p.ID, 10) + "-" + strconv.FormatInt(p.Version, 10))
			out = append(out, m)
		}
		return jsonResult(out)
	})
}

// GET /zapier/trigger/payment: the server records no payment requests
// yet, so there is nothing to trigger on.
func (s *Server) zapierPayments(c *call) error {
	return writeJSON(c, []struct{}{})
}
