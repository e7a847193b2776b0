package app_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"proposaldesk/app"
)

// contractCodes are the errorCode values of contract.md's error table.
var contractCodes = []string{
	"ValidationFailed", "InvalidPaging", "AreaNameTaken", "OptionLimitReached",
	"CredentialsMissing", "SignatureInvalid", "TimestampOutOfRange", "InvalidCredentials", "EmailNotVerified", "ApiKeyRevoked",
	"SubscriptionInactive", "PermissionDenied", "NotFound",
	"ProposalLocked", "NoContactAssigned", "InvalidTransition", "IdempotencyKeyReused",
	"PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType", "RateLimited", "InternalError",
	"Unavailable",      // 503 while the database cannot be reached
	"MethodNotAllowed", // 405, with an Allow header
	"ProposalChanged",  // 409: an in-person acceptance of a view the server no longer gives
}

func TestKindsAreTheContractCodes(t *testing.T) {
	var got []string
	for _, k := range app.Kinds {
		got = append(got, string(k))
	}
	if !slices.Equal(got, contractCodes) {
		t.Errorf("Kinds = %v\nwant   %v", got, contractCodes)
	}
}

func TestParseKindRoundTrip(t *testing.T) {
	seen := map[app.Kind]bool{}
	for _, k := range app.Kinds {
		if seen[k] {
			t.Errorf("kind %s listed twice", k)
		}
		seen[k] = true
		if got := app.ParseKind(string(k)); got != k {
			t.Errorf("ParseKind(%q) = %s", k, got)
		}
	}
}

func TestParseKindUnknown(t *testing.T) {
	for _, code := range []string{"", "Bogus", "NotFound ", " NotFound", "ProposalLocked2", "InternalErrors"} {
		if got := app.ParseKind(code); got != app.KindInternal {
			t.Errorf("ParseKind(%q) = %s, want InternalError", code, got)
		}
	}
}

func TestKindOf(t *testing.T) {
	notFound := app.Errorf(app.KindNotFound, "proposal %d not found", 5)
	for _, tc := range []struct {
		name string
		err  error
		want app.Kind
	}{
		{"direct", notFound, app.KindNotFound},
		{"wrapped", fmt.Errorf("loading: %w", notFound), app.KindNotFound},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", app.Errorf(app.KindProposalLocked, "x"))), app.KindProposalLocked},
		{"joined", errors.Join(io.EOF, app.Invalid("Name", "is required")), app.KindValidationFailed},
		{"plain error", io.EOF, app.KindInternal},
		{"plain wrapped", fmt.Errorf("disk: %w", io.ErrUnexpectedEOF), app.KindInternal},
	} {
		if got := app.KindOf(tc.err); got != tc.want {
			t.Errorf("%s: KindOf = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestErrorsIsSentinels(t *testing.T) {
	sentinels := map[app.Kind]error{
		app.KindNotFound:           app.ErrNotFound,
		app.KindProposalLocked:     app.ErrProposalLocked,
		app.KindValidationFailed:   app.ErrValidation,
		app.KindPermissionDenied:   app.ErrPermissionDenied,
		app.KindPreconditionFailed: app.ErrPreconditionFailed,
	}
	for kind := range sentinels {
		for _, err := range []error{
			app.Errorf(kind, "something about %s", kind),
			fmt.Errorf("context: %w", app.Errorf(kind, "wrapped")),
		} {
			for sk, sentinel := range sentinels {
				if got, want := errors.Is(err, sentinel), sk == kind; got != want {
					t.Errorf("errors.Is(%v, sentinel %s) = %v, want %v", err, sk, got, want)
				}
			}
		}
	}
	if !errors.Is(app.Invalid("Name", "is required"), app.ErrValidation) {
		t.Error("Invalid is not ErrValidation")
	}
	if errors.Is(io.EOF, app.ErrNotFound) {
		t.Error("io.EOF is ErrNotFound")
	}
	// A target with a message is a specific error, not a kind to match.
	if errors.Is(app.Errorf(app.KindNotFound, "a"), &app.Error{Kind: app.KindNotFound, Message: "b"}) {
		t.Error("errors.Is matched a target with a different message")
	}
}

func TestInvalidNamesTheField(t *testing.T) {
	err := app.Invalid("SalesPersonId", "must be at least %d", 1)
	if err.Kind != app.KindValidationFailed {
		t.Errorf("Kind = %s", err.Kind)
	}
	if len(err.Fields) != 1 || err.Fields[0].Field != "SalesPersonId" || err.Fields[0].Message == "" {
		t.Errorf("Fields = %+v, want one naming SalesPersonId with a message", err.Fields)
	}
	var target *app.Error
	if !errors.As(fmt.Errorf("w: %w", err), &target) || target.Fields[0].Field != "SalesPersonId" {
		t.Errorf("field lost through wrapping: %+v", target)
	}
}

func TestErrorfHasNoFields(t *testing.T) {
	err := app.Errorf(app.KindAreaNameTaken, "an area named %q already exists", "Kitchen")
	if err.Kind != app.KindAreaNameTaken || len(err.Fields) != 0 || err.Message == "" {
		t.Errorf("Errorf = %+v", err)
	}
	if err.Error() == "" {
		t.Error("empty Error()")
	}
}
