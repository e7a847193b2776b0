package app

import (
	"encoding/json"
	"slices"
	"strconv"

	"proposaldesk/app/jsonquote"
)

// AppendJSON appends p encoded exactly as json.Marshal(p) encodes it,
// several times faster: every field is written by hand rather than
// through reflection and a Marshaler call (and a validation pass over its
// output) for every amount and date. The server's single writer encodes
// every proposal it stores, and the desktop's local store encodes one at
// every edit. TestAppendJSONMatchesMarshal keeps the two encodings equal
// and TestProposalJSONFieldCounts fails when a struct of the tree gains a
// field, which must then be written here too (document_json.go).
func (p *Proposal) AppendJSON(b []byte) ([]byte, error) {
	b = slices.Grow(b, proposalSizeHint(p))
	b = p.Document.appendFields(b)
	b = append(b, `,"archived":`...)
	b = strconv.AppendBool(b, p.Archived)
	b = appendInt(b, `,"version":`, p.Version)
	b = append(b, `,"changeOrders":`...)
	b = appendArray(b, p.ChangeOrders, (*ChangeOrder).appendJSON)
	if len(p.FieldVersions) > 0 { // omitempty
		b = append(b, `,"fieldVersions":`...)
		b = appendFieldVersions(b, p.FieldVersions)
	}
	if p.ClientLink != nil { // omitempty; rare and small, so json.Marshal
		raw, err := json.Marshal(p.ClientLink)
		if err != nil {
			return b, err
		}
		b = append(b, `,"clientLink":`...)
		b = append(b, raw...)
	}
	if p.EmailFailure != nil { // omitempty
		b = p.EmailFailure.appendJSON(append(b, `,"emailFailure":`...))
	}
	return append(b, '}'), nil
}

// proposalSizeHint is about p's encoded size, so that the buffer is
// allocated once rather than doubled up to its size.
func proposalSizeHint(p *Proposal) int {
	n := 2048
	for _, a := range p.Areas {
		for _, o := range a.Options {
			n += 200 + 500*len(o.Items)
		}
	}
	return n
}

func (a *Area) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, a.ID)
	b = appendStringField(b, `,"name":`, a.Name)
	b = append(b, `,"options":`...)
	b = appendArray(b, a.Options, (*Option).appendJSON)
	return append(b, '}')
}

func (o *Option) appendJSON(b []byte) []byte {
	b = appendInt(b, `{"id":`, o.ID)
	b = appendStringField(b, `,"status":`, string(o.Status))
	b = appendTime(b, `,"lastModifiedDate":`, o.LastModifiedDate)
	b = appendStringField(b, `,"clientDescription":`, o.ClientDescription)
	b = appendStringField(b, `,"installerDescription":`, o.InstallerDescription)
	b = append(b, `,"items":`...)
	b = appendArray(b, o.Items, (*Item).appendJSON)
	return append(b, '}')
}

func (it *Item) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, it.ID, 10)
	if it.ParentID != 0 {
		b = append(b, `,"parentId":`...)
		b = strconv.AppendInt(b, it.ParentID, 10)
	}
	b = append(b, `,"itemType":`...)
	b = jsonquote.AppendMarshal(b, string(it.ItemType))
	if it.ReferencedItemID != 0 {
		b = append(b, `,"referencedItemId":`...)
		b = strconv.AppendInt(b, it.ReferencedItemID, 10)
	}
	b = append(b, `,"createdDate":`...)
	b = it.CreatedDate.appendJSON(b)
	b = append(b, `,"lastModifiedDate":`...)
	b = it.LastModifiedDate.appendJSON(b)
	b = append(b, `,"costUpdateDate":`...)
	b = it.CostUpdateDate.appendJSON(b)
	for _, f := range [...]struct{ key, v string }{
		{`,"brand":`, it.Brand}, {`,"model":`, it.Model}, {`,"description":`, it.Description},
		{`,"name":`, it.Name}, {`,"shortDescription":`, it.ShortDescription},
		{`,"clientNote":`, it.ClientNote}, {`,"imageUrl":`, it.ImageURL}, {`,"supplier":`, it.Supplier},
	} {
		b = append(b, f.key...)
		b = jsonquote.AppendMarshal(b, f.v)
	}
	b = append(b, `,"msrp":`...)
	b = appendFixed(b, int64(it.MSRP), moneyPlaces, moneyPlaces)
	b = append(b, `,"sellPrice":`...)
	b = appendFixed(b, int64(it.SellPrice), moneyPlaces, moneyPlaces)
	b = append(b, `,"cost":`...)
	if it.Cost == nil {
		b = append(b, "null"...)
	} else {
		b = appendFixed(b, int64(*it.Cost), moneyPlaces, moneyPlaces)
	}
	b = append(b, `,"quantity":`...)
	b = appendFixed(b, int64(it.Quantity), quantityPlaces, 0)
	b = append(b, `,"isCombinedPrice":`...)
	b = strconv.AppendBool(b, it.IsCombinedPrice)
	b = append(b, `,"isTaxExempt":`...)
	b = strconv.AppendBool(b, it.IsTaxExempt)
	b = append(b, `,"isRecurringService":`...)
	b = strconv.AppendBool(b, it.IsRecurringService)
	return append(b, '}')
}
