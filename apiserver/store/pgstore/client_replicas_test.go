package pgstore

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// TestClientPageAcrossReplicas: a proposal sent through one replica is
// opened, chosen on and accepted through the other; every event is
// recorded once, in one chain, and both replicas answer the same.
func TestClientPageAcrossReplicas(t *testing.T) {
	s1, s2 := openReplicas(t)
	now := time.Now()
	acct, err := s1.Auth().CreateAccount(ctx, store.Account{Name: "a", SubscriptionExpiry: now.Add(time.Hour), Currency: app.USD})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := auth.NewApp("t", now)
	if err != nil || s1.Auth().CreateApp(ctx, ap) != nil {
		t.Fatal(err)
	}
	u, err := s1.Auth().CreateUser(ctx, store.UserRecord{User: app.User{Email: "s@a.test", Role: app.RoleSales, EmailVerified: true}, AccountID: acct.ID})
	if err != nil {
		t.Fatal(err)
	}
	key, hash, _ := auth.NewAPIKey()
	if err := s1.Auth().PutKey(ctx, store.APIKey{Hash: hash, UserID: u.ID, AccountID: acct.ID, AppID: ap.ID, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	var id, area, other int64
	if err := s1.Update(ctx, acct.ID, func(tx store.Tx) error {
		c := app.Contact{ID: tx.NextID(), PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Ann", ContactEmail: "ann@x.test"}
		if err := tx.PutContact(c); err != nil {
			return err
		}
		p := storetest.NewProposal(tx, "Two options", &c)
		item := func(price string) []app.Item {
			return []app.Item{{ID: tx.NextID(), ItemType: app.ItemPart, Name: "Amp", SellPrice: app.MustMoney(price), Quantity: app.MustQuantity("1")}}
		}
		area, other = tx.NextID(), tx.NextID()
		p.Areas = []app.Area{{ID: area, Name: "Den", Options: []app.Option{
			{ID: tx.NextID(), Status: app.OptionDraft, Items: item("100.00")}, {ID: other, Status: app.OptionDraft, Items: item("300.00")}}}}
		id = p.ID
		return tx.PutProposal(p)
	}); err != nil {
		t.Fatal(err)
	}
	r1 := httptest.NewServer(apiserver.New(apiserver.Config{}, s1))
	defer r1.Close()
	r2 := httptest.NewServer(apiserver.New(apiserver.Config{}, s2))
	defer r2.Close()
	signed := func(base, method, path, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		ct := ""
		if method == "POST" {
			ct = "application/json"
			req.Header.Set("Content-Type", ct)
		}
		for k, v := range (signing.Request{Method: method, URL: base + path, ContentType: ct, AppID: ap.ID, Secret: ap.Secret, UserKey: key, Now: time.Now()}).Headers() {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return b
	}
	var sent app.ProposalDetail
	if err := json.Unmarshal(signed(r1.URL, "POST", "/public/proposals/"+app.FormatID(id)+"/send", "{}"), &sent); err != nil || sent.ClientLink == nil || sent.ClientLink.URL == nil {
		t.Fatalf("send: %v %+v", err, sent.ClientLink)
	}
	// The link as replica 2 serves it.
	link := r2.URL + (*sent.ClientLink.URL)[len(r1.URL):]
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(u string, f url.Values) int {
		t.Helper()
		resp, err := noFollow.PostForm(u, f)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if resp, err := http.Get(link); err != nil || resp.StatusCode != 200 {
		t.Fatalf("open on replica 2: %v %v", resp, err)
	}
	if c := post(link+"/choose", url.Values{"AreaId": {app.FormatID(area)}, "AreaOptionId": {app.FormatID(other)}}); c != http.StatusSeeOther {
		t.Fatalf("choose: %d", c)
	}
	if c := post(link+"/accept", url.Values{"FullName": {"Ann Lee"}, "Consent": {"yes"}}); c != http.StatusSeeOther {
		t.Fatalf("accept: %d", c)
	}
	var d1, d2 app.ProposalDetail
	json.Unmarshal(signed(r1.URL, "GET", "/public/proposals/"+app.FormatID(id), ""), &d1)
	json.Unmarshal(signed(r2.URL, "GET", "/public/proposals/"+app.FormatID(id), ""), &d2)
	if d1.Status != app.StatusAccepted || d2.Status != app.StatusAccepted || d1.Version != d2.Version {
		t.Errorf("replica 1: %s v%d, replica 2: %s v%d", d1.Status, d1.Version, d2.Status, d2.Version)
	}
	var events []app.Event
	json.Unmarshal(signed(r1.URL, "GET", "/public/proposals/"+app.FormatID(id)+"/events", ""), &events)
	var types []string
	for _, e := range events {
		types = append(types, string(e.Type))
	}
	if strings.Join(types, ",") != "Sent,Opened,OptionChosen,Accepted" || app.VerifyEvents(id, events) != nil {
		t.Errorf("events %v (%v)", types, app.VerifyEvents(id, events))
	}
}
