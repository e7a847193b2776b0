# Generates openapi.json (the document is committed; its tests check it against
# the router and the app enums). Run: python3 gen_openapi.py openapi.json
import json, collections
O = collections.OrderedDict

def ref(n): return {"$ref": "#/components/schemas/" + n}
def arr(s): return {"type": "array", "items": s}
S = {"type": "string"}
B = {"type": "boolean"}
I64 = {"type": "integer", "format": "int64"}
def money(d="Money: a JSON number rounded to the currency's minor unit (2 decimal places for USD); arithmetic is decimal, rounding half away from zero."):
    return {"type": "number", "description": d}
MONEY = money()
QTY = {"type": "number", "description": "Quantity with up to 4 decimal places."}
RATE = {"type": "number", "description": "Percentage with up to 4 decimal places (8.875 means 8.875%)."}
DT = {"type": ["string", "null"], "format": "date-time", "description": "ISO 8601 UTC with milliseconds (2006-01-02T15:04:05.000Z); null when never set."}
def obj(props, required=None, desc=None, extra=None):
    o = {"type": "object", "properties": props}
    o["required"] = required if required is not None else list(props.keys())
    if desc: o["description"] = desc
    if extra: o.update(extra)
    return o
def nullable(r): return {"oneOf": [r, {"type": "null"}]}
def enum(vals, desc): return {"type": "string", "enum": vals, "description": desc}

schemas = O()
schemas["Status"] = enum(["Undefined","Draft","Submitted","ViewedByClient","Accepted","Declined","Delayed","Completed","EmailFailed","Expired"],
  "Proposal and change-order status. Accepted, Declined and Completed lock a proposal against edits (operations 4, 5, 9, 10, 11, 12: 409 ProposalLocked); installer notes (6), contact (13) and location (14) assignment work in every status. Status moves (extension POST /status): Draft→Submitted; Submitted/ViewedByClient/Delayed/EmailFailed/Expired→Draft; Submitted/ViewedByClient/Delayed/Expired→Accepted or Declined; Accepted→Completed; Accepted→Draft (reopen). ViewedByClient, Delayed, EmailFailed, Expired and Undefined are set by the system (client activity, mail delivery, expiry, legacy imports), never by a move.")
schemas["OptionStatus"] = enum(["Draft","Selected","Declined"], "Option status. Per area, the option counted in the proposal's totals is the Selected one, else the area's first option.")
schemas["PartyType"] = enum(["Undefined","Person","Company"], "Undefined appears only on legacy data; new contacts are Person or Company.")
schemas["ContactType"] = enum(["Undefined","Client","Employee","Contractor","Other"], "Undefined appears only on legacy data.")
schemas["ItemType"] = enum(["Part","Labor","Fee","CustomItem"], "CustomItem counts as a part in the financial summary.")
schemas["DiscountType"] = enum(["Percentage","Amount"], "Percentage applies partsDiscountPercentage to the parts subtotal; Amount takes a fixed amount off it (never more than the subtotal).")
schemas["TaxStatus"] = enum(["Undefined","Ok","Exempt","Unavailable"],
  "Undefined: no location assigned yet, nothing taxed. Ok: the rates of the tax location apply. Exempt: the document's applyTo is [None] (the dealer taxes nothing on it, e.g. a non-profit client). Unavailable: the location's state is not in the tax table, nothing taxed (never silently zero-rated as if known).")
schemas["TaxMethod"] = enum(["ClientLocation","DealerLocation","Manual"], "ClientLocation: rates looked up from the assigned location's state in the account's tax table (US state base rates plus the account's overrides). DealerLocation: from the dealer's office. Manual: rates as entered, never recalculated.")
schemas["ApplyTo"] = enum(["None","Parts","Labor","Fees"], "Categories that are taxed; [None] means tax-exempt.")
schemas["PaymentStatus"] = enum(["Undefined","Draft","Submitted","Viewed","Paid","Declined","Refunded"], "Payment request status.")
schemas["Role"] = enum(["Admin","Sales","Viewer"], "Admin: everything including export and user management. Sales: read and edit all proposals of the account, sees costs. Viewer: read only, costs and profit shown as null.")

schemas["Currency"] = obj(O(code=S, symbol=S))
schemas["Location"] = obj(O(id=I64, street=S, suite=S, city=S, postalCode=S, state=S, stateAbbrev=S, country=S, phone=S))
schemas["ContactLocation"] = {"allOf": [ref("Location"), obj(O(contactId=I64, isPrimary=B, isBilling=B))],
  "description": "A location of a contact. A contact has at most one primary location; creating a primary location clears the flag on the others."}
schemas["ContactSummary"] = obj(O(id=I64, partyType=ref("PartyType"), contactType=ref("ContactType"), firstName=S, lastName=S,
  companyName=S, contactEmail=S, contactEmailCC=S, contactPhone=S), desc="Contact summary (the spec's `customer` in lists; also a person of the people endpoints).")
schemas["Customer"] = {"allOf": [ref("ContactSummary"), obj(O(location=nullable(ref("Location"))))],
  "description": "The contact assigned to a document, with the location chosen for it (null until one is assigned)."}
schemas["Salesperson"] = obj(O(id=I64, email=S, firstName=S, lastName=S))
schemas["PersonName"] = obj(O(firstName=S, lastName=S))
schemas["Dealer"] = obj(O(companyName=S, webSiteUrl=S, companyPhone=S, companyLogoUrl=S, location=ref("Location"), salesperson=ref("Salesperson")))
schemas["ItemTotal"] = obj(O(amount=money("The item's amount. With isCombinedPrice it already includes every non-recurring item nested under it (at any depth); nested items still report their own amounts, and option totals count each line once."),
  currency=ref("Currency"), isCombinedPrice=B))
schemas["Item"] = obj(O(
  id=I64, parentId={"type": ["integer","null"], "format": "int64", "description": "Parent item when nested; null at top level."},
  itemType=ref("ItemType"), referencedItemId={"type": ["integer","null"], "format": "int64", "description": "Catalog item this line was made from; null for none."},
  createdDate=DT, lastModifiedDate=DT, costUpdateDate=DT,
  brand=S, model=S, description=S, name=S, shortDescription=S, clientNote=S, imageUrl=S, supplier=S,
  msrp=MONEY, sellPrice=MONEY,
  cost={"type": ["number","null"], "description": "Unit cost. null when costs are not available to the requesting user (no ViewCosts permission) or unknown; null never means zero cost."},
  quantity=QTY, total=ref("ItemTotal"), isTaxExempt=B,
  isRecurringService={"type": "boolean", "description": "A recurring service is left out of its option's total and counted in totalRecurringService."},
  linkedOrders={"type": "array", "items": {}, "description": "Always empty in this implementation (element shape not specified)."}))
