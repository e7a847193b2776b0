package apiserver

import (
	"reflect"

	"proposaldesk/apiserver/store"
)

// BodyTypes are the Go types of the JSON bodies the server writes besides
// app's views, by the schema name the OpenAPI document gives them. The
// document's generator (apiserver/openapi/spec) reads their fields by
// reflection, so a field added here cannot be left out of the document.
func BodyTypes() map[string]reflect.Type {
	return map[string]reflect.Type{
		"ExchangeResponse":    reflect.TypeFor[exchangeResponse](),
		"PeopleResponse":      reflect.TypeFor[peopleResponse](),
		"ChangesResponse":     reflect.TypeFor[changesResponse](),
		"ErrorBody":           reflect.TypeFor[ErrorBody](),
		"ResponseStatus":      reflect.TypeFor[ResponseStatus](),
		"FieldError":          reflect.TypeFor[FieldErrorBody](),
		"WebhookSubscription": reflect.TypeFor[subscriptionJSON](),
		"WebhookAttempt":      reflect.TypeFor[store.WebhookAttempt](),
	}
}
