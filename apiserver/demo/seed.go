// Package demo seeds a data folder with a realistic dealer data set for
// `server serve --demo`: three accounts, users of every role, contacts,
// and proposals covering every status, option shape, item kind and tax
// case the API has. Content is deterministic (a seeded PCG) except the
// passwords and the app secret, which are random per data folder.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// AppID is the demo app's ID. Its presence marks a completed seed: the app
// is created last, so a folder that has it has everything.
const AppID = "app-demo"

// MainAccountName is the account GrowTo adds proposals to.
const MainAccountName = "Brightwire Home Technologies"

// DefaultSeed is the PCG seed of the demo content.
const DefaultSeed = 20260415

// Options tune Seed.
type Options struct {
	// BaseURL goes into the returned credentials as baseUrl.
	BaseURL string
	// GrowTo, when larger than the main account's proposal count, adds
	// generated proposals until it has this many (also on a folder seeded
	// before).
	GrowTo int
	// CatalogSize, when larger than the main account's catalog, adds
	// generated items until it has this many (also on a folder seeded
	// before).
	CatalogSize int
	// Now is the seeding time; dates are spread over the time before it.
	// Zero means time.Now().
	Now time.Time
	// Seed is the PCG seed; zero means DefaultSeed.
	Seed uint64
	// Logger receives progress; nil discards it.
	Logger *slog.Logger
}

// Credentials are the contents of DIR/demo.json.
type Credentials struct {
	BaseURL   string               `json:"baseUrl"`
	AppID     string               `json:"appId"`
	AppSecret string               `json:"appSecret"`
	Accounts  []AccountCredentials `json:"accounts"`
	// Created is true when this call seeded the data. When false the data
	// was seeded before and passwords are empty: they exist only as hashes
	// and in the demo.json written at that first start.
	Created bool `json:"-"`
}

// AccountCredentials is one demo account and its users.
type AccountCredentials struct {
	Name               string            `json:"name"`
	SubscriptionActive bool              `json:"subscriptionActive"`
	Users              []UserCredentials `json:"users"`
}

// UserCredentials is one demo user's login.
type UserCredentials struct {
	Email         string   `json:"email"`
	Password      string   `json:"password"`
	Role          app.Role `json:"role"`
	EmailVerified bool     `json:"emailVerified"`
	UserID        int64    `json:"userId"`
}

// User finds a user by role (and, for more than one, the first whose
// emailVerified matches verified).
func (c Credentials) User(account string, role app.Role, verified bool) (UserCredentials, bool) {
	for _, a := range c.Accounts {
		if a.Name != account {
			continue
		}
		for _, u := range a.Users {
			if u.Role == role && u.EmailVerified == verified {
				return u, true
			}
		}
	}
	return UserCredentials{}, false
}

// MergePasswords fills empty passwords from an earlier demo.json (matched
// by email), for a folder seeded before.
func (c *Credentials) MergePasswords(earlier Credentials) {
	known := map[string]string{}
	for _, a := range earlier.Accounts {
		for _, u := range a.Users {
			known[u.Email] = u.Password
		}
	}
	for i := range c.Accounts {
		for j := range c.Accounts[i].Users {
			u := &c.Accounts[i].Users[j]
			if u.Password == "" {
				u.Password = known[u.Email]
			}
		}
	}
}

// ErrForeignData is returned when the store has accounts but no demo seed:
// demo mode never mixes its data into a real data folder.
var ErrForeignData = errors.New("demo: the data folder already holds non-demo data (accounts without the demo app); use an empty --data folder for --demo")