schemas["Option"] = obj(O(id=I64, status=ref("OptionStatus"), lastModifiedDate=DT, clientDescription=S,
  installerDescription={"type": "string", "description": "Internal installer notes (operation 12)."},
  items=arr(ref("Item")), total=money("Sum of the option's non-recurring item lines."), totalRecurringService=money("Sum of the option's recurring-service lines.")))
schemas["Area"] = obj(O(id=I64, name={"type": "string", "description": "Unique within the proposal, compared case-insensitively after trimming surrounding spaces."},
  options={"type": "array", "items": ref("Option"), "maxItems": 3}))
schemas["TaxCalculation"] = obj(O(method=ref("TaxMethod"), applyTo=arr(ref("ApplyTo")),
  partsTax=RATE, laborTax=RATE, feeTax=RATE, partsTax2=RATE, laborTax2=RATE, feeTax2=RATE,
  partsTaxName=S, laborTaxName=S, feeTaxName=S, partsTax2Name=S, laborTax2Name=S, feeTax2Name=S,
  hasMultipleTaxSupport={"type": "boolean", "description": "When true a second rate per category applies on the same base."},
  taxLocation=nullable(ref("Location")), isTaxServiceAvailable=B,
  partsTotalTax=MONEY, laborTotalTax=MONEY, feeTotalTax=MONEY))
schemas["SalesTax"] = obj(O(taxStatus=ref("TaxStatus"), total=MONEY, calculation=ref("TaxCalculation")),
  desc="Tax per category = base × rate, each amount rounded half away from zero; the parts base is the taxable parts minus the taxable share of the discount.")
fs_common = O(partsSubtotal=money("Counted parts (Part and CustomItem) of the counted option of each area."), partsDiscountType=ref("DiscountType"),
  partsDiscountPercentage=RATE, partsDiscount=MONEY)
fs = O(fs_common); fs.update(O(partsDiscountTaxable=money("Share of the discount on taxable parts."), partsDiscountTaxExempt=money("Share of the discount on tax-exempt parts."),
  partsTotal=money("partsSubtotal − partsDiscount."), laborTotal=MONEY, feeTotal=MONEY,
  proposalSubtotal=money("partsTotal + laborTotal + feeTotal."), salesTax=ref("SalesTax"), proposalTotal=money("proposalSubtotal + salesTax.total."), currency=ref("Currency")))
schemas["FinancialSummary"] = obj(fs, desc="Derived on every read from the items; never stored.")
cfs = O(fs_common); cfs.update(O(partsTotal=MONEY, laborTotal=MONEY, feeTotal=MONEY, changeOrderSubtotal=MONEY, salesTax=ref("SalesTax"), changeOrderTotal=MONEY, currency=ref("Currency")))
schemas["ChangeOrderFinancialSummary"] = obj(cfs)
NMONEY = {"type": ["number","null"], "description": "null for users without the ViewCosts permission."}
NRATE = {"type": ["number","null"], "description": "Percentage; null for users without the ViewCosts permission."}
schemas["Profit"] = obj(O(total=NMONEY, percentage=NRATE, partTotal=NMONEY, partPercentage=NRATE, laborTotal=NMONEY, laborPercentage=NRATE, isProfitIncludeCos=B))
schemas["RecurringServices"] = obj(O(items=arr(obj(O(name=S, sellPrice=MONEY, quantity=QTY, totalSell=MONEY))), totalRecurringService=MONEY))
schemas["Payment"] = obj(O(calculation={"type": "string", "description": "How the amount is computed: \"<percent>%\" (e.g. \"50%\", a share of the document total), \"Fixed\" (a fixed amount) or \"Remainder\" (what the other payments leave of the total)."},
  amount=MONEY, due=obj(O(date=DT, milestone=S))))
schemas["PaymentSchedule"] = obj(O(customerDescription=S, payments=arr(ref("Payment"))))
schemas["PaymentRequest"] = obj(O(id=I64, status=ref("PaymentStatus"), amount=MONEY, dueDate=DT, description=S, paymentMethod=S))
schemas["ChangeOrderSummary"] = obj(O(id=I64, number=I64, name=S, status=ref("Status"),
  total=obj(O(changeOrderTotal=MONEY, currency=ref("Currency"))), customer=nullable(ref("ContactSummary")),
  createdDate=DT, lastModifiedDate=DT, lastModifiedByUserDate=DT))
doc = O(id=I64, number={"type": "integer", "format": "int64", "description": "Human-facing number, sequential per account."}, name=S, status=ref("Status"),
  createdDate=DT, clientLastDecisionDate=DT, lastCompletedDate=DT, lastModifiedDate=DT, lastModifiedByUserDate=DT, lastSubmittedDate=DT, clientLastOpenedDate=DT,
  customer=nullable(ref("Customer")), dealer=ref("Dealer"), coverpageImageUrl=S, aboutUs=S,
  projectDescription={"type": "string", "description": "Client-facing project description (operation 5)."},
  internalNotes={"type": "string", "description": "Extension: installer notes (operation 6), for the dealer's team only; never on client-facing output."},
  areas=arr(ref("Area")), profit=ref("Profit"), recurringServices=ref("RecurringServices"), paymentSchedule=ref("PaymentSchedule"),
  paymentRequests=arr(ref("PaymentRequest")), projectTerms=S, lastModifiedUser=ref("PersonName"))
