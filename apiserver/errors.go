package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"proposaldesk/app"
)

// kindStatus is the contract's error table: the HTTP status of every
// errorCode. It is the only place that maps a kind to a status.
var kindStatus = map[app.Kind]int{
	app.KindValidationFailed:     http.StatusBadRequest,
	app.KindInvalidPaging:        http.StatusBadRequest,
	app.KindAreaNameTaken:        http.StatusBadRequest,
	app.KindOptionLimitReached:   http.StatusBadRequest,
	app.KindCredentialsMissing:   http.StatusUnauthorized,
	app.KindSignatureInvalid:     http.StatusUnauthorized,
	app.KindTimestampOutOfRange:  http.StatusUnauthorized,
	app.KindInvalidCredentials:   http.StatusUnauthorized,
	app.KindEmailNotVerified:     http.StatusUnauthorized,
	app.KindAPIKeyRevoked:        http.StatusUnauthorized,
	app.KindSubscriptionInactive: http.StatusPaymentRequired,
	app.KindPermissionDenied:     http.StatusForbidden,
	app.KindNotFound:             http.StatusNotFound,
	app.KindProposalLocked:       http.StatusConflict,
	app.KindNoContactAssigned:    http.StatusConflict,
	app.KindInvalidTransition:    http.StatusConflict,
	app.KindIdempotencyKeyReused: http.StatusConflict,
	app.KindProposalChanged:      http.StatusConflict,
	app.KindPreconditionFailed:   http.StatusPreconditionFailed,
	app.KindPayloadTooLarge:      http.StatusRequestEntityTooLarge,
	app.KindUnsupportedMediaType: http.StatusUnsupportedMediaType,
	app.KindRateLimited:          http.StatusTooManyRequests,
	app.KindInternal:             http.StatusInternalServerError,
	app.KindUnavailable:          http.StatusServiceUnavailable,
	app.KindMethodNotAllowed:     http.StatusMethodNotAllowed,
}

// StatusOf is the HTTP status of an error kind.
func StatusOf(k app.Kind) int {
	if st, ok := kindStatus[k]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// statusCodeNames are .NET's HttpStatusCode names, which Portal's error
// bodies carry in statusCode.
var statusCodeNames = map[int]string{
	400: "BadRequest",
	401: "Unauthorized",
	402: "PaymentRequired",
	403: "Forbidden",
	404: "NotFound",
	405: "MethodNotAllowed",
	409: "Conflict",
	412: "PreconditionFailed",
	413: "RequestEntityTooLarge",
	415: "UnsupportedMediaType",
	429: "TooManyRequests",
	431: "RequestHeaderFieldsTooLarge",
	503: "ServiceUnavailable",
	500: "InternalServerError",
}

// Messages fixed by the contract, or kept vague on purpose.
const (
	msgSignatureInvalid = "You are not authorized. Your request signature (hash) is invalid."
	msgInternal         = "Something went wrong on the server. The error has been logged; please try again."
)

// ErrorBody is the error response of every failed request: the shape the
// spec gives under Errors, with every field present.
type ErrorBody struct {
	ErrorCode         string            `json:"errorCode"`
	StackTrace        string            `json:"stackTrace"`
	ContentType       string            `json:"contentType"`
	Message           string            `json:"message"`
	HelpLink          string            `json:"helpLink"`
	Source            string            `json:"source"`
	Status            int               `json:"status"`
	StatusCode        string            `json:"statusCode"`
	StatusDescription string            `json:"statusDescription"`
	HResult           int               `json:"hResult"`
	Headers           map[string]string `json:"headers"`
	Options           map[string]string `json:"options"`
	Cookies           []map[string]any  `json:"cookies"`
	Response          any               `json:"response"`
	ResponseFilter    any               `json:"responseFilter"`
	RequestContext    any               `json:"requestContext"`
	ResultScope       any               `json:"resultScope"`
	TargetSite        any               `json:"targetSite"`
	Data              any               `json:"data"`
	InnerException    any               `json:"innerException"`
	PaddingLength     int               `json:"paddingLength"`
	ResponseStatus    ResponseStatus    `json:"responseStatus"`
}

// ResponseStatus is the ServiceStack-style status object of error bodies
// (and, empty, of the key exchange's success).
type ResponseStatus struct {
	ErrorCode  string            `json:"errorCode"`
	Message    string            `json:"message"`
	StackTrace string            `json:"stackTrace"`
	Errors     []FieldErrorBody  `json:"errors"`
	Meta       map[string]string `json:"meta"`
}

// FieldErrorBody names one bad input field.
type FieldErrorBody struct {
	ErrorCode string            `json:"errorCode"`
	FieldName string            `json:"fieldName"`
	Message   string            `json:"message"`
	Meta      map[string]string `json:"meta"`
}

// errorBody builds the body for an error of kind k with the given status.
func errorBody(status int, k app.Kind, msg string, fields []app.FieldError, requestID string) ErrorBody {
	name := statusCodeNames[status]
	if name == "" {
		name = strconv.Itoa(status)
	}
	fe := make([]FieldErrorBody, len(fields))
	for i, f := range fields {
		fe[i] = FieldErrorBody{ErrorCode: string(k), FieldName: f.Field, Message: f.Message, Meta: map[string]string{}}
	}
	meta := map[string]string{}
	if requestID != "" {
		meta["requestId"] = requestID
	}
	return ErrorBody{
		ErrorCode:         string(k),
		ContentType:       "application/json",
		Message:           msg,
		Status:            status,
		StatusCode:        name,
		StatusDescription: http.StatusText(status),
		Headers:           map[string]string{},
		Options:           map[string]string{},
		Cookies:           []map[string]any{},
		ResponseStatus: ResponseStatus{
			ErrorCode: string(k),
			Message:   msg,
			Errors:    fe,
			Meta:      meta,
		},
	}
}

// writeError writes err as the contract's error body. Errors that carry
// no kind are internal: they are logged and answered with a fixed
// message, so nothing of the server's insides reaches the client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client closed the connection mid-request: nobody reads an
		// answer and the server did nothing wrong, so the request's log
		// line says 499 (nginx's "client closed request"), not an
		// internal error (every load run's last requests were logged as
		// errors).
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	var e *app.Error
	if !errors.As(err, &e) || e.Kind == app.KindInternal {
		s.logInternal(r, err)
		s.writeErrorBody(w, r, StatusOf(app.KindInternal), app.KindInternal, msgInternal, nil)
		return
	}
	msg := e.Message
	if e.Kind == app.KindSignatureInvalid {
		msg = msgSignatureInvalid
	}
	s.writeErrorBody(w, r, StatusOf(e.Kind), e.Kind, msg, e.Fields)
}

// StatusClientClosedRequest is the status a request's log line shows when
// its client went away before the answer.
const StatusClientClosedRequest = 499

// writeErrorBody writes an error body with an explicit status; only the
// router's 405 uses a status outside the kind table.
func (s *Server) writeErrorBody(w http.ResponseWriter, r *http.Request, status int, k app.Kind, msg string, fields []app.FieldError) {
	body := errorBody(status, k, msg, fields, requestIDOf(r))
	b, err := json.Marshal(body)
	if err != nil { // cannot happen: the body has only plain types
		b = []byte(`{"errorCode":"InternalError"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Del("ETag")
	h.Del("Last-Modified")
	w.WriteHeader(status)
	w.Write(b)
}
