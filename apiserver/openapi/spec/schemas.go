package spec

import (
	"fmt"
	"reflect"

	"proposaldesk/apiserver"
	"proposaldesk/app"
)

// enums are app's string enumerations, with their values from app's lists.
func enums() []enum {
	return []enum{
		enumType("Status", app.Statuses, "Proposal and change-order status. Accepted, Declined and Completed lock a proposal against edits (operations 4, 5, 9, 10, 11, 12: 409 ProposalLocked); installer notes (6), contact (13) and location (14) assignment work in every status. Status moves (extension POST /status): Draft→Submitted; Submitted/ViewedByClient/Delayed/EmailFailed/Expired→Draft; Submitted/ViewedByClient/Delayed/Expired→Accepted or Declined; Accepted→Completed; Accepted→Draft (reopen). ViewedByClient, Delayed, EmailFailed, Expired and Undefined are set by the system (client activity, mail delivery, expiry, legacy imports), never by a move."),
		enumType("OptionStatus", app.OptionStatuses, "Option status. Per area, the option counted in the proposal's totals is the Selected one, else the area's first option."),
		enumType("PartyType", app.PartyTypes, "Undefined appears only on legacy data; new contacts are Person or Company."),
		enumType("ContactType", app.ContactTypes, "Undefined appears only on legacy data."),
		enumType("ItemType", app.ItemTypes, "CustomItem counts as a part in the financial summary."),
		enumType("DiscountType", app.DiscountTypes, "Percentage applies partsDiscountPercentage to the parts subtotal; Amount takes a fixed amount off it (never more than the subtotal)."),
		enumType("TaxStatus", app.TaxStatuses, "Undefined: no location assigned yet, nothing taxed. Ok: the rates of the tax location apply. Exempt: the document's applyTo is [None] (the dealer taxes nothing on it, e.g. a non-profit client). Unavailable: the location's state is not in the tax table, nothing taxed (never silently zero-rated as if known)."),
		enumType("TaxMethod", app.TaxMethods, "ClientLocation: rates looked up from the assigned location's state in the account's tax table (US state base rates plus the account's overrides). DealerLocation: from the dealer's office. Manual: rates as entered, never recalculated."),
		enumType("ApplyTo", app.ApplyTos, "Categories that are taxed; [None] means tax-exempt."),
		enumType("PaymentStatus", app.PaymentStatuses, "Payment request status."),
		enumType("Role", app.Roles, "Admin: everything including export and user management. Sales: read and edit all proposals of the account, sees costs. Viewer: read only, costs and profit shown as null."),
	}
}

// Descriptions shared by the proposal and change-order details (the
// fields of app.DocumentView).
var documentFields = map[string]any{
	"number":             int64s().with("description", "Human-facing number, sequential per account."),
	"projectDescription": "Client-facing project description (operation 5).",
	"internalNotes":      "Extension: installer notes (operation 6), for the dealer's team only; never on client-facing output.",
}

