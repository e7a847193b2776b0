package spec

import (
	"fmt"
	"slices"

	"proposaldesk/app"
)

// The routes that are not edits of a proposal (reads, the key exchange,
// people, exports, documents), described by hand beside the generator.
// Every one must match a route of the server, and every such route must
// have one.

// An opDoc is what the generator cannot read from the route table.
type opDoc struct {
	id, summary, doc string
	tags             []string
	// query are the operation's parameters after the path IDs.
	query []*obj
	body  *obj
	ok    *obj
	// noContent: the success is 204 with no body.
	noContent bool
	// errors are the error responses beyond those every operation has.
	errors []string
	// write adds the Idempotency-Key parameter and the write errors.
	write bool
	// exchange: the 401 is the exchange's own.
	exchange bool
}

func queryParam(name string, schema *obj, doc string) *obj {
	p := o("name", name, "in", "query", "schema", schema)
	if doc != "" {
		p.set("description", doc)
	}
	return p
}

func repeatable(p *obj) *obj {
	return o("name", p.get("name"), "in", "query", "style", "form", "explode", true).with("schema", p.get("schema"), "description", p.get("description"))
}

func listParams() []*obj {
	return []*obj{
		queryParam("SearchText", o("type", "string", "maxLength", 200), "Words separated by spaces; every word must occur (case-insensitive substring) in the proposal's name, number, customer first+last name, company name or email. Repeated values are joined."),
		repeatable(queryParam("Statuses", arr(ref("Status")), "Only these statuses; repeat the parameter or separate with commas.")),
		queryParam("ContactId", pathID(), "Only proposals whose customer is this contact."),
		queryParam("SalesPersonId", pathID(), "Only proposals of this salesperson."),
		queryParam("ModifiedAfter", o("type", "string", "format", "date-time"), "Only proposals whose lastModifiedDate is strictly after this ISO 8601 time (a bare date is midnight UTC)."),
		queryParam("IsArchive", o("type", "boolean", "default", false), "true: only archived proposals; false or absent: only proposals not archived."),
		queryParam("SortBy", o("type", "string", "enum", []string{"CreatedDate", "ModifiedDate", "LastModifiedDate", "Number", "Name", "ClientName", "Status"}, "default", "ModifiedDate"), "LastModifiedDate is accepted as ModifiedDate. Name and ClientName sort case-insensitively; Status in lifecycle order (the order of the Status enum). Ties break on ID in the same direction, so paging is stable."),
		queryParam("SortDirection", o("type", "string", "enum", []string{"Asc", "Desc"}, "default", "Desc"), ""),
		queryParam("PageNumber", o("type", "integer", "minimum", 1, "default", 1), "1-based; below 1 is 400 InvalidPaging."),
		queryParam("PageSize", o("type", "integer", "minimum", 1, "maximum", 200, "default", 25), "Above 200 (or below 1) is 400 InvalidPaging."),
	}
}

// filterParams are the list's filters, which the export takes too.
func filterParams() []*obj {
	return slices.DeleteFunc(listParams(), func(p *obj) bool {
		switch p.get("name") {
		case "SortBy", "SortDirection", "PageNumber", "PageSize":
			return true
		}
		return false
	})
}

// requestBody is a hand-written body, sent as JSON or as a form.
func requestBody(props *obj, required []string, doc string) *obj {
	schema := o("type", "object", "properties", props, "required", required, "description", doc, "additionalProperties", true)
	return o("required", len(required) > 0,
		"description", doc+" Sent as JSON or as a form; field names match case-insensitively; unknown fields are ignored; bodies over 1 MiB are 413.",
		"content", o("application/json", o("schema", schema), "application/x-www-form-urlencoded", o("schema", schema)))
}

var (
	proposalTags = []string{"Proposals"}
	peopleTags   = []string{"People"}
	extTags      = []string{"Extensions"}
	catalogTags  = []string{"Catalog"}
)

