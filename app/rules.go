package app

import (
	"strings"
	"unicode/utf8"
)

// Permission is something a role may do.
type Permission string

const (
	PermViewProposals  Permission = "ViewProposals"
	PermEditProposals  Permission = "EditProposals"
	PermViewCosts      Permission = "ViewCosts"
	PermExport         Permission = "ExportProposals"
	PermManageUsers    Permission = "ManageUsers"
	PermManageCatalog  Permission = "ManageCatalog"
	PermManageWebhooks Permission = "ManageWebhooks"
)

var rolePermissions = map[Role][]Permission{
	RoleAdmin:  {PermViewProposals, PermEditProposals, PermViewCosts, PermExport, PermManageUsers, PermManageCatalog, PermManageWebhooks},
	RoleSales:  {PermViewProposals, PermEditProposals, PermViewCosts},
	RoleViewer: {PermViewProposals},
}

// Permissions lists what the role may do.
func (r Role) Permissions() []Permission { return append([]Permission(nil), rolePermissions[r]...) }

// Can reports whether the role has the permission.
func (r Role) Can(p Permission) bool {
	for _, have := range rolePermissions[r] {
		if have == p {
			return true
		}
	}
	return false
}

// ViewOptions are what a user of this role may see.
func (r Role) ViewOptions() ViewOptions { return ViewOptions{ViewCosts: r.Can(PermViewCosts)} }

// Require is the PermissionDenied error for a missing permission.
func Require(u User, p Permission) error {
	if u.Role.Can(p) {
		return nil
	}
	return Errorf(KindPermissionDenied, "your role (%s) does not allow this: it needs the %s permission", u.Role, p)
}

// Locked reports whether a proposal in this status refuses edits.
func (s Status) Locked() bool {
	return s == StatusAccepted || s == StatusDeclined || s == StatusCompleted
}

// LockedIn reports whether the operation is refused on a proposal in
// status s (the ProposalLocked rule). Installer notes, contact and
// location, status moves (whose own rule is Status.CanMoveTo), archiving
// and copying work in every status; each edit says which it is when it
// registers (registerKind). The desktop asks it to make fields read-only.
func (op Operation) LockedIn(s Status) bool {
	return operations[op].lockable && s.Locked()
}

// checkEditable is the ProposalLocked rule.
func checkEditable(p *Proposal) error {
	if p.Status.Locked() {
		return Errorf(KindProposalLocked, "proposal %d is %s and can no longer be edited", p.Number, p.Status)
	}
	return nil
}

// transitions are the contract's status moves ("Status moves" in
// contract.md): Accepted and Declined reopen to Draft.
var transitions = map[Status][]Status{
	StatusUndefined:      {StatusDraft},
	StatusDraft:          {StatusSubmitted},
	StatusSubmitted:      {StatusDraft, StatusAccepted, StatusDeclined},
	StatusViewedByClient: {StatusDraft, StatusAccepted, StatusDeclined},
	StatusDelayed:        {StatusDraft, StatusAccepted, StatusDeclined},
	StatusExpired:        {StatusDraft, StatusAccepted, StatusDeclined},
	StatusEmailFailed:    {StatusDraft},
	StatusAccepted:       {StatusCompleted, StatusDraft},
	StatusDeclined:       {StatusDraft},
}

// NextStatuses lists the statuses a proposal may move to from s.
func (s Status) NextStatuses() []Status { return append([]Status(nil), transitions[s]...) }

// CanMoveTo reports whether the move from s to next is allowed.
func (s Status) CanMoveTo(next Status) bool {
	for _, t := range transitions[s] {
		if t == next {
			return true
		}
	}
	return false
}

// Field limits of the contract.
const (
	MaxNameLength     = 200
	MaxTextLength     = 100_000
	MaxUserNameLength = 256
	MaxOptionsPerArea = 3
)

// CheckName validates a name field: 1 to 200 characters, not only spaces.
func CheckName(field, s string) error {
	if err := CheckChars(field, s); err != nil {
		return err
	}
	if strings.TrimSpace(s) == "" {
		return Invalid(field, "is required")
	}
	if n := utf8.RuneCountInString(s); n > MaxNameLength {
		return Invalid(field, "is %d characters long; the limit is %d", n, MaxNameLength)
	}
	return nil
}

// CheckText validates a description or notes field (empty clears it).
func CheckText(field, s string) error {
	if err := CheckChars(field, s); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(s); n > MaxTextLength {
		return Invalid(field, "is %d characters long; the limit is %d", n, MaxTextLength)
	}
	return nil
}

