package syncer

import (
	"context"
	"os"
	"time"

	"proposaldesk/app"
)

// AcceptInPerson queues the client's acceptance taken on this laptop,
// like any edit. Its SignedAt is this laptop's own clock, not corrected
// by the server's (the server records it beside its receipt time: a
// wrong clock shows as what it is), and its DeviceID this computer's
// name, unless the caller set them. The store keeps the signature and
// what the client saw beside the edit (localstore.Acceptance).
func (e *Engine) AcceptInPerson(ctx context.Context, m *app.AcceptInPerson) (*app.Proposal, error) {
	c := *m
	if c.SignedAt == "" {
		c.SignedAt = e.now().Format(time.RFC3339)
	}
	if c.DeviceID == "" {
		c.DeviceID = DeviceName()
	}
	return e.Edit(ctx, c.ID, &c)
}

// DismissAcceptance forgets the in-person acceptance queued as outbox
// entry seq, which the salesperson has reviewed
// (localstore.Store.DismissAcceptance).
func (e *Engine) DismissAcceptance(ctx context.Context, seq uint64) error {
	if err := e.st.DismissAcceptance(ctx, seq); err != nil {
		return err
	}
	e.changed()
	return nil
}

// DeviceName names this computer on an in-person acceptance: its host
// name, or "laptop" when the system does not say.
func DeviceName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "laptop"
}
