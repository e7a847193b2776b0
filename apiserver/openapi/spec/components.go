package spec

// The shared parameters, responses and security schemes.

// pathParams describe the path IDs of every route, by Portal's names.
var pathParams = []struct{ name, doc string }{
	{"ProposalId", "Proposal ID."},
	{"ChangeOrderId", "Change order ID (of the proposal)."},
	{"AreaId", "Area ID (of the proposal)."},
	{"AreaOptionId", "Option ID; must belong to the proposal."},
	{"ItemId", "Item ID; must belong to the proposal."},
	{"ContactId", "Contact (person) ID of the same account."},
	{"LocationId", "Location ID; must belong to the proposal's contact."},
	{"PersonId", "Person (contact) ID."},
	{"SubscriptionId", "Webhook subscription ID (of the account)."},
	{"DeliveryId", "A delivery of the subscription (deliveryId of its log)."},
}

func parameters() *obj {
	out := o()
	for _, p := range pathParams {
		out.set(p.name, o("name", p.name, "in", "path", "required", true, "description", p.doc, "schema", pathID()))
	}
	out.set("IdempotencyKey", o("name", "Idempotency-Key", "in", "header", "required", false,
		"schema", o("type", "string", "maxLength", 255, "pattern", "^[!-~]+$"),
		"description", "Extension. A write repeating a key the same user used within 24 hours returns the first response again (same status and body, header Idempotent-Replayed: true) without applying the write twice; the key's record is written in the same transaction as the change. The same key with a different method, path or body is 409 IdempotencyKeyReused. Only successful responses are recorded."))
	out.set("IfMatch", o("name", "If-Match", "in", "header", "required", false, "schema", str(),
		"description", "Extension. The ETag (\"<version>\") from a GET or a write; if the proposal has changed since, the write is 412 PreconditionFailed and changes nothing. \"*\" and weak tags (W/) are accepted."))
	out.set("Accept", o("name", "Accept", "in", "header", "required", false, "schema", o("type", "string", "default", "application/json")))
	return out
}

func param(name string) *obj { return o("$ref", "#/components/parameters/"+name) }

// Response headers.
var (
	dateHeader      = o("description", "Server time; clients measure their clock offset from it (X-MSS-CUSTOM-DATE must be within ±15 minutes).", "schema", str())
	requestIDHeader = o("description", "Request ID, also in error bodies' responseStatus.meta.requestId.", "schema", str())
	etagHeader      = o("description", "\"<version>\" of the proposal; send it back in If-Match.", "schema", str())
	lastModHeader   = o("description", "From the response's lastModifiedDate (HTTP-date).", "schema", str())
	replayedHeader  = o("description", "\"true\" when an Idempotency-Key replayed the first response.", "schema", str())
)

// headers are the headers of every response, then extra name/value pairs.
func headers(extra ...any) *obj {
	return o("Date", dateHeader, "X-Request-ID", requestIDHeader).with(extra...)
}

// An errorResponse is one of the shared error responses.
type errorResponse struct {
	name, code, doc string
}

// errorResponses in status order; operations list theirs in this order.
var errorResponses = []errorResponse{
	{"BadRequest", "400", "400 ValidationFailed (responseStatus.errors names each field: a path ID that is not a positive whole number, wrong type, over-long string, malformed JSON (field `body`), a field given twice, missing required field), InvalidPaging, AreaNameTaken, OptionLimitReached."},
	{"Unauthorized", "401", "401 CredentialsMissing, SignatureInvalid (\"You are not authorized. Your request signature (hash) is invalid.\"), TimestampOutOfRange, ApiKeyRevoked."},
	{"ExchangeUnauthorized", "401", "401 InvalidCredentials (unknown user or wrong password, indistinguishable), EmailNotVerified, SignatureInvalid, CredentialsMissing, TimestampOutOfRange."},
	{"PaymentRequired", "402", "402 SubscriptionInactive: the dealer's subscription has lapsed."},
	{"Forbidden", "403", "403 PermissionDenied: the user's role lacks the permission."},
	{"NotFound", "404", "404 NotFound: no such ID in the caller's account (another account's ID is not found too)."},
	{"Conflict", "409", "409 ProposalLocked, NoContactAssigned, InvalidTransition, IdempotencyKeyReused."},
	{"PreconditionFailed", "412", "412 PreconditionFailed: If-Match does not match the proposal's current version."},
	{"PayloadTooLarge", "413", "413 PayloadTooLarge: body over 1 MiB."},
	{"UnsupportedMediaType", "415", "415 UnsupportedMediaType: a body that is neither JSON nor a form."},
	{"TooManyRequests", "429", "429 RateLimited: too many failed sign-ins for this user name or client address; see Retry-After."},
	{"InternalError", "500", "500 InternalError: nothing of the server's insides in the body; the request ID is logged."},
}

func responses() *obj {
	out := o()
	for _, e := range errorResponses {
		out.set(e.name, o("description", e.doc, "headers", headers(),
			"content", o("application/json", o("schema", ref("ErrorBody")))))
	}
	return out
}

func response(name string) *obj { return o("$ref", "#/components/responses/"+name) }

// jsonOK is a success response with a JSON body.
func jsonOK(schema *obj, doc string, extraHeaders ...any) *obj {
	return o("description", doc, "headers", headers(extraHeaders...), "content", o("application/json", o("schema", schema)))
}

// streamOK is a success response with a non-JSON body.
func streamOK(content *obj, doc string, extraHeaders ...any) *obj {
	return o("description", doc, "headers", headers(extraHeaders...), "content", content)
}

const signingDoc = "Every request carries four headers. X-MSS-API-APPID: the app ID (from `server apps create`). X-MSS-CUSTOM-DATE: the request time as `Mon, 02 Jan 2006 15:04:05 GMT`, within ±15 minutes of the server clock (401 TimestampOutOfRange; every response has a Date header to correct against). " +
	"X-MSS-API-USERKEY: the user API key from the key exchange (empty for the exchange itself). X-MSS-SIGNATURE: Base64(HMAC-SHA256(key = the app secret's ASCII bytes, message = METHOD + absoluteURL + contentType + timestamp + userKey)), concatenated with no separators; contentType is the request's Content-Type and is left out for GET; absoluteURL is the URL the client used, query string exactly as sent (behind a proxy the server is told its public base URL). " +
	"Compatibility: a signature over the URL without its query string is also accepted unless the server runs with --strict-signing. The signature does not cover the body, so outside loopback the API is served over TLS only."

func securitySchemes() *obj {
	key := func(header, doc string) *obj {
		return o("type", "apiKey", "in", "header", "name", header, "description", doc)
	}
	return o(
		"AppId", key("X-MSS-API-APPID", signingDoc),
		"Timestamp", key("X-MSS-CUSTOM-DATE", "Request time, `Mon, 02 Jan 2006 15:04:05 GMT`, ±15 minutes."),
		"Signature", key("X-MSS-SIGNATURE", "Base64 HMAC-SHA256 over METHOD+absoluteURL+contentType(non-GET)+timestamp+userKey with the app secret; see AppId."),
		"UserKey", key("X-MSS-API-USERKEY", "User API key from the exchange (meta.apiKey); empty for the exchange."),
	)
}

// signed is every operation's security: all four signing headers.
func signed() []any {
	return []any{o("AppId", []string{}, "Timestamp", []string{}, "Signature", []string{}, "UserKey", []string{})}
}