pd = O(doc); pd["financialSummary"] = ref("FinancialSummary"); pd["changeOrders"] = arr(ref("ChangeOrderSummary"))
pd["isArchived"] = {"type": "boolean", "description": "Extension: the archive flag (list filter IsArchive)."}
pd["version"] = {"type": "integer", "format": "int64", "description": "Extension: counts committed writes; the ETag is \"<version>\"."}
schemas["ProposalDetail"] = obj(pd)
cd = O(doc); cd["financialSummary"] = ref("ChangeOrderFinancialSummary")
schemas["ChangeOrderDetail"] = obj(cd, desc="Same shape as ProposalDetail without changeOrders, isArchived and version, with the change-order financial summary. Change orders are read-only through this API.")
schemas["ProposalListItem"] = obj(O(id=I64, number=I64, name=S, status=ref("Status"), total=obj(O(proposalTotal=MONEY, currency=ref("Currency"))),
  createdDate=DT, lastModifiedDate=DT, lastModifiedByUserDate=DT, customer=nullable(ref("ContactSummary")), salesperson=ref("Salesperson")))
schemas["ProposalListResponse"] = obj(O(proposals=arr(ref("ProposalListItem")), proposalCount={"type": "integer", "description": "Count of all matches, not of the page."}))
schemas["PeopleResponse"] = obj(O(people=arr(ref("ContactSummary")), peopleCount={"type": "integer", "description": "Count of all matches, not of the page."}))
schemas["ChangesResponse"] = obj(O(storeId={"type": "string", "description": "Changes only when the server's data is replaced (restore from backup): download everything again, keep unsent edits."},
  cursor={"type": "string", "description": "Opaque; pass as `since` next time."},
  proposalIds={"type": "array", "items": I64, "description": "Proposals changed after the cursor, including ones archived or moved out of the caller's view."}))
FE = obj(O(errorCode=S, fieldName=S, message=S, meta={"type": "object", "additionalProperties": S}))
schemas["FieldError"] = FE
schemas["ResponseStatus"] = obj(O(errorCode=S, message=S, stackTrace={"type": "string", "description": "Always empty."}, errors=arr(ref("FieldError")), meta={"type": "object", "additionalProperties": S}))
SM = {"type": ["object","null"], "additionalProperties": S}
ANY = {"description": "Always null."}
schemas["ErrorBody"] = obj(O(
  errorCode={"type": "string", "enum": ["ValidationFailed","InvalidPaging","AreaNameTaken","OptionLimitReached","CredentialsMissing","SignatureInvalid","TimestampOutOfRange","InvalidCredentials","EmailNotVerified","ApiKeyRevoked","SubscriptionInactive","PermissionDenied","NotFound","ProposalLocked","NoContactAssigned","InvalidTransition","IdempotencyKeyReused","PreconditionFailed","PayloadTooLarge","UnsupportedMediaType","RateLimited","InternalError"]},
  stackTrace={"type": "string", "description": "Always empty."}, contentType=S, message=S, helpLink={"type": ["string","null"]}, source={"type": ["string","null"]},
  status={"type": "integer", "description": "The HTTP status."}, statusCode={"type": "string", "description": ".NET HttpStatusCode name, e.g. \"NotFound\"."}, statusDescription=S,
  hResult={"type": "integer"}, headers=SM, options=SM, cookies={"type": ["array","null"], "items": {"type": "object"}},
  response=ANY, responseFilter=ANY, requestContext=ANY, resultScope=ANY, targetSite=ANY, data=ANY, innerException=ANY,
  paddingLength={"type": "integer"}, responseStatus=ref("ResponseStatus")),
  desc="The error body of every failed request. errorCode appears at the top level and in responseStatus; responseStatus.errors names each bad field of a ValidationFailed; responseStatus.meta.requestId matches the X-Request-ID header. Internal errors never carry internals.")
schemas["ExchangeResponse"] = obj(O(userId={"type": "string", "description": "The user's numeric ID, as a string."}, sessionId=S, userName=S, displayName=S, referrerUrl=S,
  bearerToken={"type": "string", "description": "Empty: requests are signed, not bearer-authenticated."}, refreshToken=S, refreshTokenExpiry=DT, profileUrl=S,
  roles=arr(ref("Role")), permissions=arr({"type": "string", "enum": ["ViewProposals","EditProposals","ViewCosts","ExportProposals","ManageUsers"]}),
  authProvider=S, responseStatus=ref("ResponseStatus"),
  meta=obj(O(apiKey={"type": "string", "description": "The user API key: 32 random bytes in Base64. Stored by the server only as a hash; valid until revoked (server users revoke-keys). One per device is fine."}), required=["apiKey"], extra={"additionalProperties": S})))

# Request bodies
def body(props, required, desc):
    sch = obj(props, required=required, desc=desc, extra={"additionalProperties": True})
    return {"required": bool(required), "description": desc + " Sent as JSON or as a form; field names match case-insensitively; unknown fields are ignored; bodies over 1 MiB are 413.",
            "content": {"application/json": {"schema": sch}, "application/x-www-form-urlencoded": {"schema": sch}}}
NAME = {"type": "string", "minLength": 1, "maxLength": 200}
TEXT = {"type": "string", "maxLength": 100000}
ID = {"type": "integer", "format": "int64", "minimum": 1}

# Parameters
params = O()
for p, d in [("ProposalId","Proposal ID."),("ChangeOrderId","Change order ID (of the proposal)."),("AreaId","Area ID (of the proposal)."),
             ("AreaOptionId","Option ID; must belong to the proposal."),("ContactId","Contact (person) ID of the same account."),
             ("LocationId","Location ID; must belong to the proposal's contact."),("PersonId","Person (contact) ID."),
             ("ItemId","Catalog item ID of the caller's account (another account's ID is 404).")]:
    params[p] = {"name": p, "in": "path", "required": True, "description": d, "schema": ID}
params["IdempotencyKey"] = {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string", "maxLength": 255, "pattern": "^[!-~]+$"},
  "description": "Extension. A write repeating a key the same user used within 24 hours returns the first response again (same status and body, header Idempotent-Replayed: true) without applying the write twice; the key's record is written in the same transaction as the change. The same key with a different method, path or body is 409 IdempotencyKeyReused. Only successful responses are recorded."}
params["IfMatch"] = {"name": "If-Match", "in": "header", "required": False, "schema": S,
  "description": "Extension. The ETag (\"<version>\") from a GET or a write; if the proposal has changed since, the write is 412 PreconditionFailed and changes nothing. \"*\" and weak tags (W/) are accepted."}
params["Accept"] = {"name": "Accept", "in": "header", "required": False, "schema": {"type": "string", "default": "application/json"}}

