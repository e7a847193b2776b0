package app

import (
	"net/url"
	"strconv"
	"strings"
)

// OpSyncProposals is GET /public/sync/proposals (extension): many
// proposals in one signed request, as the server stores them, for a
// laptop's pull of the IDs the changes feed named.
const OpSyncProposals Operation = "SyncProposals"

// MaxSyncProposals bounds the IDs of one GET /public/sync/proposals.
const MaxSyncProposals = 500

// SyncProposals is GET /public/sync/proposals' body: the proposals asked
// for that the caller may see, in the order asked (each as the stored
// model, Item.Cost null for a reader without ViewCosts), and the IDs
// asked for that the account does not have. The server writes it from
// the stored bytes; this type describes it (and decodes it in tests).
type SyncProposals struct {
	StoreID   string     `json:"storeId"`
	Proposals []Proposal `json:"proposals"`
	Missing   []int64    `json:"missing"`
}

// ParseSyncIDs reads the ids parameter of GET /public/sync/proposals
// (any letter case; comma-separated, repeatable): 1 to MaxSyncProposals
// positive IDs, in the order given, each once.
func ParseSyncIDs(values url.Values) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	for k, vs := range values {
		if !strings.EqualFold(k, "ids") {
			continue
		}
		for _, v := range vs {
			for part := range strings.SplitSeq(v, ",") {
				id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
				if err != nil || id <= 0 {
					return nil, Invalid("ids", "%q is not a proposal ID", part)
				}
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
				if len(ids) > MaxSyncProposals {
					return nil, Invalid("ids", "at most %d proposals per request", MaxSyncProposals)
				}
			}
		}
	}
	if len(ids) == 0 {
		return nil, Invalid("ids", "is required: the proposal IDs to read, comma-separated")
	}
	return ids, nil
}

// HideCosts sets every item's cost, the proposal's and its change
// orders', to nil in place: the model as a reader without ViewCosts may
// have it (the details show those costs as null).
func (p *Proposal) HideCosts() {
	p.Document.hideCosts()
	for i := range p.ChangeOrders {
		p.ChangeOrders[i].Document.hideCosts()
	}
}

func (d *Document) hideCosts() {
	for i := range d.Areas {
		for j := range d.Areas[i].Options {
			items := d.Areas[i].Options[j].Items
			for k := range items {
				items[k].Cost = nil
			}
		}
	}
}
