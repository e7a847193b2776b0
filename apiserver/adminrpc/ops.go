// Package adminrpc runs the server's admin operations (accounts, apps,
// users, catalog import, backup) on a store: in the calling process when
// it can open the store itself, or inside a running server, which holds
// the store's lock, through the server's admin socket (Listen, Dial): a
// Unix socket in the data folder that only the server's OS user can
// open. Inputs and outputs are JSON either way, so both paths behave the
// same.
package adminrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// The operations' names, as Run and Client.Call take them.
const (
	OpAccountsCreate  = "accounts.create"   // AccountIn → store.Account
	OpAppsCreate      = "apps.create"       // AppIn → AppOut
	OpUsersCreate     = "users.create"      // UserIn → UserOut
	OpUsersList       = "users.list"        // AccountRef → []UserOut
	OpUsersRevokeKeys = "users.revoke-keys" // RevokeIn → RevokeOut
)

// AccountIn is accounts.create's input: a dealer account, active for
// SubscriptionDays from now, in a two-letter US State.
type AccountIn struct {
	Name             string `json:"name"`
	SubscriptionDays int    `json:"subscriptionDays"`
	Phone            string `json:"phone"`
	Website          string `json:"website"`
	State            string `json:"state"`
}

// AppIn is apps.create's input.
type AppIn struct {
	Name string `json:"name"`
}

// AppOut is a new client app; its secret is shown this once.
type AppOut struct {
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
}

// UserIn is users.create's input.
type UserIn struct {
	AccountID int64  `json:"accountId"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
	Verified  bool   `json:"verified"`
	Password  string `json:"password"`
}

// UserOut is a user as the admin commands show it.
type UserOut struct {
	UserID        int64    `json:"userId"`
	AccountID     int64    `json:"accountId"`
	Email         string   `json:"email"`
	FirstName     string   `json:"firstName"`
	LastName      string   `json:"lastName"`
	Role          app.Role `json:"role"`
	EmailVerified bool     `json:"emailVerified"`
}

// AccountRef names the account of users.list.
type AccountRef struct {
	AccountID int64 `json:"accountId"`
}

// RevokeIn is users.revoke-keys's input: the user's login email.
type RevokeIn struct {
	Email string `json:"email"`
}

// RevokeOut is how many API keys of the user were revoked.
type RevokeOut struct {
	UserID  int64 `json:"userId"`
	Revoked int   `json:"revoked"`
}

// ErrUnknownOp is Run's error for a name no operation has.
var ErrUnknownOp = errors.New("unknown admin operation")

type op func(ctx context.Context, st store.Store, raw []byte) (any, error)

var ops = map[string]op{
	OpAccountsCreate:  createAccount,
	OpAppsCreate:      createApp,
	OpUsersCreate:     createUser,
	OpUsersList:       listUsers,
	OpUsersRevokeKeys: revokeKeys,
}

// Run runs the operation name on st with the JSON input raw, when every
// text of the input keeps the rule text keeps whatever way it enters
// (app.CheckChars): names and addresses given here reach the same
// documents and exports as the API's. A password is no text anyone
// reads, so it is left to its own rules.
func Run(ctx context.Context, st store.Store, name string, raw []byte) (any, error) {
	op, ok := ops[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownOp, name)
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	for k, v := range in {
		if s, ok := v.(string); ok && k != "password" {
			if err := app.CheckChars(k, s); err != nil {
				return nil, err
			}
		}
	}
	return op(ctx, st, raw)
}

// Local runs the operation name on st as the admin socket would: in is
// encoded, and the result decoded into out, as JSON.
func Local(ctx context.Context, st store.Store, name string, in, out any) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	v, err := Run(ctx, st, name, raw)
	if err != nil {
		return err
	}
	res, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

func createAccount(ctx context.Context, st store.Store, raw []byte) (any, error) {
	var in AccountIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	if err := app.CheckName("name", in.Name); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	a := store.Account{Name: in.Name, SubscriptionExpiry: now.AddDate(0, 0, in.SubscriptionDays),
		Currency: app.USD, CreatedAt: now,
		Dealer: app.DealerProfile{CompanyName: in.Name, CompanyPhone: in.Phone, WebSiteURL: in.Website,
			Location: app.Location{State: in.State, StateAbbrev: strings.ToUpper(in.State), Country: "US"}}}
	return st.Auth().CreateAccount(ctx, a)
}

func createApp(ctx context.Context, st store.Store, raw []byte) (any, error) {
	var in AppIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	a, err := auth.NewApp(in.Name, time.Now())
	if err != nil {
		return nil, err
	}
	if err := st.Auth().CreateApp(ctx, a); err != nil {
		return nil, err
	}
	return AppOut{AppID: a.ID, AppSecret: a.Secret}, nil
}

func createUser(ctx context.Context, st store.Store, raw []byte) (any, error) {
	var in UserIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	role, err := app.ParseRole(in.Role)
	if err != nil {
		return nil, err
	}
	if _, err := st.Auth().Account(ctx, in.AccountID); err != nil {
		return nil, fmt.Errorf("account %d: %w", in.AccountID, err)
	}
	if err := app.CheckName("email", in.Email); err != nil || !strings.Contains(in.Email, "@") {
		return nil, fmt.Errorf("%q is not an email address", in.Email)
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	u, err := st.Auth().CreateUser(ctx, store.UserRecord{
		User:      app.User{Email: in.Email, FirstName: in.FirstName, LastName: in.LastName, Role: role, EmailVerified: in.Verified},
		AccountID: in.AccountID, PasswordHash: hash, CreatedAt: time.Now().UTC(),
	})
	if err != nil {
		return nil, err
	}
	return userOut(u), nil
}

func listUsers(ctx context.Context, st store.Store, raw []byte) (any, error) {
	var in AccountRef
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	us, err := st.Auth().UsersOfAccount(ctx, in.AccountID)
	if err != nil {
		return nil, err
	}
	out := make([]UserOut, len(us))
	for i, u := range us {
		out[i] = userOut(u)
	}
	return out, nil
}

func revokeKeys(ctx context.Context, st store.Store, raw []byte) (any, error) {
	var in RevokeIn
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	u, err := st.Auth().UserByEmail(ctx, in.Email)
	if err != nil {
		return nil, fmt.Errorf("user %s: %w", in.Email, err)
	}
	n, err := st.Auth().RevokeKeys(ctx, u.ID, time.Now().UTC())
	if err != nil {
		return nil, err
	}
	return RevokeOut{UserID: u.ID, Revoked: n}, nil
}

func userOut(u store.UserRecord) UserOut {
	return UserOut{UserID: u.ID, AccountID: u.AccountID, Email: u.Email, FirstName: u.FirstName,
		LastName: u.LastName, Role: u.Role, EmailVerified: u.EmailVerified}
}
