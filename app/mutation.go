package app

import (
	"encoding/json"
	"fmt"
	"time"
)

// A Mutation is one write to a proposal, as data. The server applies a
// mutation decoded from a request; the desktop applies the same value to
// its local view and queues it for the server. Both call Apply, so both
// reach the same verdict.
//
// A mutation also describes itself to every layer (see edit.go), so a
// new kind of edit is one file in this package: the compiler asks for
// each of these methods, and a test walks every registered kind.
type Mutation interface {
	// Kind names the mutation in its JSON envelope.
	Kind() MutationKind
	// Operation is the API operation the mutation performs.
	Operation() Operation
	// ProposalID is the proposal written to; 0 for a create.
	ProposalID() int64
	// Validate checks the mutation's own fields, before any state is read.
	Validate() error
	// Route is where the API receives the edit.
	Route() Route
	// Params binds the request's path IDs and body fields to this
	// value's fields: the server decodes through them, the client
	// encodes from them, and ID remapping rewrites them.
	Params() []Param
	// Creates are the IDs of what the edit brings into being, when
	// applied to p (the proposal it reads; nil when not known, which
	// gives the IDs the edit already holds).
	Creates(p *Proposal) []NewID
	// Writes are the conflict-checked fields the edit changes.
	Writes() []Field
	// Describe says what the edit does, in words for people.
	Describe() string

	apply(p *Proposal, env *Env) error
}

// Directory looks up the account's users, contacts and locations. The
// server answers from its store inside the write's transaction; the
// desktop from its local cache. found is false when the account has no
// such record; err is a failure to read (a database that timed out),
// which the rules pass on as it is, never as "not found": the client
// retries the one and records the other as a refusal.
type Directory interface {
	User(id int64) (u User, found bool, err error)
	Contact(id int64) (c Contact, found bool, err error)
	Location(id int64) (l ContactLocation, found bool, err error)
	ContactLocations(contactID int64) ([]ContactLocation, error)
}

// Account is what a mutation needs to know about the dealer's account.
type Account struct {
	Dealer   DealerProfile
	Currency Currency
	Taxes    TaxTable
	// Terms is the default projectTerms of a new proposal.
	Terms string
}

// Env is everything a mutation may read beyond the proposal: the clock,
// the acting user, the directory and an ID source. Callers pass it in, so
// Apply itself does no I/O and reads no clock.
type Env struct {
	Now       time.Time
	Actor     User
	Account   Account
	Directory Directory
	// Catalog is the account's catalog (items added from it).
	Catalog Catalog
	// NewID allocates an ID for an area, option or proposal.
	NewID func() int64
	// NextNumber allocates a proposal number (the human-facing one).
	NextNumber func() int64
}

// Apply applies m to p and returns the new state; p itself is never
// changed. p is nil for a create. Errors are *Error values of the kinds
// the API's error table names for that operation.
func Apply(p *Proposal, m Mutation, env Env) (*Proposal, error) {
	if err := admit(m, env); err != nil {
		return nil, err
	}
	var next *Proposal
	if m.ProposalID() == 0 {
		next = &Proposal{}
	} else {
		if p == nil || p.ID != m.ProposalID() {
			return nil, Errorf(KindNotFound, "proposal %d not found", m.ProposalID())
		}
		next = p.Clone()
	}
	if err := m.apply(next, &env); err != nil {
		return nil, err
	}
	if err := checkProposalSize(p, next); err != nil {
		return nil, err
	}
	stamp(next, m, env)
	return next, nil
}

// ApplyInPlace is Apply changing p itself, for a caller that owns p and
// applies edits one after another: the laptop replaying its queue on a
// 500-item proposal spent most of its time copying it for each edit
// (BenchmarkPushItems500). On an error p may be left half changed, so
// the caller must keep a way back to where it was. Unlike Apply it
// refuses every edit that leaves p past MaxProposalBytes, even one that
// shrinks a proposal stored past it (it no longer has p as it was, to
// compare): a caller that must take such an edit applies it with Apply
// after a refusal, as localstore's replay does. m is not a create.
func ApplyInPlace(p *Proposal, m Mutation, env Env) error {
	if m.ProposalID() == 0 {
		return fmt.Errorf("app: ApplyInPlace of a create (%s)", m.Operation())
	}
	if p == nil || p.ID != m.ProposalID() {
		return Errorf(KindNotFound, "proposal %d not found", m.ProposalID())
	}
	if err := admit(m, env); err != nil {
		return err
	}
	if err := m.apply(p, &env); err != nil {
		return err
	}
	if err := checkProposalSize(nil, p); err != nil {
		return err
	}
	stamp(p, m, env)
	return nil
}

