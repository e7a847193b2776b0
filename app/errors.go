package app

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an error. The values are the contract's errorCode
// strings, so a kind travels between server and desktop unchanged and
// neither side ever matches on message text. The list is append-only.
type Kind string

const (
	KindValidationFailed     Kind = "ValidationFailed"
	KindInvalidPaging        Kind = "InvalidPaging"
	KindAreaNameTaken        Kind = "AreaNameTaken"
	KindOptionLimitReached   Kind = "OptionLimitReached"
	KindCredentialsMissing   Kind = "CredentialsMissing"
	KindSignatureInvalid     Kind = "SignatureInvalid"
	KindTimestampOutOfRange  Kind = "TimestampOutOfRange"
	KindInvalidCredentials   Kind = "InvalidCredentials"
	KindEmailNotVerified     Kind = "EmailNotVerified"
	KindAPIKeyRevoked        Kind = "ApiKeyRevoked"
	KindSubscriptionInactive Kind = "SubscriptionInactive"
	KindPermissionDenied     Kind = "PermissionDenied"
	KindNotFound             Kind = "NotFound"
	KindProposalLocked       Kind = "ProposalLocked"
	KindNoContactAssigned    Kind = "NoContactAssigned"
	KindInvalidTransition    Kind = "InvalidTransition"
	KindIdempotencyKeyReused Kind = "IdempotencyKeyReused"
	KindPreconditionFailed   Kind = "PreconditionFailed"
	KindPayloadTooLarge      Kind = "PayloadTooLarge"
	KindUnsupportedMediaType Kind = "UnsupportedMediaType"
	KindRateLimited          Kind = "RateLimited"
	KindInternal             Kind = "InternalError"
	// KindUnavailable: the server cannot reach its database right now; the
	// request changed nothing and may be sent again.
	KindUnavailable Kind = "Unavailable"
	// KindMethodNotAllowed: the path exists but does not take the
	// request's method; the answer's Allow header lists those it takes.
	KindMethodNotAllowed Kind = "MethodNotAllowed"
	// KindProposalChanged: an in-person acceptance was signed on a
	// client view the server's proposal no longer gives; the signer
	// must see the changes and sign again.
	KindProposalChanged Kind = "ProposalChanged"
)

// Kinds lists every kind, in the contract's order.
var Kinds = []Kind{
	KindValidationFailed, KindInvalidPaging, KindAreaNameTaken, KindOptionLimitReached,
	KindCredentialsMissing, KindSignatureInvalid, KindTimestampOutOfRange, KindInvalidCredentials,
	KindEmailNotVerified, KindAPIKeyRevoked, KindSubscriptionInactive, KindPermissionDenied,
	KindNotFound, KindProposalLocked, KindNoContactAssigned, KindInvalidTransition,
	KindIdempotencyKeyReused, KindPreconditionFailed, KindPayloadTooLarge,
	KindUnsupportedMediaType, KindRateLimited, KindInternal, KindUnavailable,
	KindMethodNotAllowed, KindProposalChanged,
}

// ParseKind maps an errorCode from a response body back to its Kind. An
// unknown code (a newer server) is KindInternal.
func ParseKind(code string) Kind {
	for _, k := range Kinds {
		if string(k) == code {
			return k
		}
	}
	return KindInternal
}

// FieldError names one bad input field.
type FieldError struct {
	Field   string `json:"fieldName"`
	Message string `json:"message"`
}

// Error is a rule or input error with a kind the API maps to its error
// body. Message is written for the person using the app.
type Error struct {
	Kind    Kind
	Message string
	Fields  []FieldError
}

func (e *Error) Error() string {
	if len(e.Fields) == 0 {
		return fmt.Sprintf("%s: %s", e.Kind, e.Message)
	}
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return fmt.Sprintf("%s: %s (%s)", e.Kind, e.Message, strings.Join(parts, "; "))
}

// Is makes errors.Is(err, &Error{Kind: k}) match on kind alone.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Message == ""
}

// Errorf makes an Error of the given kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Invalid is a ValidationFailed error naming one field.
func Invalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Kind: KindValidationFailed, Message: field + ": " + msg,
		Fields: []FieldError{{Field: field, Message: msg}}}
}

// InvalidPaging is an InvalidPaging error naming the paging parameter,
// in the message and in Fields as a ValidationFailed error does.
func InvalidPaging(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Kind: KindInvalidPaging, Message: field + " " + msg,
		Fields: []FieldError{{Field: field, Message: msg}}}
}

// KindOf returns the kind of err, or KindInternal for errors that carry
// none (a failed disk, a bug). A nil error has no kind ("").
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// Sentinel values for errors.Is checks: errors.Is(err, app.ErrNotFound).
var (
	ErrNotFound           = &Error{Kind: KindNotFound}
	ErrProposalLocked     = &Error{Kind: KindProposalLocked}
	ErrValidation         = &Error{Kind: KindValidationFailed}
	ErrPermissionDenied   = &Error{Kind: KindPermissionDenied}
	ErrPreconditionFailed = &Error{Kind: KindPreconditionFailed}
)
