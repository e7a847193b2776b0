package syncer

// The end-of-run checks of TestEngineContentModel: the four invariants.

import (
	"fmt"
	"slices"
	"strings"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// cmShape is a proposal's content in one line, for comparing views.
func cmShape(p *app.Proposal) string {
	var b strings.Builder
	for _, a := range p.Areas {
		fmt.Fprintf(&b, "[%s", a.Name)
		for _, o := range a.Options {
			fmt.Fprintf(&b, " {%q", o.ClientDescription)
			for _, it := range o.Items {
				fmt.Fprintf(&b, " %s:%s:%s:%s^%d", it.Description, it.Name, it.Quantity, it.SellPrice, it.ParentID)
			}
			b.WriteString("}")
		}
		b.WriteString("]")
	}
	return b.String()
}

// violation reports a broken invariant.
func (c *contentRun) violation(format string, args ...any) {
	c.t.Helper()
	c.counts.violations++
	c.t.Errorf("seed %d: "+format, append([]any{c.seed}, args...)...)
}

// check tests the four invariants.
func (c *contentRun) check() {
	t := c.t
	defer func() {
		if c.counts.violations > 0 || *contentTrace {
			t.Logf("steps:\n%s", strings.Join(c.log, "\n"))
		}
	}()
	servers := map[string]*app.Proposal{}
	for _, k := range c.props {
		servers[k] = c.server(k)
	}

	// 1. Nothing wedged.
	left := [2]map[uint64]localstore.Entry{{}, {}}
	for li, L := range c.laps {
		entries, err := L.d.st.Entries()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			left[li][e.Seq] = e
			switch {
			case e.State == localstore.StateFailed:
				if e.ErrorMessage == "" {
					c.violation("%s: entry %d failed without a reason", L.name, e.Seq)
				}
			case e.State == localstore.StateConflict:
				rec, err := L.d.st.Record(e.ProposalID)
				if err != nil {
					t.Fatal(err)
				}
				shown := false
				for _, cf := range rec.Conflicts {
					shown = shown || slices.Contains(e.Fields(), cf.Field)
				}
				if !shown {
					c.violation("%s: entry %d in conflict, but its proposal shows no conflict of its fields %v", L.name, e.Seq, e.Fields())
				}
			case e.Blocked:
			default:
				c.violation("%s: entry %d wedged: %s, %d attempts, %q", L.name, e.Seq, e.State, e.Attempts, e.ErrorMessage)
			}
		}
	}

	// 2. No value on another item than the one it was typed for.
	wrong := func(where string, key string, p *app.Proposal) {
		for _, it := range cmItems(p) {
			for f, v := range map[string]string{"name": it.name, "quantity": it.quantity, "sellPrice": it.price} {
				o, ok := c.owner[f][v]
				if !ok {
					continue
				}
				if o[1] != it.tag || !c.descends(key, o[0]) {
					c.violation("%s: %s's item %s has %s %s, typed for item %s of %s", where, key, it.tag, f, v, o[1], o[0])
				}
			}
		}
	}
	for k, g := range servers {
		if g != nil {
			wrong("server", k, g)
		}
	}
	for _, L := range c.laps {
		for k, id := range L.ids {
			rec, err := L.d.st.Record(id)
			if err != nil {
				t.Fatalf("%s: %s: %v", L.name, k, err)
			}
			wrong(L.name, k, rec.Local)
		}
	}

	// 3. Every edit landed, or is gone with its item, or is shown.
	acked := func(e *cmEdit) bool { _, ok := left[e.laptop][e.seq]; return !ok }
	for _, e := range c.edits {
		if en, ok := left[e.laptop][e.seq]; ok {
			switch {
			case en.State == localstore.StateFailed:
				c.counts.failed++
				if *contentTrace {
					t.Logf("refused: %s #%d %s %v: %s", e.prop, e.seq, e.tag, e.vals, en.ErrorMessage)
				}
			case en.State == localstore.StateConflict:
				c.counts.conflicts++
			default:
				c.counts.blocked++
			}
			continue
		}
		c.counts.acked++
		g := servers[e.prop]
		if g != nil && c.stillThere(e, g) {
			c.violation("%s's removal #%d %v of %s is acknowledged, but the server still has it", c.laps[e.laptop].name, e.seq, e.vals, e.prop)
		}
		if e.tag == "" {
			continue
		}
		if g == nil {
			c.violation("%s's edit #%d of %s is acknowledged, but the server has no %s", c.laps[e.laptop].name, e.seq, e.tag, e.prop)
			continue
		}
		var it *cmItem
		for _, x := range cmItems(g) {
			if x.tag == e.tag {
				it = &x
			}
		}
		if _, removal := e.vals["item"]; e.goneBefore && !e.resent && !removal {
			// The server could not have taken it: it was settled as done
			// instead of shown as refused.
			c.violation("%s's edit #%d %v of item %s of %s left the outbox in a sync that began with the item removed from the server",
				c.laps[e.laptop].name, e.seq, e.vals, e.tag, e.prop)
			continue
		}
		if it == nil {
			c.counts.gone++
			if !c.removed(e.prop, e.tag, acked) {
				c.violation("%s's edit #%d %v of item %s of %s is acknowledged, but the item is not on the server and nothing removed it",
					c.laps[e.laptop].name, e.seq, e.vals, e.tag, e.prop)
			}
			continue
		}
		for f, want := range e.vals {
			var got string
			switch f {
			case "name":
				got = it.name
			case "quantity":
				got = it.quantity
			case "sellPrice":
				got = it.price
			case "parent":
				got = it.parentTag
			case "option":
				got = it.opt
			default:
				continue
			}
			if got == want {
				c.counts.held++
				continue
			}
			if c.superseded(e, f, got, acked) {
				c.counts.superseded++
				continue
			}
			c.violation("%s's edit #%d of item %s of %s is acknowledged, but the server's %s is %q, not %q, and no later edit wrote it",
				c.laps[e.laptop].name, e.seq, e.tag, e.prop, f, got, want)
		}
	}

	// 4. Each laptop shows what the server has, once: a copy whose
	// answer was lost is not made twice, and one that is not on the
	// server is shown as refused or waiting.
	for k, e := range c.made {
		if _, left := left[e.laptop][e.seq]; servers[k] == nil && !left {
			c.violation("%s's copy %s is acknowledged, but the server does not have it", c.laps[e.laptop].name, k)
		}
	}
	for _, L := range c.laps {
		for _, k := range c.props {
			id, ok := L.ids[k]
			g := servers[k]
			if g == nil {
				continue
			}
			if !ok {
				c.violation("%s does not have %s", L.name, k)
				continue
			}
			if n := len(named(t, L.d, k)); n != 1 {
				c.violation("%s lists %s %d times", L.name, k, n)
			}
			rec, err := L.d.st.Record(id)
			if err != nil {
				t.Fatal(err)
			}
			if mine, theirs := cmShape(rec.Local), cmShape(g); mine != theirs {
				c.violation("%s's view of %s differs from the server's:\n mine   %s\n theirs %s", L.name, k, mine, theirs)
			}
		}
	}
}

