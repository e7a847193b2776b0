package app

// CopyProposal makes a new Draft proposal with the same areas, options
// and items as proposal ID (new IDs throughout), the same customer and
// location unless ContactID says otherwise, and no change orders.
// Applied to the source, it gives the copy.
//
// NewIDs and SourceIDs are set only by the desktop, side by side: the
// temporary ID of the copy and of each of its areas, options and items,
// beside the ID of the source part it copies. A copy made offline can so
// be edited before it is sent: replayed on a source that changed since,
// each part keeps its temporary ID; a part added here after the copy was
// made is not in it, one the server has is (the server will copy it
// too). The server never sees them: it copies
// its own source and answers which source part each new ID copies
// (ProposalDetail.CopiedFrom), so the desktop replaces each temporary ID
// by the server's copy of the same source part, never by position.
type CopyProposal struct {
	ID        int64   `json:"proposalId"`
	Name      *string `json:"name,omitempty"`
	ContactID *int64  `json:"contactId,omitempty"`
	NewIDs    []int64 `json:"newIds,omitempty"`
	SourceIDs []int64 `json:"sourceIds,omitempty"`

	// copied is what the last apply made: new ID → source ID.
	copied map[int64]int64
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
		BodyID("ContactId", &m.ContactID, "The copy's customer: another contact of the account, or 0 for none. Absent: the source's customer and location.").AllowZero(),
	}
}

// Creates has a slot per part of the copy. Given the source, it makes
// one for each of the source's parts, in the order of a walk of it
// (walkIDs): the copy itself, then each area, its options and their
// items.
func (m *CopyProposal) Creates(src *Proposal) []NewID {
	if src != nil && len(m.NewIDs) == 0 {
		m.SourceIDs = walkIDs(src)
		m.NewIDs = make([]int64, len(m.SourceIDs))
	}
	// by source ID: the server's new ID of each source part, from its
	// answer (built once for all slots).
	var bySource map[int64]int64
	out := make([]NewID, len(m.NewIDs))
	for i := range m.NewIDs {
		out[i] = NewID{ID: &m.NewIDs[i], Find: func(_, after *Proposal) (int64, bool) {
			if len(m.SourceIDs) != len(m.NewIDs) {
				// Queued before copies said what they copied: by position.
				ids := walkIDs(after)
				if i >= len(ids) {
					return 0, false
				}
				return ids[i], true
			}
			if i == 0 {
				return after.ID, true
			}
			if bySource == nil {
				bySource = make(map[int64]int64, len(after.CopiedFrom))
				for to, from := range after.CopiedFrom {
					bySource[from] = to
				}
			}
			id, ok := bySource[m.SourceIDs[i]]
			return id, ok
		}}
	}
	return out
}

func (m *CopyProposal) sources() []*int64 {
	out := make([]*int64, len(m.SourceIDs))
	for i := range m.SourceIDs {
		out[i] = &m.SourceIDs[i]
	}
	return out
}

// CopiedFrom is what the last Apply of m made when m is a copy: for
// each new ID of the copy (proposal, areas, options, items), the source
// part's ID. The server puts it in its answer; nil for other edits.
func CopiedFrom(m Mutation) map[int64]int64 {
	if c, ok := m.(*CopyProposal); ok {
		return c.copied
	}
	return nil
}

// CopiedPart is the temporary ID that m, a copy made on the desktop,
// gave its copy of source part id; ok is false when m is no such copy
// or has no copy of that part.
func CopiedPart(m Mutation, id int64) (newID int64, ok bool) {
	c, isCopy := m.(*CopyProposal)
	if !isCopy || len(c.SourceIDs) != len(c.NewIDs) {
		return 0, false
	}
	for i, from := range c.SourceIDs {
		if from == id {
			return c.NewIDs[i], true
		}
	}
	return 0, false
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

func (m *CopyProposal) Writes() []Field            { return []Field{FieldName} }
func (m *CopyProposal) Events() []WebhookEventType { return causesCreated }
func (m *CopyProposal) Describe() string           { return "Copy the proposal" }

func (m *CopyProposal) Validate() error {
	if m.Name != nil {
		return CheckName("Name", *m.Name)
	}
	return nil
}

func (m *CopyProposal) apply(p *Proposal, env *Env) error {
	source := p.ID
	slot := make(map[int64]int, len(m.SourceIDs))
	for i, id := range m.SourceIDs {
		slot[id] = i
	}
	bySource := len(m.SourceIDs) == len(m.NewIDs) && len(m.NewIDs) > 0
	m.copied = map[int64]int64{}
	k := 0
	// take gives the copy of source part from its ID; keep says whether
	// the part is copied at all. A desktop's copy holds the parts it saw
	// under the IDs it gave them. Of the others, one made here after the
	// copy (a temporary ID) is not in it; one the server has (another
	// laptop's option, an add acknowledged since) is, under a new ID, as
	// the server will copy it too: else the items of the copy that sit
	// in it now would be lost from the copy here, and the edits of them
	// refused.
	take := func(from int64) (id int64, keep bool) {
		var preset int64
		switch {
		case bySource:
			i, ok := slot[from]
			if !ok {
				if IsTemporaryID(from) || env.NewID == nil {
					return 0, false
				}
				break
			}
			preset = m.NewIDs[i]
		case k < len(m.NewIDs):
			preset = m.NewIDs[k]
		}
		k++
		id = newID(env, preset)
		m.copied[id] = from
		return id, true
	}
	now := At(env.Now)
	name := "Copy of " + p.Name
	if r := []rune(name); len(r) > MaxNameLength {
		name = string(r[:MaxNameLength])
	}
	if m.Name != nil {
		name = *m.Name
	}
	p.ID, _ = take(source)
	if env.NextNumber != nil {
		p.Number = env.NextNumber()
	}
	p.Name = name
	p.Version = 0
	p.FieldVersions = nil
	p.ClientLink = nil
	p.Status = StatusDraft
	p.Archived = false
	if m.ContactID != nil {
		if *m.ContactID == 0 {
			p.Customer = nil
			// Tax follows the customer's location, which the copy has not.
			p.Tax = TaxSettings{Status: TaxUndefined, Method: p.Tax.Method, ApplyTo: p.Tax.ApplyTo}
		} else if err := assignCustomer(&p.Document, *m.ContactID, env); err != nil {
			return err
		}
	}
	p.CreatedDate = now
	p.LastSubmittedDate, p.ClientLastDecisionDate, p.LastCompletedDate, p.ClientLastOpenedDate = Time{}, Time{}, Time{}, Time{}
	p.ChangeOrders = []ChangeOrder{}
	p.PaymentRequests = []PaymentRequest{}
	areas := p.Areas[:0]
	for _, area := range p.Areas {
		var keep bool
		if area.ID, keep = take(area.ID); !keep {
			continue
		}
		options := area.Options[:0]
		for _, opt := range area.Options {
			if opt.ID, keep = take(opt.ID); !keep {
				continue
			}
			parents := map[int64]int64{}
			items := opt.Items[:0]
			for _, it := range opt.Items {
				old := it.ID
				if it.ID, keep = take(old); !keep {
					continue
				}
				parents[old] = it.ID
				it.CreatedDate, it.LastModifiedDate = now, now
				items = append(items, it)
			}
			for i := range items {
				if it := &items[i]; it.ParentID != 0 {
					// A parent the copy has not (added to the source
					// after the copy was made) leaves its item at the top.
					it.ParentID = parents[it.ParentID]
				}
			}
			opt.Items = items
			options = append(options, opt)
		}
		area.Options = options
		areas = append(areas, area)
	}
	p.Areas = areas
	return nil
}