# Responses
hdr_date = {"description": "Server time; clients measure their clock offset from it (X-MSS-CUSTOM-DATE must be within ±15 minutes).", "schema": S}
hdr_reqid = {"description": "Request ID, also in error bodies' responseStatus.meta.requestId.", "schema": S}
common_headers = {"Date": hdr_date, "X-Request-ID": hdr_reqid}
def err(desc): return {"description": desc, "headers": common_headers, "content": {"application/json": {"schema": ref("ErrorBody")}}}
responses = O()
responses["BadRequest"] = err("400 ValidationFailed (responseStatus.errors names each field: a path ID that is not a positive whole number, wrong type, over-long string, malformed JSON (field `body`), a field given twice, missing required field), InvalidPaging, AreaNameTaken, OptionLimitReached.")
responses["Unauthorized"] = err("401 CredentialsMissing, SignatureInvalid (\"You are not authorized. Your request signature (hash) is invalid.\"), TimestampOutOfRange, ApiKeyRevoked.")
responses["ExchangeUnauthorized"] = err("401 InvalidCredentials (unknown user or wrong password, indistinguishable), EmailNotVerified, SignatureInvalid, CredentialsMissing, TimestampOutOfRange.")
responses["PaymentRequired"] = err("402 SubscriptionInactive: the dealer's subscription has lapsed.")
responses["Forbidden"] = err("403 PermissionDenied: the user's role lacks the permission.")
responses["NotFound"] = err("404 NotFound: no such ID in the caller's account (another account's ID is not found too).")
responses["Conflict"] = err("409 ProposalLocked, NoContactAssigned, InvalidTransition, IdempotencyKeyReused.")
responses["PreconditionFailed"] = err("412 PreconditionFailed: If-Match does not match the proposal's current version.")
responses["PayloadTooLarge"] = err("413 PayloadTooLarge: body over 1 MiB.")
responses["UnsupportedMediaType"] = err("415 UnsupportedMediaType: a body that is neither JSON nor a form.")
responses["TooManyRequests"] = err("429 RateLimited: too many failed sign-ins for this user name or client address; see Retry-After.")
responses["InternalError"] = err("500 InternalError: nothing of the server's insides in the body; the request ID is logged.")
def ok(schema, desc, extra_headers=None):
    h = dict(common_headers)
    if extra_headers: h.update(extra_headers)
    return {"description": desc, "headers": h, "content": {"application/json": {"schema": schema}}}
ETAG = {"description": "\"<version>\" of the proposal; send it back in If-Match.", "schema": S}
LASTMOD = {"description": "From the response's lastModifiedDate (HTTP-date).", "schema": S}
REPLAY = {"description": "\"true\" when an Idempotency-Key replayed the first response.", "schema": S}

paths = O()
def R(n): return {"$ref": "#/components/responses/" + n}
def P(n): return {"$ref": "#/components/parameters/" + n}
SIGNED = [{"AppId": [], "Timestamp": [], "Signature": [], "UserKey": []}]

def op(method, path, opid, summary, desc, op_enum, params_, resp200, req=None, errors=(), ext=False, sub=True, status200="200", tags=None, write=False, proposal_write=False):
    o = O(operationId=opid, summary=summary, description=desc)
    o["tags"] = tags or ["Proposals"]
    o["x-operation"] = op_enum
    o["x-requires-subscription"] = sub
    if ext: o["x-extension"] = True
    ps = [P(p) for p in params_]
    if write:
        ps.append(P("IdempotencyKey"))
    if proposal_write:
        ps.append(P("IfMatch"))
    o["parameters"] = ps
    if req: o["requestBody"] = req
    rs = O()
    rs[status200] = resp200
    codes = ["Unauthorized"] + (["PaymentRequired"] if sub else []) + ["Forbidden"] + list(errors)
    if params_:
        codes.append("BadRequest")  # a path ID that is not a positive whole number
    if write:
        codes += ["BadRequest", "Conflict", "PayloadTooLarge", "UnsupportedMediaType"]
    if proposal_write:
        codes += ["PreconditionFailed"]
    num = {"BadRequest":"400","Unauthorized":"401","PaymentRequired":"402","Forbidden":"403","NotFound":"404","Conflict":"409","PreconditionFailed":"412","PayloadTooLarge":"413","UnsupportedMediaType":"415","TooManyRequests":"429"}
    for c in sorted(set(codes), key=lambda c: num[c]):
        rs[num[c]] = R(c)
    rs["500"] = R("InternalError")
    o["responses"] = rs
    o["security"] = SIGNED
    paths.setdefault(path, O())[method] = o

DETAIL = ok(ref("ProposalDetail"), "The proposal's full detail after the write.", {"ETag": ETAG, "Idempotent-Replayed": REPLAY})
LOCK = "Rejected with 409 ProposalLocked when the proposal is Accepted, Declined or Completed."

listparams = [
 {"name":"SearchText","in":"query","schema":{"type":"string","maxLength":200},"description":"Words separated by spaces; every word must occur (case-insensitive substring) in the proposal's name, number, customer first+last name, company name or email. Repeated values are joined."},
 {"name":"Statuses","in":"query","style":"form","explode":True,"schema":{"type":"array","items":ref("Status")},"description":"Only these statuses; repeat the parameter or separate with commas."},
 {"name":"ContactId","in":"query","schema":ID,"description":"Only proposals whose customer is this contact."},
 {"name":"SalesPersonId","in":"query","schema":ID,"description":"Only proposals of this salesperson."},
 {"name":"ModifiedAfter","in":"query","schema":{"type":"string","format":"date-time"},"description":"Only proposals whose lastModifiedDate is strictly after this ISO 8601 time (a bare date is midnight UTC)."},
 {"name":"IsArchive","in":"query","schema":{"type":"boolean","default":False},"description":"true: only archived proposals; false or absent: only proposals not archived."},
 {"name":"SortBy","in":"query","schema":{"type":"string","enum":["CreatedDate","ModifiedDate","LastModifiedDate","Number","Name","ClientName","Status"],"default":"ModifiedDate"},"description":"LastModifiedDate is accepted as ModifiedDate. Name and ClientName sort case-insensitively; Status in lifecycle order (the order of the Status enum). Ties break on ID in the same direction, so paging is stable."},
 {"name":"SortDirection","in":"query","schema":{"type":"string","enum":["Asc","Desc"],"default":"Desc"}},
 {"name":"PageNumber","in":"query","schema":{"type":"integer","minimum":1,"default":1},"description":"1-based; below 1 is 400 InvalidPaging."},
 {"name":"PageSize","in":"query","schema":{"type":"integer","minimum":1,"maximum":200,"default":25},"description":"Above 200 (or below 1) is 400 InvalidPaging."},
]
op("get","/public/proposals","listProposals","Search/list proposals (1)",
   "The proposals of the caller's account, filtered, sorted and paged. Query parameter names match case-insensitively. Defaults: newest-modified first, page 1 of 25, not archived.",
   "ListProposals", [], ok(ref("ProposalListResponse"), "A page of proposals."), errors=["BadRequest"])