const exportDoc = "Admin only (403 PermissionDenied for Sales and Viewer). Streams every proposal of the account that matches the list's filters, in ID order: " +
	"Format=jsonl gives JSON Lines, each line the proposal detail exactly as GET /public/proposals/{ProposalId} returns it; " +
	"Format=csv gives one CSV file (RFC 4180, UTF-8 without BOM, CRLF, a header row) per request: Part=proposals (default) one row a proposal with every financial-summary figure, " +
	"Part=items one row an item of every option (proposal, area, option, option status, item fields, totals). A CSV export is therefore two requests. " +
	"Costs and profit are filled in only for roles with ViewCosts. Text cells starting with = + - @ get a leading apostrophe (CSV injection). " +
	"Sort and paging parameters are ignored. The response streams: X-Total-Count is the number of matching proposals, sent first for progress; " +
	"because the status is sent before the data is read, a failure part-way is reported in the trailer X-Export-Error, and the trailer X-Export-Count is the number of rows (CSV, without the header) or lines written. " +
	"Works with a lapsed subscription."

func kindParam() *obj {
	return queryParam("Kind", o("type", "string", "enum", []string{"client", "installer"}, "default", "client"),
		"client: the client-facing document (dealer header and logo from a data: URL, customer and location, project description, areas, options and items at sell price, totals, tax, recurring services, payment schedule, terms; never installer notes, internal notes, costs or profit). installer: the work order (location, areas, options, items with quantities, installer notes and option installer notes; no prices). Any other value is 400.")
}

func pdfOK() *obj {
	return streamOK(o("application/pdf", o("schema", o("type", "string", "contentMediaType", "application/pdf"))),
		"The PDF (Content-Disposition: attachment).", "Last-Modified", lastModHeader)
}

