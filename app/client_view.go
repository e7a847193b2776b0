package app

import (
	"crypto/sha256"
	"encoding/hex"
)

// ClientView is what a signer sees of p when the salesperson presents it
// on the laptop: the client snapshot (ClientSnapshot, as a send freezes
// it) without what an edit's apply or a sync rewrites on its own, which
// the client never reads as part of the offer: the status, the
// bookkeeping dates (of the proposal, its options and items), who
// changed it last and a mail's failure. The
// laptop's copy and the server's copy of the same content so give the
// same view, though the server applied the laptop's edits later.
func ClientView(p *Proposal) *Proposal {
	c := ClientSnapshot(p)
	c.Status = ""
	c.CreatedDate = Time{}
	c.ClientLastDecisionDate = Time{}
	c.LastCompletedDate = Time{}
	c.LastModifiedDate = Time{}
	c.LastModifiedByUserDate = Time{}
	c.LastSubmittedDate = Time{}
	c.ClientLastOpenedDate = Time{}
	c.LastModifiedUser = PersonName{}
	c.EmailFailure = nil
	for ai := range c.Areas {
		for oi := range c.Areas[ai].Options {
			o := &c.Areas[ai].Options[oi]
			o.LastModifiedDate = Time{}
			for ii := range o.Items {
				it := &o.Items[ii]
				it.CreatedDate, it.LastModifiedDate, it.CostUpdateDate = Time{}, Time{}, Time{}
			}
		}
	}
	return c
}

// ClientViewHash is the hex SHA-256 of ClientView(p)'s JSON, written by
// the same encoder as the send snapshot, with the parts numbered in
// reading order (numberParts). The laptop signs it into an in-person
// acceptance; the server compares it with its own.
func ClientViewHash(p *Proposal) (string, error) {
	v := ClientView(p)
	numberParts(v)
	doc, err := v.AppendJSON(nil)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:]), nil
}

// numberParts replaces the view's identities with what the client reads.
// Identities are not the offer: a part made offline has a temporary
// ID until the sync gives it the server's, and a proposal its
// number, a contact or location its ID. The view numbers areas,
// options and items in the order the client reads them instead, so
// the same content hashes the same before and after the sync.
func numberParts(c *Proposal) {
	c.ID, c.Number = 0, 0
	if c.Customer != nil {
		c.Customer.ID = 0
		if c.Customer.Location != nil {
			c.Customer.Location.ID = 0
		}
	}
	if c.Tax.TaxLocation != nil {
		c.Tax.TaxLocation.ID = 0
	}
	var seq int64
	for ai := range c.Areas {
		a := &c.Areas[ai]
		seq++
		a.ID = seq
		for oi := range a.Options {
			o := &a.Options[oi]
			seq++
			o.ID = seq
			byID := make(map[int64]int64, len(o.Items))
			for ii := range o.Items {
				seq++
				byID[o.Items[ii].ID] = seq
				o.Items[ii].ID = seq
			}
			for ii := range o.Items {
				if it := &o.Items[ii]; it.ParentID != 0 {
					it.ParentID = byID[it.ParentID]
				}
			}
		}
	}
}