paths["/public/proposals"]["get"]["parameters"] = listparams
op("post","/public/proposals","createProposal","Create proposal (2)",
   "Creates a Draft proposal. Without a Name (or with a blank one) the proposal is named \"Proposal <number>\", the web application's default. Tax starts Undefined with method ClientLocation and applyTo [Parts]; projectTerms come from the account.",
   "CreateProposal", [], DETAIL,
   req=body(O(SalesPersonId=dict(ID, description="A user of the same account (404 NotFound otherwise)."), Name=NAME), ["SalesPersonId"], "The salesperson and an optional name."),
   errors=["NotFound"], write=True)
op("get","/public/proposals/{ProposalId}","getProposal","Get proposal detail (3)",
   "The full detail. Costs and profit are null for users without ViewCosts. Works with a lapsed subscription.",
   "GetProposal", ["ProposalId"], ok(ref("ProposalDetail"), "The proposal.", {"ETag": ETAG, "Last-Modified": LASTMOD}), errors=["NotFound"], sub=False)
op("post","/public/proposals/{ProposalId}","updateProposal","Update proposal name/salesperson (4)",
   "Partial update: omitted fields keep their values; both may be sent together. " + LOCK,
   "UpdateProposal", ["ProposalId"], DETAIL,
   req=body(O(Name=NAME, SalesPersonId=ID), [], "Name and/or SalesPersonId."), errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/description","setProjectDescription","Update project description (5)",
   "Sets the client-facing project description; an empty string clears it. " + LOCK,
   "SetDescription", ["ProposalId"], DETAIL, req=body(O(Description=TEXT), ["Description"], "The description."), errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/internalnotes","setInternalNotes","Update installer notes (6)",
   "Sets the internal installer notes (shown as internalNotes, never client-facing); an empty string clears them. Works in every status, including Accepted and Completed.",
   "SetInternalNotes", ["ProposalId"], DETAIL, req=body(O(InternalNotes=TEXT), ["InternalNotes"], "The notes."), errors=["NotFound"], write=True, proposal_write=True)
op("get","/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}","getChangeOrder","Get change order detail (7)",
   "A change order of the proposal. The ETag is the parent proposal's version. Works with a lapsed subscription.",
   "GetChangeOrder", ["ProposalId","ChangeOrderId"], ok(ref("ChangeOrderDetail"), "The change order.", {"ETag": ETAG, "Last-Modified": LASTMOD}), errors=["NotFound"], sub=False)
op("get","/public/proposals/{ProposalId}/changeorders","listChangeOrders","List change orders (8)",
   "The proposal's change orders as a bare array, in creation order ([] when none).",
   "ListChangeOrders", ["ProposalId"], ok(arr(ref("ChangeOrderSummary")), "The change orders."), errors=["NotFound"])
op("post","/public/proposals/{ProposalId}/area","createArea","Create area (9)",
   "Adds an area with one default Draft option. The name must be unique in the proposal (case-insensitive, trimmed): 400 AreaNameTaken otherwise. " + LOCK,
   "CreateArea", ["ProposalId"], DETAIL, req=body(O(Name=NAME), ["Name"], "The area name."), errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/area/{AreaId}/option","createOption","Create option (10)",
   "Adds a Draft option to the area; an area holds at most three (400 OptionLimitReached). " + LOCK,
   "CreateOption", ["ProposalId","AreaId"], DETAIL, req=body(O(ClientDescription=TEXT, InternalNotes=dict(TEXT, description="Installer notes; shown as installerDescription.")), [], "Both optional."),
   errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/area-options/{AreaOptionId}/clientdescription","setOptionClientDescription","Update option client description (11)",
   "The option must belong to the proposal (404 otherwise). An empty string clears. " + LOCK,
   "SetOptionClientDescription", ["ProposalId","AreaOptionId"], DETAIL, req=body(O(ClientDescription=TEXT), ["ClientDescription"], "The description."), errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/area-options/{AreaOptionId}/installernotes","setOptionInstallerNotes","Update option installer notes (12)",
   "Shown as the option's installerDescription. An empty string clears. " + LOCK,
   "SetOptionInstallerNotes", ["ProposalId","AreaOptionId"], DETAIL, req=body(O(InstallerNotes=TEXT), ["InstallerNotes"], "The notes."), errors=["NotFound"], write=True, proposal_write=True)
op("post","/public/proposals/{ProposalId}/contact/{ContactId}","assignContact","Assign contact (13)",
   "Assigns a contact of the same account. When the contact has exactly one primary location it becomes the proposal's location and tax is recalculated; otherwise the proposal keeps no location (tax Undefined) until one is assigned. Works in every status. No body needed; a body {proposalId, contactId} is accepted and must match the path (400 otherwise).",
   "AssignContact", ["ProposalId","ContactId"], {"description": "Assigned; no body.", "headers": dict(common_headers, ETag=ETAG, **{"Idempotent-Replayed": REPLAY})},
   req=dict(body(O(proposalId=ID, contactId=ID), [], "Optional echo of the path IDs."), required=False), errors=["NotFound"], write=True, proposal_write=True, status200="204")
op("post","/public/proposals/{ProposalId}/location/{LocationId}","assignLocation","Assign location (14)",
   "Assigns one of the proposal's contact's locations and recalculates tax (409 NoContactAssigned without a contact; 404 when the location is not the contact's). Works in every status. A body {proposalId, locationId} is accepted and must match the path.",
   "AssignLocation", ["ProposalId","LocationId"], DETAIL,
   req=dict(body(O(proposalId=ID, locationId=ID), [], "Optional echo of the path IDs."), required=False), errors=["NotFound"], write=True, proposal_write=True)
