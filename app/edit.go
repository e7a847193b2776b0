package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// What every layer needs to know about a kind of edit is said once, by
// the Mutation itself (see the interface in mutation.go): its API route,
// the request values bound to its fields, the IDs it creates, the
// conflict-checked fields it writes, and its words for people. The
// server registers its routes from it, the sync client sends from it,
// the desktop detects conflicts, remaps temporary IDs and describes the
// outbox from it. A kind is one file in this package that registers its
// constructor with registerKind.

// Route is where an edit is sent.
type Route struct {
	// Method is the HTTP method (POST).
	Method string
	// Path is the path template with Portal's parameter names:
	// "/public/proposals/{ProposalId}/area/{AreaId}/option". Each
	// {Name} is a Param of the mutation with In == InPath.
	Path string
	// NoContent: the server answers 204 with no body (assign contact).
	NoContent bool
	// Extension marks routes beyond the spec's 15 operations
	// (x-extension in the OpenAPI document).
	Extension bool
	// BodyRepeatsPath: the body may repeat the path's IDs under the
	// same names, and must then agree with the path (ops 13 and 14).
	BodyRepeatsPath bool
	// Name is the operation's ID in the API documentation
	// ("createArea"); Summary its one line, Doc its description.
	Name, Summary, Doc string
}

// Pattern is the route as a net/http ServeMux pattern.
func (r Route) Pattern() string { return r.Method + " " + r.Path }

// ParamIn says where a request value travels.
type ParamIn int

const (
	InPath ParamIn = iota
	InBody
)

// ParamType is the wire type of a request value.
type ParamType int

const (
	// ParamID is a positive whole number (a JSON number or numeric
	// string; in a path, digits).
	ParamID ParamType = iota
	// ParamText is a string.
	ParamText
	// ParamBool is true or false.
	ParamBool
	// ParamEnum is a string from Param.Enum, matched in any letter case.
	ParamEnum
	// ParamMoney is an amount with at most the currency's minor unit of
	// decimals (a JSON number, or its text); more is refused, never
	// rounded.
	ParamMoney
	// ParamQuantity is a quantity with at most 4 decimals.
	ParamQuantity
	// ParamPercent is a percentage with at most 4 decimals.
	ParamPercent
	// ParamInt is a whole number of 0 or more that is not an ID (a
	// position).
	ParamInt
	// ParamChoices is a list of {AreaId, AreaOptionId}: the option
	// chosen in each area (an in-person acceptance's Options).
	ParamChoices
)

// A Param is one value of an edit's request, bound to a field of the
// mutation value it came from: Set writes the field, Value reads it.
type Param struct {
	// Name is the contract's name: "ProposalId", "ClientDescription".
	Name string
	In   ParamIn
	Type ParamType
	// Required: a body field that must be present; absent is 400.
	Required bool
	// OmitBlank: an empty or all-space text counts as absent (create
	// proposal's Name).
	OmitBlank bool
	// ZeroID: a body ID that may be 0, meaning "none" (an item's
	// ParentId: 0 un-nests it).
	ZeroID bool
	// Enum lists the values of a ParamEnum.
	Enum []string
	// MinLength and MaxLength bound a text in characters. A MinLength
	// of 1 also refuses a text of only spaces (a name).
	MinLength, MaxLength int
	// Bounds is a number's range, in the type's smallest unit (cents,
	// ten-thousandths); nil for none.
	Bounds *Bounds
	// Format names a text's form for the API documentation ("email");
	// the rules that own the value check it.
	Format string
	// Doc describes the value for the API documentation.
	Doc string

	target any // *int64, **int64, *string, **string, *bool, **bool, or a pointer to a string enum
}

// The constructors bind a param to a mutation's field.

// PathID binds a path ID.
func PathID(name string, target *int64) Param {
	return Param{Name: name, In: InPath, Type: ParamID, target: target}
}

// BodyID binds a body ID; target is *int64, or **int64 for an optional
// one.
func BodyID[T *int64 | **int64](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamID, Doc: doc, target: target}
}

// BodyText binds a text field; target is *string, or **string for an
// optional one.
func BodyText[T *string | **string](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamText, Doc: doc, target: target}
}

// BodyMoney binds an amount; target is *Money, or **Money for an
// optional one.
func BodyMoney[T *Money | **Money](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamMoney, Doc: doc, target: target}
}