// Seed seeds st on first use and returns the demo credentials. On a store
// seeded before it creates nothing (but still grows to opts.GrowTo) and
// returns the credentials without passwords; see Credentials.Created.
func Seed(ctx context.Context, st store.Store, opts Options) (Credentials, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	opts.Now = opts.Now.UTC().Truncate(time.Millisecond)
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}

	var creds Credentials
	a, err := st.Auth().App(ctx, AppID)
	switch {
	case err == nil:
		creds, err = existing(ctx, st, a, opts.Now)
		if err != nil {
			return Credentials{}, err
		}
		log.Info("demo data already seeded", "accounts", len(creds.Accounts))
	case errors.Is(err, store.ErrNotFound):
		accts, err := st.Auth().Accounts(ctx)
		if err != nil {
			return Credentials{}, fmt.Errorf("demo: %w", err)
		}
		if len(accts) > 0 {
			return Credentials{}, ErrForeignData
		}
		start := time.Now()
		creds, err = seedFresh(ctx, st, opts)
		if err != nil {
			return Credentials{}, err
		}
		log.Info("demo data seeded", "accounts", len(creds.Accounts), "took", time.Since(start).Round(time.Millisecond))
	default:
		return Credentials{}, fmt.Errorf("demo: %w", err)
	}
	creds.BaseURL = opts.BaseURL

	if opts.GrowTo > 0 {
		start := time.Now()
		added, err := Grow(ctx, st, opts.GrowTo, opts)
		if err != nil {
			return creds, err
		}
		if added > 0 {
			log.Info("demo proposals added", "added", added, "target", opts.GrowTo, "took", time.Since(start).Round(time.Millisecond))
		}
	}
	if opts.CatalogSize > 0 {
		start := time.Now()
		added, err := growMainCatalog(ctx, st, opts.CatalogSize)
		if err != nil {
			return creds, err
		}
		if added > 0 {
			log.Info("demo catalog items added", "added", added, "target", opts.CatalogSize, "took", time.Since(start).Round(time.Millisecond))
		}
	}
	return creds, nil
}

// existing rebuilds the credentials of a seeded store, without passwords.
func existing(ctx context.Context, st store.Store, a store.App, now time.Time) (Credentials, error) {
	creds := Credentials{AppID: a.ID, AppSecret: a.Secret, Accounts: []AccountCredentials{}}
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		return creds, fmt.Errorf("demo: %w", err)
	}
	slices.SortFunc(accts, func(x, y store.Account) int { return int(x.ID - y.ID) })
	for _, acct := range accts {
		users, err := st.Auth().UsersOfAccount(ctx, acct.ID)
		if err != nil {
			return creds, fmt.Errorf("demo: %w", err)
		}
		slices.SortFunc(users, func(x, y store.UserRecord) int { return int(x.ID - y.ID) })
		ac := AccountCredentials{Name: acct.Name, SubscriptionActive: acct.SubscriptionActive(now), Users: []UserCredentials{}}
		for _, u := range users {
			ac.Users = append(ac.Users, UserCredentials{Email: u.Email, Role: u.Role, EmailVerified: u.EmailVerified, UserID: u.ID})
		}
		creds.Accounts = append(creds.Accounts, ac)
	}
	return creds, nil
}

// accountPlan describes one demo account.
type accountPlan struct {
	name      string
	domain    string
	active    bool
	dealer    app.DealerProfile
	users     []userPlan
	contacts  int // how many generated contacts beyond the fixed ones
	proposals int
}

type userPlan struct {
	first, last string
	role        app.Role
	verified    bool
}

func plans() []accountPlan {
	return []accountPlan{
		{
			name: MainAccountName, domain: "brightwire-av.example", active: true,
			dealer: app.DealerProfile{CompanyName: MainAccountName, WebSiteURL: "https://brightwire-av.example",
				CompanyPhone: "(512) 555-0100", CompanyLogoURL: "https://brightwire-av.example/logo.png",
				Location: app.Location{Street: "2100 S Lamar Blvd", Suite: "Suite 210", City: "Austin", PostalCode: "78704",
					State: "Texas", StateAbbrev: "TX", Country: "US", Phone: "(512) 555-0100"}},
			users: []userPlan{
				{"Dana", "Whitaker", app.RoleAdmin, true},
				{"Marcus", "Reed", app.RoleSales, true},
				{"Priya", "Shah", app.RoleViewer, true},
				{"Jordan", "Lee", app.RoleSales, false},
				{"Kelly", "Brooks", app.RoleSales, true},
			},
			contacts: 12, proposals: 36,
		},
		{
			name: "Coastal Smart Living", domain: "coastalsmart.example", active: true,
			dealer: app.DealerProfile{CompanyName: "Coastal Smart Living", WebSiteURL: "https://coastalsmart.example",
				CompanyPhone: "(239) 555-0200",
				Location: app.Location{Street: "880 5th Ave S", City: "Naples", PostalCode: "34102",
					State: "Florida", StateAbbrev: "FL", Country: "US", Phone: "(239) 555-0200"}},
			users: []userPlan{
				{"Renee", "Castillo", app.RoleAdmin, true},
				{"Tomas", "Ferreira", app.RoleSales, true},
			},
			contacts: 4, proposals: 6,
		},
		{
			name: "Summit Integration Group", domain: "summit-integration.example", active: false,
			dealer: app.DealerProfile{CompanyName: "Summit Integration Group", WebSiteURL: "https://summit-integration.example",
				CompanyPhone: "(303) 555-0300",
				Location: app.Location{Street: "1550 Wewatta St", City: "Denver", PostalCode: "80202",
					State: "Colorado", StateAbbrev: "CO", Country: "US", Phone: "(303) 555-0300"}},
			users: []userPlan{
				{"Greg", "Halvorsen", app.RoleAdmin, true},
				{"Nina", "Oduya", app.RoleSales, true},
			},
			contacts: 3, proposals: 4,
		},
	}
}

