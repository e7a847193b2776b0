package ui

import (
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// Closing the window sends an edit still waiting (no sync loop runs
// here, as none would have sent it yet); with the server gone, closing
// still ends, and the edit waits in the outbox for the next start.
func TestCloseSendsWhatWaits(t *testing.T) {
	h := newHarness(t)
	d := h.signInWith(app.RoleSales, Options{SendOnClose: 2 * time.Second})
	name := runName("Closing")
	v, id := h.contentFixture(name, nil, nil)
	retype(v.name, name+" (sent at close)")
	enter(v.name)
	if st := d.sess.eng.State(); st.Pending != 1 {
		t.Fatalf("before closing %d edits wait, want 1", st.Pending)
	}
	d.Close()
	if sp, err := h.srv.Proposal(id); err != nil || sp.Name != name+" (sent at close)" {
		t.Fatalf("after closing the server has %q (%v)", sp.Name, err)
	}

	// Again, the server gone since the last sync.
	h2 := newHarnessOn(t, h.srv)
	d2 := h2.signInWith(app.RoleSales, Options{SendOnClose: 2 * time.Second})
	v2 := h2.openByName(name + " (sent at close)")
	retype(v2.name, name+" (offline)")
	enter(v2.name)
	h2.gate.down.Store(true)
	d2.Close()
	st, err := localstore.Open(storePath(h2.dir, h2.url, h2.srv.Users[app.RoleSales].Email))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.Counts()
	if err != nil || c.Pending != 1 {
		t.Fatalf("after closing offline the outbox holds %d edits (%v), want the 1 not sent", c.Pending, err)
	}
	if sp, _ := h.srv.Proposal(id); sp.Name != name+" (sent at close)" {
		t.Fatalf("the server has %q", sp.Name)
	}
}