// SameAreaName is the uniqueness comparison for area names: case-folded
// and with surrounding spaces trimmed, so "Kitchen" and " kitchen" clash.
func SameAreaName(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// checkAreaNameFree is the AreaNameTaken rule.
func checkAreaNameFree(d *Document, name string) error {
	for _, a := range d.Areas {
		if SameAreaName(a.Name, name) {
			return Errorf(KindAreaNameTaken, "an area named %q already exists in this proposal", a.Name)
		}
	}
	return nil
}

// CanAddOption is the OptionLimitReached rule: nil when the area has room
// for another option. The desktop asks it to grey out "Add option".
func CanAddOption(a *Area) error {
	if len(a.Options) >= MaxOptionsPerArea {
		return Errorf(KindOptionLimitReached, "area %q already has the maximum of %d options", a.Name, MaxOptionsPerArea)
	}
	return nil
}

// Operation names an API operation for the rules that depend on which
// one it is: the permission it needs and whether it needs an active
// subscription.
type Operation string

const (
	OpListProposals    Operation = "ListProposals"
	OpGetProposal      Operation = "GetProposal"
	OpGetChangeOrder   Operation = "GetChangeOrder"
	OpListChangeOrders Operation = "ListChangeOrders"
	OpKeyExchange      Operation = "KeyExchange"
	OpListPeople       Operation = "ListPeople"
	OpGetPerson        Operation = "GetPerson"
	OpCreatePerson     Operation = "CreatePerson"
	OpListLocations    Operation = "ListLocations"
	OpCreateLocation   Operation = "CreateLocation"
	OpListUsers        Operation = "ListUsers"
	OpChanges          Operation = "Changes"
	OpExport           Operation = "Export"
	OpListItems        Operation = "ListItems"
)

// opRule is what an operation requires: a permission, an active
// subscription, and an editable proposal (not Accepted, Declined or
// Completed).
type opRule struct {
	perm         Permission
	subscription bool
	lockable     bool
}

// operations holds the rules of the operations that are not edits of a
// proposal; each edit adds its own when it registers (registerKind).
// The spec exempts get proposal, get change order and the key exchange
// from the subscription; of the extensions, reads are exempt too, so a
// lapsed dealer can still open and sync what they have, and writes are
// not.
var operations = map[Operation]opRule{
	OpListProposals:    {perm: PermViewProposals, subscription: true},
	OpGetProposal:      {perm: PermViewProposals},
	OpGetChangeOrder:   {perm: PermViewProposals},
	OpListChangeOrders: {perm: PermViewProposals, subscription: true},
	OpKeyExchange:      {perm: PermViewProposals},
	OpListPeople:       {perm: PermViewProposals},
	OpGetPerson:        {perm: PermViewProposals},
	OpCreatePerson:     {perm: PermEditProposals, subscription: true},
	OpListLocations:    {perm: PermViewProposals},
	OpCreateLocation:   {perm: PermEditProposals, subscription: true},
	OpListUsers:        {perm: PermViewProposals},
	OpChanges:          {perm: PermViewProposals},
	OpSyncProposals:    {perm: PermViewProposals},
	OpExport:           {perm: PermExport},
	OpListItems:        {perm: PermViewProposals},
	// The catalog: a laptop keeps its offline copy with a lapsed
	// subscription; the search (Portal's route, like the proposal list)
	// and the import (a write) need one.
	OpListCatalog:    {perm: PermViewProposals, subscription: true},
	OpGetCatalogItem: {perm: PermViewProposals},
	OpCatalogChanges: {perm: PermViewProposals},
	OpImportCatalog:  {perm: PermManageCatalog, subscription: true},
	// The people feed, like the other feeds, works without a subscription.
	OpPeopleChanges: {perm: PermViewProposals},
}

// NeedsSubscription reports whether the operation is refused while the
// dealer's subscription is inactive.
func (op Operation) NeedsSubscription() bool { return operations[op].subscription }

// Permission is what the operation requires of the caller's role.
func (op Operation) Permission() Permission {
	if r, ok := operations[op]; ok {
		return r.perm
	}
	return PermViewProposals
}

// CheckItem keeps an item's figures inside the range the financial rules
// compute exactly: a price and cost of at most MaxPrice either way, a
// quantity from 0 to MaxQuantity, a line of at most MaxLineTotal.
func CheckItem(it *Item) error {
	if it.Quantity < 0 || it.Quantity > MaxQuantity {
		return Invalid("quantity", "must be from 0 to %s", MaxQuantity)
	}
	for field, v := range map[string]Money{"sellPrice": it.SellPrice, "msrp": it.MSRP} {
		if v > MaxPrice || v < -MaxPrice {
			return Invalid(field, "must be within ±%s", MaxPrice)
		}
	}
	if it.Cost != nil && (*it.Cost > MaxPrice || *it.Cost < -MaxPrice) {
		return Invalid("cost", "must be within ±%s", MaxPrice)
	}
	if line := it.LineTotal(); line > MaxLineTotal || line < -MaxLineTotal {
		return Invalid("quantity", "price times quantity exceeds %s", MaxLineTotal)
	}
	if _, err := parseEnum("itemType", string(it.ItemType), ItemTypes); err != nil {
		return Invalid("itemType", "%v", err)
	}
	return nil
}