// stillThere reports whether what removal e removed is on the server's
// copy g.
func (c *contentRun) stillThere(e *cmEdit, g *app.Proposal) bool {
	area, isArea := e.vals["area"]
	opt, isOption := e.vals["option"]
	isOption = isOption && e.tag == "" // a move names an option too
	item, isItem := e.vals["item"]
	for _, a := range g.Areas {
		if isArea && a.Name == area {
			return true
		}
		for _, o := range a.Options {
			if isOption && optionKey(a, o) == opt {
				return true
			}
			for _, it := range o.Items {
				if isItem && it.Description == item {
					return true
				}
			}
		}
	}
	return false
}

// descends reports whether proposal key is src or a copy of it (or of
// a copy of it).
func (c *contentRun) descends(key, src string) bool {
	for ; key != ""; key = c.copyOf[key] {
		if key == src {
			return true
		}
	}
	return false
}

// removed reports whether an acknowledged removal of proposal key (or
// of the source it was copied from) took tag with it: a removal of the
// item, of an item it was ever nested under, of an option or area it
// was ever in.
func (c *contentRun) removed(key, tag string, acked func(*cmEdit) bool) bool {
	for _, r := range c.edits {
		if !c.descends(key, r.prop) || !acked(r) {
			continue
		}
		if t, ok := r.vals["item"]; ok && (t == tag || c.everParent[tag][t]) {
			return true
		}
		if r.tag == "" {
			if o, ok := r.vals["option"]; ok && c.everIn(c.everOption, tag, o) {
				return true
			}
		}
		if a, ok := r.vals["area"]; ok && c.everIn(c.everArea, tag, a) {
			return true
		}
	}
	return false
}

// everIn reports whether item tag was ever seen in option or area v
// (where), or was nested under an item seen there: a nested item moves
// with its parent, and the server may take a move and the removal of
// where it went in one sync, which no laptop then sees.
func (c *contentRun) everIn(where map[string]map[string]bool, tag, v string) bool {
	if where[tag][v] {
		return true
	}
	for parent := range c.everParent[tag] {
		if where[parent][v] {
			return true
		}
	}
	return false
}

// superseded reports whether field f of e's item holds got because of
// another acknowledged edit: the same laptop's later one or the other
// laptop's. Which option an item is in and under which parent depend on
// each other (a move un-nests), so the structure fields supersede each
// other; an item moves with the one it is nested under.
func (c *contentRun) superseded(e *cmEdit, f, got string, acked func(*cmEdit) bool) bool {
	structure := f == "parent" || f == "option"
	for _, o := range c.edits {
		if o == e || o.prop != e.prop || !acked(o) || (o.laptop == e.laptop && o.order < e.order) {
			continue
		}
		if o.tag == e.tag {
			if v, ok := o.vals[f]; ok && (structure || v == got) {
				return true
			}
			_, parent := o.vals["parent"]
			_, option := o.vals["option"]
			if structure && (parent || option) {
				return true
			}
		}
		if f == "option" && c.everParent[e.tag][o.tag] {
			if _, ok := o.vals["option"]; ok {
				return true
			}
		}
	}
	return false
}