// BodyQuantity binds a quantity (*Quantity or **Quantity).
func BodyQuantity[T *Quantity | **Quantity](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamQuantity, Doc: doc, target: target}
}

// BodyPercent binds a percentage (*Rate or **Rate).
func BodyPercent[T *Rate | **Rate](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamPercent, Doc: doc, target: target}
}

// BodyInt binds a whole number of 0 or more (*int64 or **int64).
func BodyInt[T *int64 | **int64](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamInt, ZeroID: true, Doc: doc, target: target}
}

// BodyBool binds a flag (*bool, or **bool for an optional one).
func BodyBool[T *bool | **bool](name string, target T, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamBool, Doc: doc, target: target}
}

// BodyEnum binds a field of a string enumeration.
// target is *E, or **E for an optional one.
func BodyEnum[E ~string, T *E | **E](name string, target T, values []E, doc string) Param {
	enum := make([]string, len(values))
	for i, v := range values {
		enum[i] = string(v)
	}
	return Param{Name: name, In: InBody, Type: ParamEnum, Enum: enum, Doc: doc, target: target}
}

// BodyChoices binds a list of chosen options; nil is absent.
func BodyChoices(name string, target *[]OptionChoice, doc string) Param {
	return Param{Name: name, In: InBody, Type: ParamChoices, Doc: doc, target: target}
}

// Max records a text's length limit.
func (p Param) Max(n int) Param { p.MaxLength = n; return p }

// As records a text's form for the API documentation.
func (p Param) As(format string) Param { p.Format = format; return p }

// NonBlank records that a text holds at least one character that is not
// a space.
func (p Param) NonBlank() Param { p.MinLength = 1; return p }

// Within records a number's range, both ends allowed, in the type's
// smallest unit.
func (p Param) Within(lo, hi int64) Param { p.Bounds = &Bounds{Min: lo, Max: hi}; return p }

// Above records a number's range whose lower end is refused (a quantity
// is more than 0).
func (p Param) Above(lo, hi int64) Param {
	p.Bounds = &Bounds{Min: lo, Max: hi, MinExclusive: true}
	return p
}

// AllowZero lets a body ID be 0 ("none").
func (p Param) AllowZero() Param { p.ZeroID = true; return p }

// Require marks a body param as required.
func (p Param) Require() Param { p.Required = true; return p }

// BlankIsAbsent marks a text param whose blank value means "not given".
func (p Param) BlankIsAbsent() Param { p.OmitBlank = true; return p }

// Optional reports whether the field may be left out of the body: an
// optional field of the mutation (a nil pointer) or one not Required.
func (p Param) Optional() bool { return !p.Required }

// Value reads the bound field: a string, an int64 or a bool; ok is false
// for an optional field that is not set.
func (p Param) Value() (v any, ok bool) {
	switch t := p.target.(type) {
	case *int64:
		return *t, true
	case **int64:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *string:
		return *t, true
	case **string:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *bool:
		return *t, true
	case **bool:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *Money:
		return *t, true
	case **Money:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *Quantity:
		return *t, true
	case **Quantity:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *Rate:
		return *t, true
	case **Rate:
		if *t == nil {
			return nil, false
		}
		return **t, true
	case *[]OptionChoice:
		if *t == nil {
			return nil, false
		}
		return *t, true
	}
	if s, set, ok := enumValue(p.target); ok {
		return s, set
	}
	panic(fmt.Sprintf("bug: param %s has an unsupported target %T", p.Name, p.target))
}

// Set writes v (a string, an int64 or a bool, as the wire decoded it;
// for amounts, quantities and percentages the number's decimal text)
// into the bound field.
func (p Param) Set(v any) error {
	bad := func() error { return Invalid(p.Name, "has the wrong type") }
	switch p.Type {
	case ParamMoney, ParamQuantity, ParamPercent:
		return p.setNumber(v)
	}
	switch t := p.target.(type) {
	case *int64:
		n, ok := v.(int64)
		if !ok {
			return bad()
		}
		*t = n
	case **int64:
		n, ok := v.(int64)
		if !ok {
			return bad()
		}
		*t = &n
	case *string:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		*t = s
	case **string:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		*t = &s
	case *bool:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		*t = b
	case **bool:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		*t = &b
	case *[]OptionChoice:
		switch c := v.(type) {
		case []OptionChoice:
			*t = c
		case json.RawMessage: // as the wire has it
			return parseChoices(p.Name, c, t)
		default:
			return bad()
		}
	default:
		s, ok := v.(string)
		if !ok || !setEnum(p.target, s) {
			return bad()
		}
	}
	return nil
}