func withDocumentFields(extra map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range documentFields {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

const (
	viewCostsNull = "null for users without the ViewCosts permission."
	countDoc      = "Count of all matches, not of the page."
	alwaysEmpty   = "Always empty."
	alwaysNull    = "Always null."
)

// permissions lists every permission a role can have, in app's order.
func permissions() []string {
	var out []string
	seen := map[app.Permission]bool{}
	for _, r := range app.Roles {
		for _, p := range r.Permissions() {
			if !seen[p] {
				seen[p] = true
				out = append(out, string(p))
			}
		}
	}
	return out
}

func errorCodes() []string {
	out := make([]string, len(app.Kinds))
	for i, k := range app.Kinds {
		out[i] = string(k)
	}
	return out
}

// schemas are the named schemas, in the document's order, with the
// descriptions reflection cannot know.
func schemas() ([]named, error) {
	body := apiserver.BodyTypes()
	used := map[string]bool{}
	server := func(name string) reflect.Type {
		used[name] = true
		return body[name]
	}
	ns := []named{
		{name: "Currency", typ: typeOf[app.Currency]()},
		{name: "Location", typ: typeOf[app.Location]()},
		{name: "ContactLocation", typ: typeOf[app.ContactLocation](),
			doc: "A location of a contact. A contact has at most one primary location; creating a primary location clears the flag on the others."},
		{name: "ContactSummary", typ: typeOf[app.Contact](),
			doc: "Contact summary (the spec's `customer` in lists; also a person of the people endpoints)."},
		{name: "Customer", typ: typeOf[app.Customer](),
			doc: "The contact assigned to a document, with the location chosen for it (null until one is assigned)."},
		{name: "Salesperson", typ: typeOf[app.Salesperson]()},
		{name: "PersonName", typ: typeOf[app.PersonName]()},
		{name: "Dealer", typ: typeOf[app.Dealer]()},
		{name: "ItemTotal", typ: typeOf[app.ItemTotal](), fields: map[string]any{
			"amount": "The item's amount. With isCombinedPrice it already includes every non-recurring item nested under it (at any depth); nested items still report their own amounts, and option totals count each line once.",
		}},
		{name: "Item", typ: typeOf[app.ItemView](), fields: map[string]any{
			"parentId":           "Parent item when nested; null at top level.",
			"referencedItemId":   "Catalog item this line was made from; null for none.",
			"cost":               "Unit cost. null when costs are not available to the requesting user (no ViewCosts permission) or unknown; null never means zero cost.",
			"isRecurringService": "A recurring service is left out of its option's total and counted in totalRecurringService.",
			"linkedOrders":       "Always empty in this implementation (element shape not specified).",
		}},
		{name: "Option", typ: typeOf[app.OptionView](), fields: map[string]any{
			"installerDescription":  "Internal installer notes (operation 12).",
			"total":                 "Sum of the option's non-recurring item lines.",
			"totalRecurringService": "Sum of the option's recurring-service lines.",
		}},
		{name: "Area", typ: typeOf[app.AreaView](), fields: map[string]any{
			"name":    "Unique within the proposal, compared case-insensitively after trimming surrounding spaces.",
			"options": arr(ref("Option")).with("maxItems", app.MaxOptionsPerArea),
		}},
		{name: "TaxCalculation", typ: typeOf[app.TaxCalculation](), fields: map[string]any{
			"hasMultipleTaxSupport": "When true a second rate per category applies on the same base.",
		}},
		{name: "SalesTax", typ: typeOf[app.SalesTax](),
			doc: "Tax per category = base × rate, each amount rounded half away from zero; the parts base is the taxable parts minus the taxable share of the discount."},
		{name: "FinancialSummary", typ: typeOf[app.FinancialSummary](), doc: "Derived on every read from the items; never stored.", fields: map[string]any{
			"partsSubtotal":          "Counted parts (Part and CustomItem) of the counted option of each area.",
			"partsDiscountTaxable":   "Share of the discount on taxable parts.",
			"partsDiscountTaxExempt": "Share of the discount on tax-exempt parts.",
			"partsTotal":             "partsSubtotal − partsDiscount.",
			"proposalSubtotal":       "partsTotal + laborTotal + feeTotal.",
			"proposalTotal":          "proposalSubtotal + salesTax.total.",
		}},
		{name: "ChangeOrderFinancialSummary", typ: typeOf[app.ChangeOrderFinancialSummary](), fields: map[string]any{
			"partsSubtotal": "Counted parts (Part and CustomItem) of the counted option of each area.",
		}},
		{name: "Profit", typ: typeOf[app.Profit](), fields: map[string]any{
			"total":           viewCostsNull,
			"percentage":      "Percentage; " + viewCostsNull,
			"partTotal":       viewCostsNull,
			"partPercentage":  "Percentage; " + viewCostsNull,
			"laborTotal":      viewCostsNull,
			"laborPercentage": "Percentage; " + viewCostsNull,
		}},
		{name: "RecurringServices", typ: typeOf[app.RecurringServices]()},
		{name: "Payment", typ: typeOf[app.PaymentView](), fields: map[string]any{
			"calculation": "How the amount is computed: \"<percent>%\" (e.g. \"50%\", a share of the document total), \"Fixed\" (a fixed amount) or \"Remainder\" (what the other payments leave of the total).",
		}},
		{name: "PaymentSchedule", typ: typeOf[app.PaymentScheduleView]()},
		{name: "PaymentRequest", typ: typeOf[app.PaymentRequest]()},
		{name: "ChangeOrderSummary", typ: typeOf[app.ChangeOrderSummary]()},
		{name: "CatalogItem", typ: typeOf[app.CatalogItem](), doc: "A product, labor or fee line of the account's catalog.", fields: map[string]any{
			"categoryId":         "The server's ID of the category name (one per distinct name, case-insensitive); 0 when none.",
			"cost":               "Unit cost; null without the ViewCosts permission, or when the dealer has no cost on file (never means zero).",
			"isRecurringService": "A monthly service (remote monitoring, a care plan): an item added from it is recurring, counted in its option's totalRecurringService and not in the one-time totals.",
			"components": arr(ref("CatalogComponent")).with("maxItems", app.MaxPackageComponents, "description",
				"Present on a package only: the other, non-package items of the catalog it is made of, with their quantity in one package. Adding the package to an option adds the package line and each component nested under it (quantity times the package's). With a package price (sellPrice above 0) the package line is a combined price and its one-time components have no price or cost of their own; without one, the package line costs nothing and the components are priced as usual."),
		}},
		{name: "CatalogComponent", typ: typeOf[app.CatalogComponent](), doc: "One item of a catalog package.", fields: map[string]any{
			"catalogItemId": "A catalog item of the same catalog that is not a package.",
			"quantity":      "Its quantity in one package: above 0, at most 1,000,000, at most 4 decimals.",
		}},
		{name: "CatalogResponse", typ: typeOf[app.CatalogResponse](), fields: map[string]any{"itemCount": countDoc}},
		{name: "CatalogChanges", typ: typeOf[app.CatalogChanges](), fields: map[string]any{
			"storeId":   "As in ChangesResponse: a new value means download the whole catalog again.",
			"cursor":    "Pass as since for the next page or the next sync.",
			"hasMore":   "Another page follows at cursor.",
			"itemCount": "Number of items in the catalog now (progress of a first download).",
		}},
		{name: "PeopleChanges", typ: typeOf[app.PeopleChanges](), fields: map[string]any{
			"storeId":     "As in ChangesResponse: a new value means drop the copy of the contacts and download them all again.",
			"cursor":      "Pass as since for the next page or the next sync.",
			"hasMore":     "Another page follows at cursor.",
			"peopleCount": "Number of contacts in the account now (progress of a first download).",
		}},
		{name: "ContactWithLocations", typ: typeOf[app.ContactWithLocations](),
			doc: "A contact (the fields of ContactSummary) with every location it has, in ID order."},
		{name: "CatalogImportReport", typ: typeOf[app.CatalogImportReport](), fields: map[string]any{"rows": "Data rows read.",
			"confirmRemoval": "The request's ConfirmRemoval.",
			"deleted":        "Items removed (Replace).",
			"removed":        "The first 100 removed items, as they were.",
			"rejected":       "The first 100 rejected rows.",
			"rejectedCount":  "All rejected rows."}},
		{name: "PlacedItem", typ: typeOf[app.PlacedItemView](), doc: "An item with the area and option it is in (GET .../items)."},
		{name: "ProposalDetail", typ: typeOf[app.ProposalDetail](), fields: withDocumentFields(map[string]any{
			"isArchived":    "Extension: the archive flag (list filter IsArchive).",
			"version":       "Extension: counts committed writes; the ETag is \"<version>\".",
			"clientLink":    "Extension: the link the last send made; null before the first send. url is shown only in the send's own answer.",
			"emailFailure":  "Extension, present only when the last mail with the client's link did not go out: `{reason, to, at}`, the mail server's refusal (or that delivery was given up after two days of retries), the recipients, and when it was recorded. A Submitted proposal then moves to EmailFailed.",
			"fieldVersions": "Extension: for each field an edit wrote (\"name\", \"status\", \"options/12/clientDescription\", \"items/34/quantity\", …), the version that wrote it last. A sync client compares it with its base copy to see a change that came back to the old value (A→B→A).",
		})},
		{name: "ClientEvent", typ: typeOf[app.Event](), doc: "An evidence event of a sent proposal.", fields: map[string]any{
			"id":           "Place in the proposal's chain, from 1.",
			"at":           "Server time, UTC.",
			"actor":        "client, system, or user:<id> <email>.",
			"snapshotHash": "SHA-256 (hex) of the client snapshot the link showed.",
			"prevHash":     "The previous event's hash (empty for the first).",
			"hash":         "SHA-256 (hex) of \"proposaldesk event v1\\n\" + the proposal ID + \"\\n\" + this event's JSON with hash empty.",
			"data":         "Details by type: linkId always; sentTo, expiresOn, mail (Sent); tokenHash (LinkReplaced); areaId, areaOptionId (OptionChosen); signerName, consentText, consentVersion, choices (Accepted); reason (Declined).",
		}},
		{name: "ChangeOrderDetail", typ: typeOf[app.ChangeOrderDetail](), fields: withDocumentFields(nil),
			doc: "Same shape as ProposalDetail without changeOrders, isArchived and version, with the change-order financial summary. Change orders are read-only through this API."},
		{name: "ProposalListItem", typ: typeOf[app.ListItem]()},
		{name: "ProposalListResponse", typ: typeOf[app.ListResponse](), fields: map[string]any{
			"proposalCount": countDoc,
		}},
		{name: "PeopleResponse", typ: server("PeopleResponse"), fields: map[string]any{
			"peopleCount": countDoc,
		}},
		{name: "SyncProposals", typ: typeOf[app.SyncProposals](), fields: map[string]any{
			"storeId":   "As in ChangesResponse.",
			"proposals": "The proposals asked for that the account has, in the order asked.",
			"missing":   "The IDs asked for that the account does not have (never made, or another account's): a laptop drops its copy.",
		}},
		{name: "ProposalRecord", typ: typeOf[app.Proposal](), nilSlices: true,
			doc: "A proposal as the server stores it (extension, for sync): what ProposalDetail is rendered from, without its computed totals; change orders in full. " +
				"Item cost is null for users without the ViewCosts permission."},
		{name: "ChangesResponse", typ: server("ChangesResponse"), fields: map[string]any{
			"storeId":     "Changes only when the server's data is replaced (restore from backup): download everything again, keep unsent edits.",
			"cursor":      "Opaque; pass as `since` next time.",
			"proposalIds": "Proposals changed after the cursor, including ones archived or moved out of the caller's view.",
		}},
		{name: "FieldError", typ: server("FieldError")},
		{name: "ResponseStatus", typ: server("ResponseStatus"), fields: map[string]any{
			"stackTrace": alwaysEmpty,
		}},
		{name: "ErrorBody", typ: server("ErrorBody"),
			doc: "The error body of every failed request. errorCode appears at the top level and in responseStatus; responseStatus.errors names each bad field of a ValidationFailed; responseStatus.meta.requestId matches the X-Request-ID header. Internal errors never carry internals.",
			fields: map[string]any{
				"errorCode":      enumOf(errorCodes()),
				"stackTrace":     alwaysEmpty,
				"helpLink":       alwaysEmpty,
				"source":         alwaysEmpty,
				"status":         "The HTTP status.",
				"statusCode":     ".NET HttpStatusCode name, e.g. \"NotFound\".",
				"headers":        alwaysEmpty,
				"options":        alwaysEmpty,
				"cookies":        arr(o("type", "object")).with("description", alwaysEmpty),
				"response":       alwaysNull,
				"responseFilter": alwaysNull,
				"requestContext": alwaysNull,
				"resultScope":    alwaysNull,
				"targetSite":     alwaysNull,
				"data":           alwaysNull,
				"innerException": alwaysNull,
			}},
		{name: "ExchangeResponse", typ: server("ExchangeResponse"), fields: map[string]any{
			"UserKey":            "The same key as meta.apiKey, at the top level where clients written for Portal read it.",
			"userId":             "The user's numeric ID, as a string.",
			"bearerToken":        "Empty: requests are signed, not bearer-authenticated.",
			"refreshTokenExpiry": "Always null.",
			"roles":              arr(ref("Role")).with("description", "The user's role."),
			"permissions":        arr(enumOf(permissions())).with("description", "What the role may do."),
			"meta": o("type", "object",
				"properties", o("apiKey", strDoc("The user API key: 32 random bytes in Base64. Stored by the server only as a hash; valid until revoked (server users revoke-keys). One per device is fine."),
					"deviceToken", strDoc("A device token for this user on this device, fresh with every successful exchange: send it as DeviceToken with this user's later exchanges from this device. Opaque; valid for 90 days and for this user only. Keep it like a credential (the desktop keeps it in the OS keyring), and keep it after signing out.")),
				"required", []string{"apiKey", "deviceToken"}, "additionalProperties", str()),
		}},
	}
	ns = append(ns, webhookSchemas(server)...)
	for name := range body {
		if !used[name] {
			return nil, fmt.Errorf("apiserver.BodyTypes has %s, which no schema describes", name)
		}
	}
	for _, n := range ns {
		if n.typ == nil {
			return nil, fmt.Errorf("schema %s: apiserver.BodyTypes has no such type", n.name)
		}
	}
	return ns, nil
}

// componentSchemas builds components.schemas: the enums, then the named
// types.
func componentSchemas() (*obj, *reflector, error) {
	ns, err := schemas()
	if err != nil {
		return nil, nil, err
	}
	es := enums()
	r := newReflector(ns, es)
	out := o()
	for _, e := range es {
		out.set(e.name, enumOf(e.values).with("description", e.doc))
	}
	for _, n := range ns {
		r.nilSlices = n.nilSlices
		s, err := r.object(n.typ, n.fields)
		if err != nil {
			return nil, nil, fmt.Errorf("schema %s: %w", n.name, err)
		}
		if n.doc != "" {
			s.set("description", n.doc)
		}
		out.set(n.name, s)
	}
	return out, r, nil
}