// admit is what Apply checks before it looks at the proposal: the
// actor's permission and the edit's own values.
func admit(m Mutation, env Env) error {
	if err := Require(env.Actor, m.Operation().Permission()); err != nil {
		return err
	}
	if err := namesSomething(m); err != nil {
		return err
	}
	if err := CheckParams(BodyParams(m)); err != nil {
		return err
	}
	return m.Validate()
}

// stamp moves next's version on and records who changed it and when,
// and the version of each field m wrote.
func stamp(next *Proposal, m Mutation, env Env) {
	now := At(env.Now)
	next.Version++
	for _, f := range m.Writes() {
		if fieldOfKnownPart(f) {
			if next.FieldVersions == nil {
				next.FieldVersions = map[Field]int64{}
			}
			next.FieldVersions[f] = next.Version
		}
	}
	next.LastModifiedDate = now
	next.LastModifiedByUserDate = now
	next.LastModifiedUser = PersonName{FirstName: env.Actor.FirstName, LastName: env.Actor.LastName}
}

// namesSomething refuses an edit of proposal 0: no proposal has that
// ID, and an edit naming it would otherwise read as a create (Apply
// starts a create from nothing). A screen that lost track of what it
// shows must get a refusal it can show, not a phantom proposal and an
// edit that can never be sent.
func namesSomething(m Mutation) error {
	for _, p := range PathParams(m) {
		if id, ok := p.idTarget(); ok && *id == 0 && p.Name == "ProposalId" {
			return Errorf(KindNotFound, "proposal 0 does not exist: nothing to change")
		}
	}
	return nil
}

// MutationKind is the stable name of a mutation type in its encoding.
// Each kind's file declares its constant and registers its constructor.
type MutationKind string

type mutationEnvelope struct {
	Kind     MutationKind    `json:"kind"`
	Mutation json.RawMessage `json:"mutation"`
}

// EncodeMutation is the stable JSON form of m: {"kind":…,"mutation":{…}}.
func EncodeMutation(m Mutation) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", m.Kind(), err)
	}
	return json.Marshal(mutationEnvelope{Kind: m.Kind(), Mutation: body})
}

// DecodeMutation reads what EncodeMutation wrote.
func DecodeMutation(data []byte) (Mutation, error) {
	var env mutationEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("decode mutation: %w", err)
	}
	m, ok := NewMutation(env.Kind)
	if !ok {
		return nil, fmt.Errorf("decode mutation: unknown kind %q", env.Kind)
	}
	if err := json.Unmarshal(env.Mutation, m); err != nil {
		return nil, fmt.Errorf("decode %s: %w", env.Kind, err)
	}
	return m, nil
}

// salesperson finds a user of the account who can be a proposal's
// salesperson.
func salesperson(env *Env, id int64) (Salesperson, error) {
	if env.Directory != nil {
		u, ok, err := env.Directory.User(id)
		if err != nil {
			return Salesperson{}, fmt.Errorf("salesperson %d: %w", id, err)
		}
		if ok {
			return u.Salesperson(), nil
		}
	}
	return Salesperson{}, Errorf(KindNotFound, "salesperson %d not found in this account", id)
}

func newID(env *Env, preset int64) int64 {
	if preset != 0 {
		return preset
	}
	return env.NewID()
}

// IsTemporaryID reports whether id was given by the desktop to something
// created offline, before the server assigned its real ID.
func IsTemporaryID(id int64) bool { return id < 0 }

// DefaultProposalName is the name a proposal created without one gets.
func DefaultProposalName(number int64) string {
	if number <= 0 {
		return "New proposal"
	}
	return fmt.Sprintf("Proposal %d", number)
}