op("get","/authenticate/apikeyexchange","apiKeyExchange","Key exchange (15)",
   "Exchanges a user name and password for a user API key (meta.apiKey). Signed like every request but with an empty X-MSS-API-USERKEY. UserName matches in any letter case. Rate-limited per user name and per client address after repeated failures (429 with Retry-After). Unknown users and wrong passwords are indistinguishable.",
   "KeyExchange", [], ok(ref("ExchangeResponse"), "The key."), errors=["BadRequest","TooManyRequests"], sub=False, tags=["Authentication"])
ex = paths["/authenticate/apikeyexchange"]["get"]
ex["parameters"] = [
  {"name":"UserName","in":"query","required":True,"schema":{"type":"string","maxLength":256},"description":"The user's email, any letter case."},
  {"name":"Password","in":"query","required":True,"schema":{"type":"string","format":"password"}},
  {"name":"Accept","in":"header","required":True,"schema":{"type":"string","enum":["application/json"]}}]
ex["responses"]["401"] = R("ExchangeUnauthorized")
ex["security"] = [{"AppId": [], "Timestamp": [], "Signature": [], "UserKey": []}]

PEOPLE = ["People"]
op("get","/public/people","listPeople","List people",
   "Contacts of the account. SearchText: every word in first/last name, company, email or phone (case-insensitive). ContactTypes: repeatable or comma-separated. SortBy FirstName, LastName (default) or CompanyName, case-insensitive, ties by ID; SortDirection Asc (default) or Desc. Paging as the proposal list (default 25, at most 200). Works with a lapsed subscription.",
   "ListPeople", [], ok(ref("PeopleResponse"), "A page of people."), errors=["BadRequest"], sub=False, tags=PEOPLE)
paths["/public/people"]["get"]["parameters"] = [
 {"name":"SearchText","in":"query","schema":{"type":"string","maxLength":200}},
 {"name":"ContactTypes","in":"query","style":"form","explode":True,"schema":{"type":"array","items":ref("ContactType")}},
 {"name":"SortBy","in":"query","schema":{"type":"string","enum":["FirstName","LastName","CompanyName"],"default":"LastName"}},
 {"name":"SortDirection","in":"query","schema":{"type":"string","enum":["Asc","Desc"],"default":"Asc"}},
 {"name":"PageNumber","in":"query","schema":{"type":"integer","minimum":1,"default":1}},
 {"name":"PageSize","in":"query","schema":{"type":"integer","minimum":1,"maximum":200,"default":25}}]
op("post","/public/people","createPerson","Create person",
   "Adds a contact. FirstName is required; CompanyName too when PartyType is Company. Names 1..200 characters; ContactEmail must be an email address.",
   "CreatePerson", [], ok(ref("ContactSummary"), "The new contact."),
   req=body(O(PartyType={"type":"string","enum":["Person","Company"]}, ContactType={"type":"string","enum":["Client","Employee","Contractor","Other"]},
              FirstName=NAME, LastName=NAME, CompanyName=NAME, ContactEmail={"type":"string","format":"email","maxLength":200}, ContactPhone=NAME),
            ["PartyType","ContactType","FirstName"], "The contact."), write=True, tags=PEOPLE)
op("get","/public/people/{PersonId}","getPerson","Get person","One contact of the account. Works with a lapsed subscription.",
   "GetPerson", ["PersonId"], ok(ref("ContactSummary"), "The contact."), errors=["NotFound"], sub=False, tags=PEOPLE)
op("get","/public/people/{PersonId}/location","listLocations","List a person's locations","The contact's locations (at most one isPrimary). Works with a lapsed subscription.",
   "ListLocations", ["PersonId"], ok(arr(ref("ContactLocation")), "The locations."), errors=["NotFound"], sub=False, tags=PEOPLE)
op("post","/public/people/{PersonId}/location","createLocation","Create location",
   "Adds a location to the contact. A two-letter State is taken as the abbreviation; a state name the tax table knows gets stateAbbrev filled in. IsPrimary clears the flag on the contact's other locations.",
   "CreateLocation", ["PersonId"], ok(ref("ContactLocation"), "The new location."),
   req=body(O(Street=NAME, Suite=NAME, City=NAME, PostalCode=NAME, State=NAME, Country=NAME, Phone=NAME, IsPrimary=B, IsBilling=B), ["Street"], "The location."),
   errors=["NotFound"], write=True, tags=PEOPLE)
op("get","/public/users","listUsers","List users (extension)","The account's users who can be salespeople, as Salesperson objects. Works with a lapsed subscription.",
   "ListUsers", [], ok(arr(ref("Salesperson")), "The users."), ext=True, sub=False, tags=["Extensions"])
op("get","/public/changes","listChanges","Changes feed (extension)",
   "The proposals changed after a cursor, for sync. Start with no `since`; keep the returned cursor. Works with a lapsed subscription.",
   "Changes", [], ok(ref("ChangesResponse"), "Changed proposal IDs."), errors=["BadRequest"], ext=True, sub=False, tags=["Extensions"])
paths["/public/changes"]["get"]["parameters"] = [{"name":"since","in":"query","required":False,"schema":{"type":"string","maxLength":256},"description":"A cursor from an earlier response; absent or empty is the beginning."}]
op("post","/public/proposals/{ProposalId}/status","changeStatus","Change status (extension)",
   "Moves the proposal to Status along an allowed move (see the Status schema); anything else is 409 InvalidTransition. Submitted sets lastSubmittedDate; Accepted/Declined set clientLastDecisionDate; Completed sets lastCompletedDate.",
   "ChangeStatus", ["ProposalId"], DETAIL, req=body(O(Status=ref("Status")), ["Status"], "The new status."), errors=["NotFound"], ext=True, write=True, proposal_write=True, tags=["Extensions"])


# Exports and documents (extensions, Admin only: the ExportProposals permission).
EXPORT_TAGS = ["Extensions"]
def stream_ok(content, desc, extra_headers=None):
    h = dict(common_headers)
    if extra_headers: h.update(extra_headers)
    return {"description": desc, "headers": h, "content": content}
