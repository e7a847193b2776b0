package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// The Admin's read-only view of the account's webhook subscriptions:
// where events go, whether the receiver answers, and the last failures
// with the receiver's answer, so an Admin can tell the CRM's owner what
// breaks. It reads the server (there is nothing of it on the laptop), so
// it needs the network and says so without it.

// webhooksLabel is the menu entry.
const webhooksLabel = "Webhook subscriptions…"

// recentFailures is how many of a subscription's latest attempts are read
// for its failures.
const recentFailures = 20

// Webhooks opens the subscriptions dialog; other roles see app's reason.
func (d *Desktop) Webhooks() {
	if d.sess == nil || d.sess.client == nil {
		return
	}
	if err := app.Require(d.sess.user, app.PermManageWebhooks); err != nil {
		d.showInfo("Webhooks", "Webhook subscriptions are for Admins. "+explain(err))
		return
	}
	status := widget.NewLabel("Reading the server's subscriptions…")
	status.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(status)
	dlg := dialog.NewCustom("Webhook subscriptions", "Close",
		container.NewGridWrap(fyne.NewSize(640, 420), container.NewVScroll(body)), d.win)
	d.showDialog(dlg)
	client := d.sess.client
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		views, err := readWebhooks(ctx, client)
		d.opts.Do(func() {
			if err != nil {
				status.SetText("Could not read the subscriptions: " + explain(err))
				return
			}
			body.Objects = webhookRows(views, time.Now())
			body.Refresh()
		})
	}()
}

// webhookView is a subscription with its recent failed attempts.
type webhookView struct {
	sub      syncer.WebhookSubscription
	failures []syncer.WebhookAttempt
}

func readWebhooks(ctx context.Context, c *syncer.Client) ([]webhookView, error) {
	subs, err := c.WebhookSubscriptions(ctx)
	if err != nil {
		return nil, err
	}
	views := make([]webhookView, len(subs))
	for i, s := range subs {
		log, err := c.WebhookDeliveries(ctx, s.ID, recentFailures)
		if err != nil {
			return nil, fmt.Errorf("deliveries of %s: %w", s.URL, err)
		}
		views[i] = webhookView{sub: s, failures: failedAttempts(log)}
	}
	return views, nil
}

// failedAttempts keeps the attempts that did not deliver.
func failedAttempts(log []syncer.WebhookAttempt) []syncer.WebhookAttempt {
	var out []syncer.WebhookAttempt
	for _, a := range log {
		if a.Result != "Delivered" {
			out = append(out, a)
		}
	}
	return out
}

// webhookState says in words how a subscription is doing.
func webhookState(s syncer.WebhookSubscription, now time.Time) string {
	switch {
	case !s.Enabled && s.DisabledReason != "":
		return "Disabled by the server: " + s.DisabledReason
	case !s.Enabled:
		return "Disabled"
	case s.FailingSince != nil:
		return "Failing since " + s.FailingSince.Local().Format("Jan 2 15:04") + " (" + agoWords(*s.FailingSince, now) + ")"
	}
	return "Delivering"
}

// attemptWords is one failed attempt as a line.
func attemptWords(a syncer.WebhookAttempt) string {
	answer := "no answer"
	if a.StatusCode != 0 {
		answer = fmt.Sprintf("HTTP %d", a.StatusCode)
	}
	if a.Error != "" {
		answer += " — " + a.Error
	}
	line := fmt.Sprintf("%s  %s: %s", a.At.Local().Format("Jan 2 15:04:05"), a.Event, answer)
	if !a.NextAttempt.IsZero() {
		line += "; next try " + a.NextAttempt.Local().Format("Jan 2 15:04")
	}
	return line
}

// eventList is a subscription's comma-separated events as a list.
func eventList(events string) string {
	parts := strings.Split(events, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

func webhookRows(views []webhookView, now time.Time) []fyne.CanvasObject {
	if len(views) == 0 {
		return []fyne.CanvasObject{widget.NewLabel("No subscriptions. An Admin connects a tool (a CRM, Zapier) through the API's webhook subscribe call.")}
	}
	var rows []fyne.CanvasObject
	for _, v := range views {
		title := v.sub.URL
		if v.sub.Description != "" {
			title = v.sub.Description + " — " + v.sub.URL
		}
		rows = append(rows, widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		rows = append(rows, widget.NewLabel("Events: "+eventList(v.sub.Events)))
		rows = append(rows, widget.NewLabel(webhookState(v.sub, now)))
		if len(v.failures) == 0 {
			rows = append(rows, widget.NewLabel("No failed attempts among the latest."))
		}
		for _, a := range v.failures {
			l := widget.NewLabel(attemptWords(a))
			l.Wrapping = fyne.TextWrapWord
			rows = append(rows, l)
		}
		rows = append(rows, widget.NewSeparator())
	}
	return rows
}
