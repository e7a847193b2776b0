package pgstore

import (
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/app"
)

// TestDatabaseRestart: while the database is down every call fails with
// kind Unavailable (the API's 503) and Ping fails; when it is back the
// same store works again without being reopened.
func TestDatabaseRestart(t *testing.T) {
	s, _ := openTest(t, WithStatementTimeout(0))
	acct, err := s.Auth().CreateAccount(ctx, store.Account{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	c := pgtest.Shared(t)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			c.Start()
		}
	}()
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping succeeded with the database down")
	}
	for name, err := range map[string]error{
		"View":    s.View(ctx, acct.ID, func(store.Tx) error { return nil }),
		"Update":  s.Update(ctx, acct.ID, func(store.Tx) error { return nil }),
		"Account": func() error { _, err := s.Auth().Account(ctx, acct.ID); return err }(),
	} {
		if app.KindOf(err) != app.KindUnavailable {
			t.Errorf("%s with the database down: %v (kind %s)", name, err, app.KindOf(err))
		}
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	if err := s.Update(ctx, acct.ID, func(tx store.Tx) error { tx.NextNumber(); return nil }); err != nil {
		t.Errorf("after restart: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping after restart: %v", err)
	}
}
