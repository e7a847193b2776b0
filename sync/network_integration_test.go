package syncer

import (
	"errors"
	"testing"
	"time"

	"proposaldesk/app"
)

// The client against the real apiserver behind a loopback TCP proxy that
// loses connections and answers.

// newDraft makes a proposal with one area and returns it.
func newDraft(t *testing.T, c *Client, s *realServer, name string) app.ProposalDetail {
	t.Helper()
	me := s.user(t, app.RoleSales, true)
	p, err := c.CreateProposal(bg, me.UserID, name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = c.CreateArea(bg, p.ID, "Theater", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIntegrationIdempotentWriteAfterACutResponseAppliesOnce(t *testing.T) {
	s := startReal(t)
	direct := s.signedIn(t, s.URL, app.RoleSales)
	for _, keep := range []int{0, 40} { // nothing of the answer / its first bytes
		p := newDraft(t, direct, s, "Cut response")
		proxy := startProxy(t, s.URL)
		var sl sleeps
		c := s.client(t, proxy.URL(), WithHTTPClient(noKeepAlive()), WithUserKey(direct.UserKey()), WithSleep(sl.sleep))

		proxy.then(proxyStep{Action: proxyCut, Keep: keep})
		res, err := c.CreateOption(bg, p.ID, p.Areas[0].ID, "Added once", "", WriteOptions{IdempotencyKey: NewIdempotencyKey()})
		if err != nil {
			t.Fatalf("keep %d: %v", keep, err)
		}
		if conns, cuts := proxy.stats(); conns != 2 || cuts != 1 || len(sl.got()) != 1 {
			t.Fatalf("keep %d: %d connections, %d cut, waits %v", keep, conns, cuts, sl.got())
		}
		// The answer to the retry is the first answer, replayed.
		if n := len(res.Areas[0].Options); n != 2 {
			t.Fatalf("keep %d: the answer shows %d options", keep, n)
		}
		got, err := direct.GetProposal(bg, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(got.Proposal.Areas[0].Options); n != 2 {
			t.Fatalf("keep %d: the server holds %d options, want 2 (applied once)", keep, n)
		}
	}
}

// Without an Idempotency-Key the client does not resend a write whose
// answer was lost: the server applied it, and a resend would apply it
// again.
func TestIntegrationWriteWithoutAKeyIsNotResent(t *testing.T) {
	s := startReal(t)
	direct := s.signedIn(t, s.URL, app.RoleSales)
	p := newDraft(t, direct, s, "No key")
	proxy := startProxy(t, s.URL)
	c := s.client(t, proxy.URL(), WithHTTPClient(noKeepAlive()), WithUserKey(direct.UserKey()))

	proxy.then(proxyStep{Action: proxyCut})
	_, err := c.CreateOption(bg, p.ID, p.Areas[0].ID, "", "", WriteOptions{})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if conns, _ := proxy.stats(); conns != 1 {
		t.Fatalf("%d connections: the write was resent", conns)
	}
	got, err := direct.GetProposal(bg, p.ID)
	if err != nil || len(got.Proposal.Areas[0].Options) != 2 {
		t.Fatalf("the lost write was applied once: %v", err)
	}
}

func TestIntegrationReadsSurviveDroppedAndSlowConnections(t *testing.T) {
	s := startReal(t)
	direct := s.signedIn(t, s.URL, app.RoleSales)
	proxy := startProxy(t, s.URL)
	var sl sleeps
	c := s.client(t, proxy.URL(), WithHTTPClient(noKeepAlive()), WithUserKey(direct.UserKey()),
		WithSleep(sl.sleep), WithTimeout(300*time.Millisecond))

	proxy.then(proxyStep{Action: proxyDrop}, proxyStep{Action: proxyDelay, Delay: time.Second})
	if _, err := c.ListProposals(bg, ProposalQuery{}); err != nil {
		t.Fatal(err)
	}
	if conns, _ := proxy.stats(); conns != 3 || len(sl.got()) != 2 {
		t.Fatalf("%d connections, waits %v", conns, sl.got())
	}

	// Every connection dropped: the error says unreachable.
	proxy.then(proxyStep{Action: proxyDrop}, proxyStep{Action: proxyDrop}, proxyStep{Action: proxyDrop}, proxyStep{Action: proxyDrop})
	if _, err := c.Changes(bg, ""); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
}