op("get","/public/export/proposals","exportProposals","Bulk export (extension)",
   "Admin only (403 PermissionDenied for Sales and Viewer). Streams every proposal of the account that matches the list's filters, in ID order: "
   "Format=jsonl gives JSON Lines, each line the proposal detail exactly as GET /public/proposals/{ProposalId} returns it; "
   "Format=csv gives one CSV file (RFC 4180, UTF-8 without BOM, CRLF, a header row) per request: Part=proposals (default) one row a proposal with every financial-summary figure, "
   "Part=items one row an item of every option (proposal, area, option, option status, item fields, totals). A CSV export is therefore two requests. "
   "Costs and profit are filled in only for roles with ViewCosts. Text cells starting with = + - @ get a leading apostrophe (CSV injection). "
   "Sort and paging parameters are ignored. The response streams: X-Total-Count is the number of matching proposals, sent first for progress; "
   "because the status is sent before the data is read, a failure part-way is reported in the trailer X-Export-Error, and the trailer X-Export-Count is the number of rows (CSV, without the header) or lines written. "
   "Works with a lapsed subscription.",
   "Export", [], stream_ok({"text/csv": {"schema": {"type": "string"}}, "application/jsonl": {"schema": {"type": "string"}}},
     "The export file (Content-Disposition: attachment).",
     {"X-Total-Count": {"description": "Number of proposals that match, before streaming.", "schema": {"type": "integer"}},
      "Trailer": {"description": "X-Export-Error, X-Export-Count (HTTP trailers after the body).", "schema": S}}),
   errors=["BadRequest"], ext=True, sub=False, tags=EXPORT_TAGS)
paths["/public/export/proposals"]["get"]["parameters"] = [
 {"name":"Format","in":"query","required":True,"schema":{"type":"string","enum":["csv","jsonl","json"]},"description":"csv or jsonl (json is accepted as jsonl). Any letter case."},
 {"name":"Part","in":"query","schema":{"type":"string","enum":["proposals","items"],"default":"proposals"},"description":"For csv: which of the two files. items with jsonl is 400."},
] + [p for p in listparams if p["name"] in ("SearchText","Statuses","ContactId","SalesPersonId","ModifiedAfter","IsArchive")]
KIND = {"name":"Kind","in":"query","schema":{"type":"string","enum":["client","installer"],"default":"client"},
  "description":"client: the client-facing document (dealer header and logo from a data: URL, customer and location, project description, areas, options and items at sell price, totals, tax, recurring services, payment schedule, terms; never installer notes, internal notes, costs or profit). installer: the work order (location, areas, options, items with quantities, installer notes and option installer notes; no prices). Any other value is 400."}
PDF = stream_ok({"application/pdf": {"schema": {"type": "string", "contentMediaType": "application/pdf"}}}, "The PDF (Content-Disposition: attachment).", {"Last-Modified": LASTMOD})
op("get","/public/proposals/{ProposalId}/document","proposalDocument","Proposal PDF (extension)",
   "Admin only. Renders the proposal as a PDF (US Letter, Go fonts embedded; characters outside Latin, Greek and Cyrillic print as ?). The server never fetches a remote logo; a companyLogoUrl that is not a data: URL of a PNG or JPEG is replaced by the company name. Works with a lapsed subscription.",
   "Export", ["ProposalId"], PDF, errors=["NotFound"], ext=True, sub=False, tags=EXPORT_TAGS)
paths["/public/proposals/{ProposalId}/document"]["get"]["parameters"].append(KIND)
op("get","/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}/document","changeOrderDocument","Change order PDF (extension)",
   "Admin only. The change order rendered as the proposal document is. Works with a lapsed subscription.",
   "Export", ["ProposalId","ChangeOrderId"], PDF, errors=["NotFound"], ext=True, sub=False, tags=EXPORT_TAGS)
paths["/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}/document"]["get"]["parameters"].append(KIND)

# The catalog (issue 11): Portal's search and item routes, the changes feed and the import (extensions).
CATALOG_TAGS = ["Catalog"]
schemas["CatalogItem"] = obj(O(id=I64, itemType=ref("ItemType"), brand=S, model=S, name=S, shortDescription=S, description=S, partNumber=S,
  categoryId={"type": "integer", "format": "int64", "description": "The server's ID of the category name (one per distinct name, case-insensitive); 0 when none."},
  categoryName=S, supplier=S, msrp=MONEY, sellPrice=MONEY,
  cost={"type": ["number","null"], "description": "Unit cost; null without the ViewCosts permission, or when the dealer has no cost on file (never means zero)."},
  imageUrl=S, isDiscontinued=B, lastModifiedDate=DT), desc="A product, labor or fee line of the account's catalog.")
schemas["CatalogResponse"] = obj(O(items=arr(ref("CatalogItem")), itemCount={"type": "integer", "description": "Number of all matches, not of the page."}))
schemas["CatalogChanges"] = obj(O(storeId={"type": "string", "description": "As in ChangesResponse: a new value means download the whole catalog again."},
  cursor={"type": "string", "description": "Pass as since for the next page or the next sync."},
  items=arr(ref("CatalogItem")), deletedIds=arr(I64),
  hasMore={"type": "boolean", "description": "Another page follows at cursor."},
  itemCount={"type": "integer", "description": "Number of items in the catalog now (progress of a first download)."}))
schemas["CatalogImportReport"] = obj(O(mode={"type": "string", "enum": ["Merge", "Replace"]}, applied=B,
  rows={"type": "integer", "description": "Data rows read."}, added={"type": "integer"}, updated={"type": "integer"},
  unchanged={"type": "integer"}, deleted={"type": "integer"},
  rejected=arr(obj(O(line={"type": "integer"}, reason=S)))))
op("get","/public/catalog","listCatalog","Search the catalog",
   "The account's catalog. Every word of SearchText must occur (any case, any order) in the brand, model, name or part number. "
   "Order: brand, then model (both case-insensitive), then ID; items without a brand (most labor and fees) first. Costs are null without ViewCosts.",
   "ListCatalog", [], ok(ref("CatalogResponse"), "A page of items and the count of all matches."), errors=["BadRequest"], tags=CATALOG_TAGS)
paths["/public/catalog"]["get"]["parameters"] = [
 {"name":"SearchText","in":"query","schema":{"type":"string","maxLength":200},"description":"Words matched against brand, model, name and part number."},
 {"name":"ItemType","in":"query","schema":ref("ItemType"),"description":"Absent: every type. Any letter case."},
 {"name":"Brands","in":"query","schema":arr(S),"style":"form","explode":True,"description":"Repeatable; exact brand names, any letter case (not split on commas)."},
 {"name":"CategoryId","in":"query","schema":ID},
 {"name":"PageNumber","in":"query","schema":{"type":"integer","minimum":1,"default":1},"description":"Below 1 is 400 InvalidPaging."},
 {"name":"PageSize","in":"query","schema":{"type":"integer","minimum":1,"maximum":200,"default":10},"description":"Above 200 is 400 InvalidPaging."}]