const terms = "Prices are valid for 30 days. A 50% deposit schedules the work; equipment remains the property of the dealer until paid in full. " +
	"Labor is warranted for one year; equipment carries the manufacturer's warranty."

func seedFresh(ctx context.Context, st store.Store, opts Options) (Credentials, error) {
	now := opts.Now
	creds := Credentials{Created: true, Accounts: []AccountCredentials{}}
	ps := plans()

	// Passwords are random and bcrypt is slow: hash them all at once.
	type hashed struct {
		password string
		hash     []byte
		err      error
	}
	var all []*hashed
	for _, p := range ps {
		for range p.users {
			all = append(all, &hashed{})
		}
	}
	var wg sync.WaitGroup
	for _, h := range all {
		wg.Go(func() {
			h.password, h.err = auth.RandomPassword()
			if h.err == nil {
				h.hash, h.err = auth.HashPassword(h.password)
			}
		})
	}
	wg.Wait()

	next := 0
	for ai, p := range ps {
		expiry := now.AddDate(5, 0, 0)
		if !p.active {
			expiry = now.AddDate(0, 0, -12)
		}
		acct, err := st.Auth().CreateAccount(ctx, store.Account{
			Name: p.name, SubscriptionExpiry: expiry, Dealer: p.dealer, Currency: app.USD,
			Terms: terms, CreatedAt: now.AddDate(-3, 0, 0),
		})
		if err != nil {
			return creds, fmt.Errorf("demo: create account %q: %w", p.name, err)
		}
		ac := AccountCredentials{Name: p.name, SubscriptionActive: p.active, Users: []UserCredentials{}}
		var users []app.User
		for _, up := range p.users {
			h := all[next]
			next++
			if h.err != nil {
				return creds, fmt.Errorf("demo: password: %w", h.err)
			}
			email := fmt.Sprintf("%s.%s@%s", lower(up.first), lower(up.last), p.domain)
			u, err := st.Auth().CreateUser(ctx, store.UserRecord{
				User:      app.User{Email: email, FirstName: up.first, LastName: up.last, Role: up.role, EmailVerified: up.verified},
				AccountID: acct.ID, PasswordHash: h.hash, CreatedAt: now.AddDate(-2, 0, 0),
			})
			if err != nil {
				return creds, fmt.Errorf("demo: create user %s: %w", email, err)
			}
			users = append(users, u.User)
			ac.Users = append(ac.Users, UserCredentials{Email: email, Password: h.password, Role: up.role,
				EmailVerified: up.verified, UserID: u.ID})
		}
		creds.Accounts = append(creds.Accounts, ac)

		r := rand.New(rand.NewPCG(opts.Seed, uint64(ai+1)))
		err = st.Update(ctx, acct.ID, func(tx store.Tx) error {
			b := newBuilder(tx, acct, users, now, r)
			if err := b.seedContacts(ai == 0, p.contacts); err != nil {
				return err
			}
			if ai == 0 {
				return b.seedMain(p.proposals)
			}
			return b.seedOther(p.proposals)
		})
		if err != nil {
			return creds, fmt.Errorf("demo: seed account %q: %w", p.name, err)
		}
		size := otherCatalogSize
		if ai == 0 {
			size = max(MainCatalogSize, opts.CatalogSize)
		}
		if _, err := growCatalog(ctx, st, acct.ID, size); err != nil {
			return creds, err
		}
	}

	a, err := auth.NewApp("Proposal Desk demo", now)
	if err != nil {
		return creds, err
	}
	a.ID = AppID
	if err := st.Auth().CreateApp(ctx, a); err != nil {
		return creds, fmt.Errorf("demo: create app: %w", err)
	}
	creds.AppID, creds.AppSecret = a.ID, a.Secret
	return creds, nil
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