// setNumber parses a decimal into a Money, Quantity or Rate field: more
// decimals than the type holds is an error, never a rounding.
func (p Param) setNumber(v any) error {
	text, ok := v.(string)
	if !ok {
		return Invalid(p.Name, "must be a number")
	}
	var err error
	switch t := p.target.(type) {
	case *Money:
		err = parseInto(t, text, ParseMoney)
	case **Money:
		err = parseIntoPtr(t, text, ParseMoney)
	case *Quantity:
		err = parseInto(t, text, ParseQuantity)
	case **Quantity:
		err = parseIntoPtr(t, text, ParseQuantity)
	case *Rate:
		err = parseInto(t, text, ParseRate)
	case **Rate:
		err = parseIntoPtr(t, text, ParseRate)
	default:
		panic(fmt.Sprintf("bug: param %s has an unsupported target %T", p.Name, p.target))
	}
	switch {
	case err == nil:
		return nil
	case strings.TrimSpace(text) == "":
		return Invalid(p.Name, "is empty; give a number or leave the field out")
	case errors.Is(err, errExponent):
		return Invalid(p.Name, "is written with an exponent (%s); exponents are not accepted, write the number in full", text)
	}
	return Invalid(p.Name, "must be a number with at most %d decimal places", p.Places())
}

// parseInto and parseIntoPtr write a parsed value only when it parses.
func parseInto[T any](dst *T, text string, parse func(string) (T, error)) error {
	v, err := parse(text)
	if err == nil {
		*dst = v
	}
	return err
}

func parseIntoPtr[T any](dst **T, text string, parse func(string) (T, error)) error {
	v, err := parse(text)
	if err == nil {
		*dst = &v
	}
	return err
}

// idTarget is the ID the param binds, if it is a set ID.
func (p Param) idTarget() (*int64, bool) {
	if p.Type != ParamID {
		return nil, false
	}
	switch t := p.target.(type) {
	case *int64:
		return t, true
	case **int64:
		if *t != nil {
			return *t, true
		}
	}
	return nil, false
}

// refTargets are the IDs a param names: its one ID, or each area and
// option of a list of chosen options (an acceptance taken offline may
// choose an option made offline too, so its IDs are remapped and waited
// for like any other).
func (p Param) refTargets() []*int64 {
	if id, ok := p.idTarget(); ok {
		return []*int64{id}
	}
	t, ok := p.target.(*[]OptionChoice)
	if p.Type != ParamChoices || !ok {
		return nil
	}
	out := make([]*int64, 0, 2*len(*t))
	for i := range *t {
		out = append(out, &(*t)[i].AreaID, &(*t)[i].OptionID)
	}
	return out
}

// A NewID is an ID an edit gives to something it creates. The desktop
// fills it with a temporary (negative) ID so that later offline edits
// can refer to it; the server allocates its own and never sees it. Find
// locates the real ID in the server's copy after the edit, given the
// copy before it (nil for a new proposal).
type NewID struct {
	ID   *int64
	Find func(before, after *Proposal) (int64, bool)
}

// The registry of kinds: every kind's file registers its constructor
// and its operation's rule. Every edit needs the EditProposals
// permission and an active subscription; locks says whether a locked
// proposal (Accepted, Declined, Completed) refuses it.
var kinds = map[MutationKind]func() Mutation{}

// Whether an edit is refused on a locked proposal.
const (
	refusedWhenLocked = true
	allowedWhenLocked = false
)

func registerKind(newM func() Mutation, locks bool) {
	m := newM()
	k, op := m.Kind(), m.Operation()
	if _, dup := kinds[k]; dup {
		panic("bug: mutation kind " + string(k) + " registered twice")
	}
	if _, dup := operations[op]; dup {
		panic("bug: operation " + string(op) + " registered twice")
	}
	kinds[k] = newM
	operations[op] = opRule{perm: PermEditProposals, subscription: true, lockable: locks}
}

