package syncer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// Case tables for the sentences errors give.

func TestExplain(t *testing.T) {
	apiErr := &APIError{Status: 409, Err: app.Errorf(app.KindProposalLocked, "Proposal 12 is Accepted and cannot be edited.")}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{&CertificateError{URL: "https://x", Err: errors.New("x509: unknown authority")}, "certificate"},
		{&ClockError{Offset: 2 * time.Hour, Err: apiErr}, "clock"},
		{&NetworkError{Method: "GET", URL: "http://x", Err: errors.New("connection refused")}, "cannot be reached"},
		{fmt.Errorf("keyring: %w", ErrKeyringUnavailable), "sign in again"},
		{fmt.Errorf("GET x: %w", context.Canceled), "Cancelled"},
		{apiErr, "Proposal 12 is Accepted"},
	} {
		if got := Explain(c.err); !strings.Contains(got, c.want) {
			t.Errorf("Explain(%v) = %q, want it to mention %q", c.err, got, c.want)
		}
	}
}