// readDocs are the hand-written operations, by "METHOD pattern".
func readDocs() map[string]opDoc {
	return map[string]opDoc{
		"GET /public/proposals": {id: "listProposals", summary: "Search/list proposals (1)",
			doc:   "The proposals of the caller's account, filtered, sorted and paged. Query parameter names match case-insensitively. Defaults: newest-modified first, page 1 of 25, not archived.",
			query: listParams(), ok: jsonOK(ref("ProposalListResponse"), "A page of proposals."), errors: []string{"BadRequest"}},
		"GET /public/proposals/{ProposalId}": {id: "getProposal", summary: "Get proposal detail (3)",
			doc: "The full detail. Costs and profit are null for users without ViewCosts. Works with a lapsed subscription.",
			ok:  jsonOK(ref("ProposalDetail"), "The proposal.", "ETag", etagHeader, "Last-Modified", lastModHeader), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/changeorders/{ChangeOrderId}": {id: "getChangeOrder", summary: "Get change order detail (7)",
			doc: "A change order of the proposal. The ETag is the parent proposal's version. Works with a lapsed subscription.",
			ok:  jsonOK(ref("ChangeOrderDetail"), "The change order.", "ETag", etagHeader, "Last-Modified", lastModHeader), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/changeorders": {id: "listChangeOrders", summary: "List change orders (8)",
			doc: "The proposal's change orders as a bare array, in creation order ([] when none).",
			ok:  jsonOK(arr(ref("ChangeOrderSummary")), "The change orders."), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/items": {id: "listItems", summary: "List a proposal's items (extension)", tags: []string{"Extensions"},
			doc: "Every item of the proposal as a bare array, area by area and option by option in their order, each with its areaId and areaOptionId beside the item fields of the detail. Costs are null for users without ViewCosts.",
			ok:  jsonOK(arr(ref("PlacedItem")), "The items.", "ETag", etagHeader, "Last-Modified", lastModHeader), errors: []string{"NotFound"}},
		"GET /authenticate/apikeyexchange": {id: "apiKeyExchange", summary: "Key exchange (15)", tags: []string{"Authentication"}, exchange: true,
			doc: "Exchanges a user name and password for a user API key (meta.apiKey). Signed like every request but with an empty X-MSS-API-USERKEY. UserName matches in any letter case. Rate-limited per user name and per client address after repeated failures (429 with Retry-After); an exchange with a valid DeviceToken of the user is limited only by that device's own failures, so others' failures at the same address (an office behind one NAT) do not lock the user out. Password checks are bounded server-wide: when too many sign-ins are being checked at once the answer is 429 RateLimited with Retry-After (seconds) before the password is looked at. Unknown users and wrong passwords are indistinguishable.",
			query: []*obj{
				o("name", "UserName", "in", "query", "required", true, "schema", o("type", "string", "maxLength", 256), "description", "The user's email, any letter case."),
				o("name", "Password", "in", "query", "required", true, "schema", o("type", "string", "format", "password")),
				o("name", "DeviceToken", "in", "query", "schema", o("type", "string"), "description", "The meta.deviceToken of this user's last successful exchange on this device. A token that is not valid for this user (another user's, expired, altered) is ignored, not an error."),
				o("name", "Accept", "in", "header", "required", false, "schema", enumOf([]string{"application/json"}), "description", "Optional; the answer is JSON whatever it says."),
			},
			ok: jsonOK(ref("ExchangeResponse"), "The key."), errors: []string{"BadRequest", "TooManyRequests"}},
		"GET /public/people": {id: "listPeople", summary: "List people", tags: peopleTags,
			doc: "Contacts of the account. SearchText: every word in first/last name, company, email or phone (case-insensitive). ContactTypes: repeatable or comma-separated. SortBy FirstName, LastName (default) or CompanyName, case-insensitive, ties by ID; SortDirection Asc (default) or Desc. Paging as the proposal list (default 25, at most 200). Works with a lapsed subscription.",
			query: []*obj{
				queryParam("SearchText", o("type", "string", "maxLength", 200), ""),
				o("name", "ContactTypes", "in", "query", "style", "form", "explode", true, "schema", arr(ref("ContactType"))),
				queryParam("SortBy", o("type", "string", "enum", []string{"FirstName", "LastName", "CompanyName"}, "default", "LastName"), ""),
				queryParam("SortDirection", o("type", "string", "enum", []string{"Asc", "Desc"}, "default", "Asc"), ""),
				queryParam("PageNumber", o("type", "integer", "minimum", 1, "default", 1), ""),
				queryParam("PageSize", o("type", "integer", "minimum", 1, "maximum", 200, "default", 25), ""),
			},
			ok: jsonOK(ref("PeopleResponse"), "A page of people."), errors: []string{"BadRequest"}},
		"POST /public/people": {id: "createPerson", summary: "Create person", tags: peopleTags, write: true,
			doc:  "Adds a contact. FirstName is required; CompanyName too when PartyType is Company. Texts up to 200 characters; ContactEmail must be an email address.",
			body: paramsBody(new(app.NewContact).Params(), "The contact."),
			ok:   jsonOK(ref("ContactSummary"), "The new contact.")},
		"GET /public/people/{PersonId}": {id: "getPerson", summary: "Get person", tags: peopleTags,
			doc: "One contact of the account. Works with a lapsed subscription.",
			ok:  jsonOK(ref("ContactSummary"), "The contact."), errors: []string{"NotFound"}},
		"GET /public/people/changes": {id: "peopleChanges", summary: "People changes feed (extension)", tags: peopleTags,
			doc: "Pages the account's contacts, each with all its locations, for offline copies: the contacts added or changed after a cursor, oldest change first, each once at its latest change " +
				"(a new or changed location is a change of its contact). Start with no since, follow cursor while hasMore, keep the last cursor for the next sync: " +
				"a sync with nothing changed is one request. Works with a lapsed subscription.",
			query: []*obj{
				o("name", "since", "in", "query", "required", false, "schema", o("type", "string", "maxLength", 256),
					"description", "A cursor from an earlier response; absent or empty is the beginning."),
				queryParam("Limit", o("type", "integer", "minimum", 1, "maximum", app.MaxPeopleChangesLimit, "default", app.DefaultPeopleChangesLimit),
					fmt.Sprintf("Contacts per page; outside 1..%d is 400 InvalidPaging.", app.MaxPeopleChangesLimit)),
			},
			ok: jsonOK(ref("PeopleChanges"), "A page of changed contacts."), errors: []string{"BadRequest"}},
		"GET /public/people/{PersonId}/location": {id: "listLocations", summary: "List a person's locations", tags: peopleTags,
			doc: "The contact's locations (at most one isPrimary). Works with a lapsed subscription.",
			ok:  jsonOK(arr(ref("ContactLocation")), "The locations."), errors: []string{"NotFound"}},
		"POST /public/people/{PersonId}/location": {id: "createLocation", summary: "Create location", tags: peopleTags, write: true,
			doc:  "Adds a location to the contact. A two-letter State is taken as the abbreviation; a state name the tax table knows gets stateAbbrev filled in. IsPrimary clears the flag on the contact's other locations.",
			body: paramsBody(new(app.NewLocation).Params(), "The location."),
			ok:   jsonOK(ref("ContactLocation"), "The new location."), errors: []string{"NotFound"}},
		"GET /public/users": {id: "listUsers", summary: "List users (extension)", tags: extTags,
			doc: "The account's users who can be salespeople, as Salesperson objects. Works with a lapsed subscription.",
			ok:  jsonOK(arr(ref("Salesperson")), "The users.")},
		"GET /public/changes": {id: "listChanges", summary: "Changes feed (extension)", tags: extTags,
			doc: "The proposals changed after a cursor, for sync. Start with no `since`; keep the returned cursor. Works with a lapsed subscription.",
			query: []*obj{o("name", "since", "in", "query", "required", false, "schema", o("type", "string", "maxLength", 256),
				"description", "A cursor from an earlier response; absent or empty is the beginning.")},
			ok: jsonOK(ref("ChangesResponse"), "Changed proposal IDs."), errors: []string{"BadRequest"}},
		"GET /public/sync/proposals": {id: "syncProposals", summary: "Many proposals for sync (extension)", tags: extTags,
			doc: "The proposals named by ids, as the server stores them, in one request: a sync client reads the IDs the changes feed named a page at a time. " +
				"IDs the account does not have are listed in missing, never included. Costs are null for users without ViewCosts. Works with a lapsed subscription.",
			query: []*obj{o("name", "ids", "in", "query", "required", true, "style", "form", "explode", false,
				"schema", o("type", "array", "minItems", 1, "maxItems", app.MaxSyncProposals, "items", pathID()),
				"description", fmt.Sprintf("Proposal IDs, comma-separated (repeatable; any letter case); 1 to %d, else 400 ValidationFailed naming ids.", app.MaxSyncProposals))},
			ok: jsonOK(ref("SyncProposals"), "The proposals."), errors: []string{"BadRequest"}},
		// The catalog: Portal's search and item routes, the
		// changes feed and the import (extensions).
		"GET /public/catalog": {id: "listCatalog", summary: "Search the catalog", tags: catalogTags,
			doc: "The account's catalog. Every word of SearchText must occur (any case, any order) in the brand, model, name or part number. " +
				"Order: brand, then model (both case-insensitive), then ID; items without a brand (most labor and fees) first. Costs are null without ViewCosts.",
			query: []*obj{
				queryParam("SearchText", o("type", "string", "maxLength", 200), "Words matched against brand, model, name and part number."),
				queryParam("ItemType", ref("ItemType"), "Absent: every type. Any letter case."),
				repeatable(queryParam("Brands", arr(str()), "Repeatable; exact brand names, any letter case (not split on commas).")),
				queryParam("CategoryId", pathID(), ""),
				queryParam("PageNumber", o("type", "integer", "minimum", 1, "default", 1), "Below 1 is 400 InvalidPaging."),
				queryParam("PageSize", o("type", "integer", "minimum", 1, "maximum", 200, "default", 10), "Above 200 is 400 InvalidPaging."),
			},
			ok: jsonOK(ref("CatalogResponse"), "A page of items and the count of all matches."), errors: []string{"BadRequest"}},
		"GET /public/catalog/{ItemId}": {id: "getCatalogItem", summary: "Get catalog item", tags: catalogTags,
			doc: "One item of the account's catalog. Works with a lapsed subscription.",
			ok:  jsonOK(ref("CatalogItem"), "The item."), errors: []string{"NotFound"}},
		"GET /public/catalog/changes": {id: "catalogChanges", summary: "Catalog changes feed (extension)", tags: catalogTags,
			doc: "Pages the catalog for offline copies: items added or changed and IDs removed after a cursor, oldest change first, each item once at its latest change. " +
				"Start with no since, follow cursor while hasMore, keep the last cursor for the next sync. Works with a lapsed subscription.",
			query: []*obj{
				o("name", "since", "in", "query", "required", false, "schema", o("type", "string", "maxLength", 256),
					"description", "A cursor from an earlier response; absent or empty is the beginning."),
				queryParam("Limit", o("type", "integer", "minimum", 1, "maximum", 5000, "default", 1000), "Changes per page; outside 1..5000 is 400 InvalidPaging."),
			},
			ok: jsonOK(ref("CatalogChanges"), "A page of changes."), errors: []string{"BadRequest"}},
		"POST /public/catalog/import": {id: "importCatalog", summary: "Import the catalog from CSV (extension)", tags: catalogTags, write: true,
			doc: "Admin only. The body is a CSV file (text/csv, up to 256 MiB by default): a header naming the columns in any order and case, " +
				"ItemType, Name and SellPrice required; Brand, Model, PartNumber, Category, Supplier, ShortDescription, Description, Msrp, Cost (empty: unknown), ImageUrl, IsDiscontinued, IsRecurringService (a monthly service: items added from it are recurring; true/false, yes/no, 1/0) optional; " +
				"Components (optional) makes a row a package: PART-NUMBER:QUANTITY entries separated by ';' (':QUANTITY' may be left out for 1), each another item of the file or, in a Merge, of the catalog, never a package or the row itself, at most " + fmt.Sprint(app.MaxPackageComponents) + " of them; " +
				"an unknown column is refused. A row's item is matched by its part number (case-insensitive), or by brand, model and name when it has none; a matched item keeps its ID. " +
				"Mode=Merge (default) adds and updates; Mode=Replace also removes the items the file does not name. " +
				"A Replace that would remove more than half of the catalog's items, or all of them (a header-only file), removes nothing without ConfirmRemoval=true: " +
				"400 ValidationFailed with fieldName ConfirmRemoval, the message saying how many items it would remove. " +
				"The report counts the removed items (deleted) and names the first 100 (removed). " +
				"Text fields follow the same character rule as JSON bodies: no control characters but tab and line breaks. " +
				"The whole file is checked first; if any row is bad nothing is applied and the 400 ValidationFailed counts the rejected rows in its message and lists the first 100 in responseStatus.errors (fieldName \"line N\", message the reasons). " +
				"Otherwise the file is applied in one transaction. A Content-Length over the limit is 413 PayloadTooLarge before the body is read.",
			query: []*obj{queryParam("Mode", o("type", "string", "enum", []string{"Merge", "Replace"}, "default", "Merge"), "Any letter case."),
				queryParam("ConfirmRemoval", o("type", "boolean", "default", false),
					"true lets a Replace remove more than half of the catalog, or all of it. true or false, any letter case.")},
			body: o("required", true, "description", "The CSV file.", "content", o("text/csv", o("schema", str()))),
			ok:   jsonOK(ref("CatalogImportReport"), "What the import did."), errors: []string{"BadRequest"}},
		"GET /public/export/proposals": {id: "exportProposals", summary: "Bulk export (extension)", tags: extTags, doc: exportDoc,
			query: append([]*obj{
				o("name", "Format", "in", "query", "required", true, "schema", enumOf([]string{"csv", "jsonl", "json"}), "description", "csv or jsonl (json is accepted as jsonl). Any letter case."),
				queryParam("Part", o("type", "string", "enum", []string{"proposals", "items"}, "default", "proposals"), "For csv: which of the two files. items with jsonl is 400."),
			}, filterParams()...),
			ok: streamOK(o("text/csv", o("schema", str()), "application/jsonl", o("schema", str())), "The export file (Content-Disposition: attachment).",
				"X-Total-Count", o("description", "Number of proposals that match, before streaming.", "schema", o("type", "integer")),
				"Trailer", o("description", "X-Export-Error, X-Export-Count (HTTP trailers after the body).", "schema", str())),
			errors: []string{"BadRequest"}},
		"POST /public/proposals/{ProposalId}/send": {id: "sendProposal", summary: "Send the proposal to the client (extension)", tags: extTags, write: true,
			doc: "Needs the edit permission and a customer (409 NoContactAssigned); allowed from Draft, Submitted, ViewedByClient, Delayed, EmailFailed and Expired (else 409 InvalidTransition). " +
				"Freezes the client snapshot of the current version (what the client PDF shows: no costs, no installer or internal notes) with its SHA-256, " +
				"makes a new link (a token of 128 random bits, stored only as its SHA-256; an earlier link is replaced and says so), hands it to the mail, " +
				"moves the proposal to Submitted and sets lastSubmittedDate. The answer is the detail whose clientLink.url is the link: the only time it is shown " +
				"(a replay of the same Idempotency-Key answers with url null). Without a mail server clientLink.mail is NotSent and mailNote says that no mail went out. " +
				"The link opens the client's page, HTML outside this API (no signature; the token is the credential): GET /c/{token}; POST /c/{token}/choose (AreaId, AreaOptionId); " +
				"POST /c/{token}/accept (FullName, Consent); POST /c/{token}/decline (Reason, optional); GET /c/{token}/pdf (signed after a decision). See docs/api-decisions.md.",
			body: requestBody(o(
				"To", o("type", "string", "description", "Email addresses, comma-separated (at most 20); default the customer's contact email."),
				"Message", o("type", "string", "maxLength", app.MaxSendMessage, "description", "Shown to the client with the link."),
				"ExpiresOn", o("type", "string", "format", "date", "description", "The last day (UTC) the link decides; default 30 days from today, at most a year."),
			), nil, "Every field is optional."),
			ok: jsonOK(ref("ProposalDetail"), "The proposal, with clientLink.url."), errors: []string{"BadRequest", "NotFound", "Conflict"}},
		"GET /public/proposals/{ProposalId}/events": {id: "proposalEvents", summary: "Evidence events (extension)", tags: extTags,
			doc: "The proposal's evidence events, oldest first: append-only, each hash covering the event, the proposal ID and the previous hash (see docs/api-decisions.md for the exact hash), so an edited or removed event shows.",
			ok:  jsonOK(arr(ref("ClientEvent")), "The events ([] before the first send)."), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/signed.pdf": {id: "signedPdf", summary: "Signed PDF (extension)", tags: extTags,
			doc: "After a client decision on the current link: the client PDF of the snapshot decided on, with the client's choices, and a certificate page (signer, time, address, user agent, link, snapshot hash, consent, chain head). 404 before.",
			ok:  pdfOK(), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/document": {id: "proposalDocument", summary: "Proposal PDF (extension)", tags: extTags,
			doc:   "Admin only. Renders the proposal as a PDF (US Letter, Go fonts embedded; characters outside Latin, Greek and Cyrillic print as ?). The server never fetches a remote logo; a companyLogoUrl that is not a data: URL of a PNG or JPEG is replaced by the company name. Works with a lapsed subscription.",
			query: []*obj{kindParam()}, ok: pdfOK(), errors: []string{"NotFound"}},
		"GET /public/proposals/{ProposalId}/changeorders/{ChangeOrderId}/document": {id: "changeOrderDocument", summary: "Change order PDF (extension)", tags: extTags,
			doc:   "Admin only. The change order rendered as the proposal document is. Works with a lapsed subscription.",
			query: []*obj{kindParam()}, ok: pdfOK(), errors: []string{"NotFound"}},
	}
}
