package app

// CopyProposal makes a new Draft proposal with the same areas, options
// and items as proposal ID (new IDs throughout), with no customer and no
// change orders. Applied to the source, it gives the copy.
//
// NewIDs are set only by the desktop: the temporary IDs of the copy, its
// areas, options and items, in that order of a walk of the source, so
// that a copy made offline can be edited before it is sent and every ID
// is remapped when the server answers.
type CopyProposal struct {
	ID     int64   `json:"proposalId"`
	Name   *string `json:"name,omitempty"`
	NewIDs []int64 `json:"newIds,omitempty"`
}

const KindCopyProposal MutationKind = "copyProposal"
const OpCopyProposal Operation = "CopyProposal"

func init() {
	registerKind(func() Mutation { return &CopyProposal{} }, allowedWhenLocked)
}

func (m *CopyProposal) Kind() MutationKind   { return KindCopyProposal }
func (m *CopyProposal) Operation() Operation { return OpCopyProposal }
func (m *CopyProposal) ProposalID() int64    { return m.ID }

func (m *CopyProposal) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/copy",
		Extension: true, Name: "copyProposal", Summary: "Copy a proposal (extension)",
		Doc: "Makes a new Draft proposal with the same areas, options and items (new IDs), no customer, no change orders, not archived; named Name, or \"Copy of <name>\". Works in every status. Answers 200 with the new proposal's detail."}
}

func (m *CopyProposal) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("Name", &m.Name, "The copy's name; blank means \"Copy of <name>\".").Max(MaxNameLength).BlankIsAbsent(),
	}
}

// Creates has a slot per ID of the copy; given the source it makes room
// for all of them.
func (m *CopyProposal) Creates(src *Proposal) []NewID {
	if src != nil {
		n := 1
		for _, a := range src.Areas {
			n++
			for _, o := range a.Options {
				n += 1 + len(o.Items)
			}
		}
		for len(m.NewIDs) < n {
			m.NewIDs = append(m.NewIDs, 0)
		}
	}
	out := make([]NewID, len(m.NewIDs))
	for i := range m.NewIDs {
		out[i] = NewID{ID: &m.NewIDs[i], Find: func(_, after *Proposal) (int64, bool) {
			ids := walkIDs(after)
			if i >= len(ids) {
				return 0, false
			}
			return ids[i], true
		}}
	}
	return out
}

// walkIDs are a proposal's ID, then each area's, each of its options' and
// each of their items', in order.
func walkIDs(p *Proposal) []int64 {
	ids := []int64{p.ID}
	for _, a := range p.Areas {
		ids = append(ids, a.ID)
		for _, o := range a.Options {
			ids = append(ids, o.ID)
			for _, it := range o.Items {
				ids = append(ids, it.ID)
			}
		}
	}
	return ids
}

func (m *CopyProposal) Writes() []Field  { return []Field{FieldName} }
func (m *CopyProposal) Describe() string { return "Copy the proposal" }

func (m *CopyProposal) Validate() error {
	if m.Name != nil {
		return CheckName("Name", *m.Name)
	}
	return nil
}

func (m *CopyProposal) apply(p *Proposal, env *Env) error {
	k := 0
	take := func() int64 {
		var preset int64
		if k < len(m.NewIDs) {
			preset = m.NewIDs[k]
		}
		k++
		return newID(env, preset)
	}
	now := At(env.Now)
	name := "Copy of " + p.Name
	if r := []rune(name); len(r) > MaxNameLength {
		name = string(r[:MaxNameLength])
	}
	if m.Name != nil {
		name = *m.Name
	}
	p.ID = take()
	if env.NextNumber != nil {
		p.Number = env.NextNumber()
	}
	p.Name = name
	p.Version = 0
	p.FieldVersions = nil
	p.Status = StatusDraft
	p.Archived = false
	p.Customer = nil
	// Tax follows the customer's location, which a copy has not.
	p.Tax = TaxSettings{Status: TaxUndefined, Method: p.Tax.Method, ApplyTo: p.Tax.ApplyTo}
	p.CreatedDate = now
	p.LastSubmittedDate, p.ClientLastDecisionDate, p.LastCompletedDate = Time{}, Time{}, Time{}
	p.ChangeOrders = []ChangeOrder{}
	p.PaymentRequests = []PaymentRequest{}
	for a := range p.Areas {
		area := &p.Areas[a]
		area.ID = take()
		for o := range area.Options {
			opt := &area.Options[o]
			opt.ID = take()
			parents := map[int64]int64{}
			for i := range opt.Items {
				it := &opt.Items[i]
				old := it.ID
				it.ID = take()
				parents[old] = it.ID
				it.CreatedDate, it.LastModifiedDate = now, now
			}
			for i := range opt.Items {
				if it := &opt.Items[i]; it.ParentID != 0 {
					it.ParentID = parents[it.ParentID]
				}
			}
		}
	}
	return nil
}
