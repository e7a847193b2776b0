package demo_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

var seedNow = time.Date(2026, 4, 15, 14, 0, 0, 0, time.UTC)

func openStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "demo.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// allProposals loads every proposal of an account.
func allProposals(t *testing.T, st store.Store, accountID int64) []*app.Proposal {
	t.Helper()
	var out []*app.Proposal
	err := st.View(context.Background(), accountID, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		if err != nil {
			return err
		}
		for _, id := range ids {
			p, err := tx.Proposal(id)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func accountNamed(t *testing.T, st store.Store, name string) store.Account {
	t.Helper()
	accts, err := st.Auth().Accounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accts {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no account %q", name)
	return store.Account{}
}

// TestSeedMeetsContract checks every line of the contract's demo-mode
// list against a freshly seeded store.
func TestSeedMeetsContract(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	creds, err := demo.Seed(ctx, st, demo.Options{BaseURL: "http://127.0.0.1:1", Now: seedNow})
	if err != nil {
		t.Fatal(err)
	}
	if !creds.Created || creds.BaseURL != "http://127.0.0.1:1" || creds.AppID == "" || creds.AppSecret == "" {
		t.Fatalf("credentials header: %+v", creds)
	}
	a, err := st.Auth().App(ctx, creds.AppID)
	if err != nil || a.Secret != creds.AppSecret {
		t.Fatalf("app %v: %+v", err, a)
	}

	// Three accounts, two active and one expired.
	if len(creds.Accounts) != 3 {
		t.Fatalf("accounts: %d", len(creds.Accounts))
	}
	active := 0
	for _, ac := range creds.Accounts {
		acct := accountNamed(t, st, ac.Name)
		if acct.SubscriptionActive(seedNow) != ac.SubscriptionActive {
			t.Errorf("%s: subscriptionActive %v disagrees with the store", ac.Name, ac.SubscriptionActive)
		}
		if ac.SubscriptionActive {
			active++
		}
		// Every listed password logs in (bcrypt check) and matches the store.
		for _, u := range ac.Users {
			rec, err := st.Auth().UserByEmail(ctx, u.Email)
			if err != nil {
				t.Fatalf("user %s: %v", u.Email, err)
			}
			if rec.ID != u.UserID || rec.Role != u.Role || rec.EmailVerified != u.EmailVerified || rec.AccountID != acct.ID {
				t.Errorf("user %s: store %+v, demo.json %+v", u.Email, rec.User, u)
			}
			if len(u.Password) < auth.MinPasswordLength || !auth.CheckPassword(rec.PasswordHash, u.Password) {
				t.Errorf("user %s: password does not check", u.Email)
			}
		}
	}
	if active != 2 {
		t.Errorf("active accounts: %d, want 2", active)
	}

	// Main account: Admin, Sales, Viewer, and one unverified user.
	main := creds.Accounts[0]
	if main.Name != demo.MainAccountName {
		t.Fatalf("first account %q", main.Name)
	}
	roles := map[app.Role]bool{}
	unverified := 0
	for _, u := range main.Users {
		if u.EmailVerified {
			roles[u.Role] = true
		} else {
			unverified++
		}
	}
	for _, r := range app.Roles {
		if !roles[r] {
			t.Errorf("main account has no verified %s user", r)
		}
	}
	if unverified < 1 {
		t.Error("main account has no unverified user")
	}

	acct := accountNamed(t, st, demo.MainAccountName)
	ps := allProposals(t, st, acct.ID)
	if len(ps) < 30 {
		t.Fatalf("main account has %d proposals, want 30+", len(ps))
	}
	statuses := map[app.Status]int{}
	archived := 0
	var acceptedWithCOs, threeOption, selected bool
	kinds := map[string]bool{}
	taxStatus := map[app.TaxStatus]int{}
	for _, p := range ps {
		statuses[p.Status]++
		if p.Archived {
			archived++
		}
		if (p.Status == app.StatusAccepted || p.Status == app.StatusCompleted) && len(p.ChangeOrders) >= 2 {
			acceptedWithCOs = true
			for _, co := range p.ChangeOrders {
				if co.ID == 0 || len(co.Areas) == 0 || co.Customer == nil {
					t.Errorf("change order %d of %d is incomplete", co.ID, p.ID)
				}
			}
		}
		taxStatus[p.Tax.Status]++
		// Tax rates are the state's from the US table.
		if p.Tax.Status == app.TaxOK {
			want, _, ok := app.USTaxTable().Lookup(*p.Tax.TaxLocation)
			if !ok || p.Tax.Parts.Rate != want {
				t.Errorf("proposal %d in %s: parts rate %v, want %v", p.ID, p.Tax.TaxLocation.State, p.Tax.Parts.Rate, want)
			}
			if p.Customer == nil || p.Customer.Location == nil || p.Customer.Location.StateAbbrev != p.Tax.TaxLocation.StateAbbrev {
				t.Errorf("proposal %d: tax location is not the customer's location", p.ID)
			}
		}
		if p.Customer != nil && p.Customer.Location == nil && p.Tax.Status != app.TaxUndefined {
			t.Errorf("proposal %d has no location but tax status %s", p.ID, p.Tax.Status)
		}
		for _, a := range p.Areas {
			if len(a.Options) == 0 || len(a.Options) > 3 {
				t.Errorf("proposal %d area %q has %d options", p.ID, a.Name, len(a.Options))
			}
			nSel := 0
			for _, o := range a.Options {
				if o.Status == app.OptionSelected {
					nSel++
				}
				for _, it := range o.Items {
					switch {
					case it.IsRecurringService:
						kinds["recurring"] = true
					case it.IsTaxExempt && it.ItemType.Category() == app.CategoryParts:
						kinds["taxExemptPart"] = true
					}
					kinds[string(it.ItemType)] = true
					if it.Cost != nil {
						kinds["cost"] = true
					}
					if it.IsCombinedPrice {
						nested := 0
						for _, c := range o.Items {
							if c.ParentID == it.ID {
								nested++
							}
						}
						if nested > 0 {
							kinds["bundle"] = true
						}
					}
				}
			}
			if nSel > 1 {
				t.Errorf("proposal %d area %q has %d selected options", p.ID, a.Name, nSel)
			}
			if len(a.Options) == 3 && nSel == 1 {
				threeOption, selected = true, true
			}
		}
		// Every proposal renders (totals derive without error).
		d := app.DetailView(p, app.ViewOptions{ViewCosts: true})
		if d.FinancialSummary.ProposalTotal < 0 {
			t.Errorf("proposal %d total %v", p.ID, d.FinancialSummary.ProposalTotal)
		}
	}
	for _, s := range app.Statuses {
		if statuses[s] == 0 {
			t.Errorf("no proposal in status %s", s)
		}
	}
	if archived != 2 {
		t.Errorf("archived proposals: %d, want 2", archived)
	}
	if !acceptedWithCOs {
		t.Error("no accepted proposal with 2+ change orders")
	}
	if !threeOption || !selected {
		t.Error("no area with three options, one Selected")
	}
	for _, k := range []string{"Part", "Labor", "Fee", "taxExemptPart", "recurring", "bundle", "cost"} {
		if !kinds[k] {
			t.Errorf("no item of kind %s", k)
		}
	}
	for _, s := range []app.TaxStatus{app.TaxOK, app.TaxUndefined, app.TaxExempt} {
		if taxStatus[s] == 0 {
			t.Errorf("no proposal with tax status %s", s)
		}
	}

	// Contacts: one with exactly one location that is primary, one with
	// several, one with none.
	var onePrimary, several, none bool
	states := map[string]bool{}
	err = st.View(ctx, acct.ID, func(tx store.Tx) error {
		cs, _, err := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: app.MaxPageSize, SortBy: "LastName"})
		if err != nil {
			return err
		}
		for _, c := range cs {
			locs, err := tx.Locations(c.ID)
			if err != nil {
				return err
			}
			primaries := 0
			for _, l := range locs {
				states[l.StateAbbrev] = true
				if l.IsPrimary {
					primaries++
				}
			}
			switch {
			case len(locs) == 1 && primaries == 1:
				onePrimary = true
			case len(locs) >= 2:
				several = true
			case len(locs) == 0:
				none = true
			}
			if primaries > 1 {
				t.Errorf("contact %d has %d primary locations", c.ID, primaries)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !onePrimary || !several || !none {
		t.Errorf("contact location shapes: one primary %v, several %v, none %v", onePrimary, several, none)
	}
	if len(states) < 5 {
		t.Errorf("locations in %d states, want several", len(states))
	}

	// The other accounts have data too.
	for _, ac := range creds.Accounts[1:] {
		if n := len(allProposals(t, st, accountNamed(t, st, ac.Name).ID)); n == 0 {
			t.Errorf("%s has no proposals", ac.Name)
		}
	}
}

func TestSeedTwiceDoesNotDuplicate(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	first, err := demo.Seed(ctx, st, demo.Options{Now: seedNow})
	if err != nil {
		t.Fatal(err)
	}
	acct := accountNamed(t, st, demo.MainAccountName)
	n := len(allProposals(t, st, acct.ID))
	second, err := demo.Seed(ctx, st, demo.Options{Now: seedNow.Add(time.Hour), BaseURL: "http://x"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Created {
		t.Error("second seed says it created data")
	}
	accts, _ := st.Auth().Accounts(ctx)
	if len(accts) != 3 {
		t.Errorf("accounts after second seed: %d", len(accts))
	}
	if m := len(allProposals(t, st, acct.ID)); m != n {
		t.Errorf("proposals %d -> %d", n, m)
	}
	if second.AppID != first.AppID || second.AppSecret != first.AppSecret || len(second.Accounts) != len(first.Accounts) {
		t.Errorf("second credentials differ: %+v", second)
	}
	second.MergePasswords(first)
	for i := range first.Accounts {
		if !slices.Equal(first.Accounts[i].Users, second.Accounts[i].Users) {
			t.Errorf("account %d users differ after merge:\n%+v\n%+v", i, first.Accounts[i].Users, second.Accounts[i].Users)
		}
	}
}

func TestSeedRefusesForeignData(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := st.Auth().CreateAccount(ctx, store.Account{Name: "Real Dealer", SubscriptionExpiry: seedNow.AddDate(1, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Seed(ctx, st, demo.Options{Now: seedNow}); err != demo.ErrForeignData {
		t.Fatalf("got %v, want ErrForeignData", err)
	}
}

func TestSeedIsDeterministic(t *testing.T) {
	ctx := context.Background()
	names := func() []string {
		st := openStore(t)
		if _, err := demo.Seed(ctx, st, demo.Options{Now: seedNow}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range allProposals(t, st, accountNamed(t, st, demo.MainAccountName).ID) {
			d := app.DetailView(p, app.ViewOptions{ViewCosts: true})
			out = append(out, p.Name+"|"+string(p.Status)+"|"+d.FinancialSummary.ProposalTotal.String())
		}
		slices.Sort(out)
		return out
	}
	if a, b := names(), names(); !slices.Equal(a, b) {
		t.Errorf("two seeds differ:\n%v\n%v", a, b)
	}
}

func TestGrowTo(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	start := time.Now()
	if _, err := demo.Seed(ctx, st, demo.Options{Now: seedNow, GrowTo: 2000}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	acct := accountNamed(t, st, demo.MainAccountName)
	var count int
	err := st.View(ctx, acct.ID, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		count = len(ids)
		if err != nil {
			return err
		}
		q := app.DefaultListQuery()
		q.SearchText = "residence"
		_, n, err := tx.List(q)
		if n == 0 {
			t.Error("text search over grown proposals found nothing")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if count != 2000 {
		t.Errorf("main account has %d proposals, want 2000", count)
	}
	t.Logf("seed + grow to 2000 took %s", took)
	// Growing again to the same size adds nothing; to more adds the rest.
	if added, err := demo.Grow(ctx, st, 2000, demo.Options{Now: seedNow}); err != nil || added != 0 {
		t.Errorf("regrow: added %d, %v", added, err)
	}
	if added, err := demo.Grow(ctx, st, 2010, demo.Options{Now: seedNow}); err != nil || added != 10 {
		t.Errorf("grow by 10: added %d, %v", added, err)
	}
}
