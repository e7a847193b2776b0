package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

// Admin operations. Each runs against a store, either opened by the
// command itself (no server running) or, when the server holds the
// database lock, inside the server process via its admin socket. Inputs
// and outputs are JSON either way, so both paths behave the same.

type accountIn struct {
	Name             string `json:"name"`
	SubscriptionDays int    `json:"subscriptionDays"`
	Phone            string `json:"phone"`
	Website          string `json:"website"`
	State            string `json:"state"`
}

type appIn struct {
	Name string `json:"name"`
}

type appOut struct {
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
}

type userIn struct {
	AccountID int64  `json:"accountId"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
	Verified  bool   `json:"verified"`
	Password  string `json:"password"`
}

type userOut struct {
	UserID        int64    `json:"userId"`
	AccountID     int64    `json:"accountId"`
	Email         string   `json:"email"`
	FirstName     string   `json:"firstName"`
	LastName      string   `json:"lastName"`
	Role          app.Role `json:"role"`
	EmailVerified bool     `json:"emailVerified"`
}

type revokeIn struct {
	Email string `json:"email"`
}

type revokeOut struct {
	UserID  int64 `json:"userId"`
	Revoked int   `json:"revoked"`
}

type adminOp func(ctx context.Context, st store.Store, in []byte) (any, error)

var adminOps = map[string]adminOp{
	"accounts.create": func(ctx context.Context, st store.Store, raw []byte) (any, error) {
		var in accountIn
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
	},
	"apps.create": func(ctx context.Context, st store.Store, raw []byte) (any, error) {
		var in appIn
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
		return appOut{AppID: a.ID, AppSecret: a.Secret}, nil
	},
	"users.create": func(ctx context.Context, st store.Store, raw []byte) (any, error) {
		var in userIn
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
		return userOutOf(u), nil
	},
	"users.list": func(ctx context.Context, st store.Store, raw []byte) (any, error) {
		var in struct {
			AccountID int64 `json:"accountId"`
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, err
		}
		us, err := st.Auth().UsersOfAccount(ctx, in.AccountID)
		if err != nil {
			return nil, err
		}
		out := make([]userOut, len(us))
		for i, u := range us {
			out[i] = userOutOf(u)
		}
		return out, nil
	},
	"users.revoke-keys": func(ctx context.Context, st store.Store, raw []byte) (any, error) {
		var in revokeIn
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
		return revokeOut{UserID: u.ID, Revoked: n}, nil
	},
}

// runAdminOp runs op when every text of its input keeps the rule text
// keeps whatever way it enters (app.CheckChars): names and addresses
// given here reach the same documents and exports as the API's. A
// password is no text anyone reads, so it is left to its own rules.
func runAdminOp(ctx context.Context, op adminOp, st store.Store, raw []byte) (any, error) {
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

func userOutOf(u store.UserRecord) userOut {
	return userOut{UserID: u.ID, AccountID: u.AccountID, Email: u.Email, FirstName: u.FirstName,
		LastName: u.LastName, Role: u.Role, EmailVerified: u.EmailVerified}
}

// errNoDatabase is returned by admin commands pointed at a folder without
// a database.
var errNoDatabase = errors.New("no database in the data folder (run \"server serve\" or \"server accounts create\" first)")

// callAdmin runs an admin operation on the data folder: directly when no
// server holds the database, otherwise through the server's admin socket.
func callAdmin(ctx context.Context, data storeFlags, op string, create bool, in, out any) error {
	raw, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var res []byte
	err = withStore(ctx, data, create, func(st store.Store) error {
		v, err := runAdminOp(ctx, adminOps[op], st, raw)
		if err != nil {
			return err
		}
		res, err = json.Marshal(v)
		return err
	}, func(c *http.Client) error {
		resp, err := c.Post("http://admin/op/"+op, "application/json", bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("admin socket: %w", err)
		}
		defer resp.Body.Close()
		res, err = io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			var e struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(res, &e) == nil && e.Error != "" {
				return errors.New(e.Error)
			}
			return fmt.Errorf("admin socket: HTTP %d", resp.StatusCode)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

// withStore runs local with the data folder's store when it can open it,
// or remote with a client of the running server's admin socket when the
// database is locked by that server.
func withStore(ctx context.Context, sf storeFlags, create bool, local func(store.Store) error, remote func(*http.Client) error) error {
	if sf.database != "" {
		// PostgreSQL serves any number of processes: no socket needed.
		st, err := openPostgres(ctx, sf)
		if err != nil {
			return err
		}
		defer st.Close()
		return local(st)
	}
	data := sf.data
	path := filepath.Join(data, dbFile)
	if !create {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("%s: %w", path, errNoDatabase)
		}
	} else if err := os.MkdirAll(data, 0o700); err != nil {
		return err
	}
	st, err := boltstore.Open(path, boltstore.WithTimeout(300*time.Millisecond))
	if err == nil {
		defer st.Close()
		return local(st)
	}
	if !errors.Is(err, boltstore.ErrInUse) {
		return err
	}
	sock := filepath.Join(data, socketFile)
	if _, serr := os.Stat(sock); serr != nil {
		return fmt.Errorf("%w, and the running server has no admin socket at %s", err, sock)
	}
	c := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
	}}
	defer c.CloseIdleConnections()
	return remote(c)
}

// adminSocket is the server side: a Unix socket in the data folder that
// runs admin operations and backups inside the server process.
type adminSocket struct {
	srv  *http.Server
	path string
}

func startAdminSocket(data string, st store.Store, log *slog.Logger) (*adminSocket, error) {
	path := filepath.Join(data, socketFile)
	// The server holds the database lock, so no other server uses this
	// folder: a socket file left here is stale.
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /op/{name}", func(w http.ResponseWriter, r *http.Request) {
		op, ok := adminOps[r.PathValue("name")]
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown admin operation"})
			return
		}
		raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		v, err := runAdminOp(r.Context(), op, st, raw)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		log.Info("admin operation", "op", r.PathValue("name"))
		writeJSON(w, http.StatusOK, v)
	})
	mux.HandleFunc("POST /catalog/import", adminCatalogImport(st, log))
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Trailer", "X-Backup-Bytes, X-Backup-Error")
		n, err := st.Backup(r.Context(), w)
		if err != nil {
			// The status is sent already: the trailer tells the client.
			log.Error("backup failed", "err", err, "bytes", n)
			w.Header().Set("X-Backup-Error", err.Error())
			return
		}
		w.Header().Set("X-Backup-Bytes", fmt.Sprint(n))
		log.Info("backup streamed", "bytes", n)
	})
	s := &adminSocket{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, path: path}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *adminSocket) shutdown(ctx context.Context) {
	s.srv.Shutdown(ctx)
	os.Remove(s.path)
}

func (s *adminSocket) close() {
	s.srv.Close()
	os.Remove(s.path)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