op("get","/public/catalog/{ItemId}","getCatalogItem","Get catalog item","One item of the account's catalog. Works with a lapsed subscription.",
   "GetCatalogItem", ["ItemId"], ok(ref("CatalogItem"), "The item."), errors=["NotFound"], sub=False, tags=CATALOG_TAGS)
op("get","/public/catalog/changes","catalogChanges","Catalog changes feed (extension)",
   "Pages the catalog for offline copies: items added or changed and IDs removed after a cursor, oldest change first, each item once at its latest change. "
   "Start with no since, follow cursor while hasMore, keep the last cursor for the next sync. Works with a lapsed subscription.",
   "CatalogChanges", [], ok(ref("CatalogChanges"), "A page of changes."), errors=["BadRequest"], ext=True, sub=False, tags=CATALOG_TAGS)
paths["/public/catalog/changes"]["get"]["parameters"] = [
 {"name":"since","in":"query","required":False,"schema":{"type":"string","maxLength":256},"description":"A cursor from an earlier response; absent or empty is the beginning."},
 {"name":"Limit","in":"query","schema":{"type":"integer","minimum":1,"maximum":5000,"default":1000},"description":"Changes per page; outside 1..5000 is 400 InvalidPaging."}]
op("post","/public/catalog/import","importCatalog","Import the catalog from CSV (extension)",
   "Admin only. The body is a CSV file (text/csv, up to 256 MiB by default): a header naming the columns in any order and case, "
   "ItemType, Name and SellPrice required; Brand, Model, PartNumber, Category, Supplier, ShortDescription, Description, Msrp, Cost (empty: unknown), ImageUrl, IsDiscontinued optional; "
   "an unknown column is refused. A row's item is matched by its part number (case-insensitive), or by brand, model and name when it has none; a matched item keeps its ID. "
   "Mode=Merge (default) adds and updates; Mode=Replace also removes the items the file does not name. "
   "The whole file is checked first; if any row is bad nothing is applied and the 400 ValidationFailed lists every rejected row in responseStatus.errors (fieldName \"line N\", message the reasons). "
   "Otherwise the file is applied in one transaction.",
   "ImportCatalog", [], ok(ref("CatalogImportReport"), "What the import did."), errors=["BadRequest"], ext=True, write=True, tags=CATALOG_TAGS)
paths["/public/catalog/import"]["post"]["parameters"].append({"name":"Mode","in":"query","schema":{"type":"string","enum":["Merge","Replace"],"default":"Merge"},"description":"Any letter case."})
paths["/public/catalog/import"]["post"]["requestBody"] = {"required": True, "description": "The CSV file.", "content": {"text/csv": {"schema": {"type": "string"}}}}

signing_desc = ("Every request carries four headers. X-MSS-API-APPID: the app ID (from `server apps create`). X-MSS-CUSTOM-DATE: the request time as `Mon, 02 Jan 2006 15:04:05 GMT`, within ±15 minutes of the server clock (401 TimestampOutOfRange; every response has a Date header to correct against). "
  "X-MSS-API-USERKEY: the user API key from the key exchange (empty for the exchange itself). X-MSS-SIGNATURE: Base64(HMAC-SHA256(key = the app secret's ASCII bytes, message = METHOD + absoluteURL + contentType + timestamp + userKey)), concatenated with no separators; contentType is the request's Content-Type and is left out for GET; absoluteURL is the URL the client used, query string exactly as sent (behind a proxy the server is told its public base URL). "
  "Compatibility: a signature over the URL without its query string is also accepted unless the server runs with --strict-signing. The signature does not cover the body, so outside loopback the API is served over TLS only.")
doc = O()
doc["openapi"] = "3.1.0"
doc["info"] = O(title="Proposal Desk API", version="1.0.0",
  description="The public Proposal Management API (proposal-api.md) with the wire details of contract.md. Operations are numbered as in the spec. Routes beyond the spec's 15 operations that Portal does not document are marked `x-extension: true`; the people endpoints are Portal-documented and carry no mark. `x-operation` names the rule-engine operation; `x-requires-subscription` says whether a lapsed subscription makes it 402 (reads of single documents, the exchange and the extension reads stay available so a lapsed dealer can open and sync what they have). Bodies are JSON or forms; responses are JSON with lower-camelCase names; writes are POST. Money is decimal, rounded half away from zero to the currency's minor unit per line and per tax amount.",
  license={"name": "Proprietary", "identifier": "LicenseRef-Proprietary"})
doc["servers"] = [{"url": "{base_url}", "variables": {"base_url": {"default": "http://127.0.0.1:8080"}}}]
doc["tags"] = [{"name":"Proposals"},{"name":"Authentication"},{"name":"People"},{"name":"Extensions","description":"x-extension routes: what the desktop client needs, and the Admin-only exports and documents."},{"name":"Catalog","description":"The account's product catalog: search, items, the changes feed for offline copies, CSV import."}]
doc["security"] = SIGNED
doc["paths"] = paths
doc["components"] = O(schemas=schemas, parameters=params, responses=responses, securitySchemes=O(
  AppId={"type":"apiKey","in":"header","name":"X-MSS-API-APPID","description":signing_desc},
  Timestamp={"type":"apiKey","in":"header","name":"X-MSS-CUSTOM-DATE","description":"Request time, `Mon, 02 Jan 2006 15:04:05 GMT`, ±15 minutes."},
  Signature={"type":"apiKey","in":"header","name":"X-MSS-SIGNATURE","description":"Base64 HMAC-SHA256 over METHOD+absoluteURL+contentType(non-GET)+timestamp+userKey with the app secret; see AppId."},
  UserKey={"type":"apiKey","in":"header","name":"X-MSS-API-USERKEY","description":"User API key from the exchange (meta.apiKey); empty for the exchange."}))
import sys
json.dump(doc, open(sys.argv[1], "w"), indent=2, ensure_ascii=False)
open(sys.argv[1], "a").write("\n")