// MutationKinds lists every registered kind, sorted.
func MutationKinds() []MutationKind {
	out := make([]MutationKind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// NewMutation is a zero mutation of the kind, to decode a request or an
// outbox entry into.
func NewMutation(k MutationKind) (Mutation, bool) {
	newM, ok := kinds[k]
	if !ok {
		return nil, false
	}
	return newM(), true
}

// RefIDs are the IDs the edit refers to (its ID params that are set):
// what must exist on the server before it is sent.
func RefIDs(m Mutation) []int64 {
	var out []int64
	for _, p := range m.Params() {
		for _, id := range p.refTargets() {
			out = append(out, *id)
		}
	}
	return out
}

// CreatedIDs are the IDs the edit gives to what it creates.
func CreatedIDs(m Mutation) []int64 {
	var out []int64
	for _, n := range m.Creates(nil) {
		out = append(out, *n.ID)
	}
	return out
}

// HasTemporaryRefs reports whether the edit refers to something that
// exists only on this computer so far.
func HasTemporaryRefs(m Mutation) bool {
	return slices.ContainsFunc(RefIDs(m), IsTemporaryID)
}

// FillNewIDs gives every unset created ID of m, applied to p, a value
// from next.
func FillNewIDs(m Mutation, p *Proposal, next func() (int64, error)) error {
	for _, n := range m.Creates(p) {
		if *n.ID != 0 {
			continue
		}
		id, err := next()
		if err != nil {
			return err
		}
		*n.ID = id
	}
	return nil
}

// RemapID replaces every ID of m equal to from (referred to or created)
// with to, and reports whether any was.
func RemapID(m Mutation, from, to int64) bool {
	changed := false
	swap := func(id *int64) {
		if *id == from {
			*id, changed = to, true
		}
	}
	for _, p := range m.Params() {
		for _, id := range p.refTargets() {
			swap(id)
		}
	}
	for _, n := range m.Creates(nil) {
		swap(n.ID)
	}
	if r, ok := m.(sourceRefs); ok {
		for _, id := range r.sources() {
			swap(id)
		}
	}
	return changed
}

// sourceRefs is an edit that also names parts it reads without sending
// them (a copy's SourceIDs): remapped like its other IDs.
type sourceRefs interface {
	sources() []*int64
}

// SetProposalID points an edit of an existing proposal at proposal id.
func SetProposalID(m Mutation, id int64) bool {
	for _, p := range m.Params() {
		if p.Name == "ProposalId" && p.In == InPath {
			*p.target.(*int64) = id
			return true
		}
	}
	return false
}

// FoundIDs works out the real IDs of what an acknowledged edit created,
// from the server's copy before it (nil for a new proposal) and after.
// Temporary IDs it cannot place are left out.
func FoundIDs(m Mutation, before, after *Proposal) map[int64]int64 {
	out := map[int64]int64{}
	for _, n := range m.Creates(nil) {
		if !IsTemporaryID(*n.ID) || after == nil {
			continue
		}
		if id, ok := n.Find(before, after); ok {
			out[*n.ID] = id
		}
	}
	return out
}

// BodyParams are the params of m that travel in the request body.
func BodyParams(m Mutation) []Param {
	var out []Param
	for _, p := range m.Params() {
		if p.In == InBody {
			out = append(out, p)
		}
	}
	return out
}

// PathParams are the params of m that travel in the path, in the order
// they appear in it.
func PathParams(m Mutation) []Param {
	var out []Param
	for _, p := range m.Params() {
		if p.In == InPath {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		path := m.Route().Path
		return strings.Index(path, "{"+out[i].Name+"}") < strings.Index(path, "{"+out[j].Name+"}")
	})
	return out
}

// Text is the one text an edit carries, when it carries exactly one
// value and that is a text (a rename, a description): the desktop lets
// the user correct a refused edit of that kind.
func Text(m Mutation) (text string, set func(string), ok bool) {
	var found *Param
	for _, p := range BodyParams(m) {
		if _, given := p.Value(); !given {
			continue
		}
		if found != nil || p.Type != ParamText {
			return "", nil, false
		}
		found = &p
	}
	if found == nil {
		return "", nil, false
	}
	v, _ := found.Value()
	p := *found
	return v.(string), func(s string) { p.Set(s) }, true
}

// Copy returns an independent copy of m.
func Copy(m Mutation) (Mutation, error) {
	raw, err := EncodeMutation(m)
	if err != nil {
		return nil, err
	}
	return DecodeMutation(raw)
}
