package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"proposaldesk/apiserver/adminrpc"
	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/cmd/server/internal/load"
)

func cmdAccountsCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var in adminrpc.AccountIn
	fs := newFlags("accounts create", "accounts create --name NAME [flags]\n\nAdds a dealer account and prints its ID.", stderr)
	dataFlag(fs, &data)
	fs.StringVar(&in.Name, "name", "", "dealer company `name` (required)")
	fs.IntVar(&in.SubscriptionDays, "subscription-days", 365, "the subscription is active for this many `days` from now")
	fs.StringVar(&in.Phone, "phone", "", "company phone")
	fs.StringVar(&in.Website, "website", "", "company web site URL")
	fs.StringVar(&in.State, "state", "", "two-letter US `state` of the dealer's office (dealer-location tax)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.Name == "" {
		fs.Usage()
		return errUsage
	}
	var out store.Account
	if err := callAdmin(ctx, data, adminrpc.OpAccountsCreate, true, in, &out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "account %d %q created; subscription until %s\n", out.ID, out.Name, out.SubscriptionExpiry.Format(time.DateOnly))
	return nil
}

// Connection is a connection file: what a client needs to reach the
// server as an app.
type Connection struct {
	BaseURL   string `json:"baseUrl"`
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
}

func cmdAppsCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var outFile, baseURL string
	var in adminrpc.AppIn
	fs := newFlags("apps create", "apps create --name NAME [--out FILE] [flags]\n\n"+
		"Adds a client app and prints its ID and secret. The secret is shown once and\n"+
		"cannot be read back; with --out it is also written, with the base URL, to a\n"+
		"connection file {baseUrl, appId, appSecret} of mode 0600.", stderr)
	dataFlag(fs, &data)
	fs.StringVar(&in.Name, "name", "", "app `name` (required), e.g. \"Proposal Desk desktop\"")
	fs.StringVar(&outFile, "out", "", "write a connection file to this `path` (mode 0600)")
	fs.StringVar(&baseURL, "base-url", "http://127.0.0.1:8080", "the server's base `URL` for the connection file")
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.Name == "" {
		fs.Usage()
		return errUsage
	}
	var out adminrpc.AppOut
	if err := callAdmin(ctx, data, adminrpc.OpAppsCreate, true, in, &out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "appId:     %s\nappSecret: %s\n(the secret is shown only now)\n", out.AppID, out.AppSecret)
	if outFile != "" {
		b, _ := json.MarshalIndent(Connection{BaseURL: baseURL, AppID: out.AppID, AppSecret: out.AppSecret}, "", "  ")
		if err := writeFileAtomic(outFile, append(b, '\n'), 0o600); err != nil {
			return fmt.Errorf("app created, but the connection file was not written: %w", err)
		}
		fmt.Fprintf(stdout, "connection file written to %s\n", outFile)
	}
	return nil
}

func cmdUsersCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var in adminrpc.UserIn
	fs := newFlags("users create", "users create --account ID --email EMAIL --role ROLE [flags]\n\n"+
		"Adds a user. Without --password (or PD_PASSWORD) a random password is made\n"+
		"and printed once.", stderr)
	dataFlag(fs, &data)
	fs.Int64Var(&in.AccountID, "account", 0, "account `ID` (required)")
	fs.StringVar(&in.Email, "email", "", "login email (required)")
	fs.StringVar(&in.FirstName, "first-name", "", "first name")
	fs.StringVar(&in.LastName, "last-name", "", "last name")
	fs.StringVar(&in.Role, "role", "Sales", "`role`: Admin, Sales or Viewer")
	fs.BoolVar(&in.Verified, "verified", true, "the email address is verified (unverified users cannot log in)")
	fs.StringVar(&in.Password, "password", "", "initial password (prefer PD_PASSWORD to keep it out of the process list)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.AccountID == 0 || in.Email == "" {
		fs.Usage()
		return errUsage
	}
	generated := in.Password == ""
	if generated {
		p, err := auth.RandomPassword()
		if err != nil {
			return err
		}
		in.Password = p
	}
	var out adminrpc.UserOut
	if err := callAdmin(ctx, data, adminrpc.OpUsersCreate, false, in, &out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user %d %s (%s) created in account %d\n", out.UserID, out.Email, out.Role, out.AccountID)
	if generated {
		fmt.Fprintf(stdout, "password: %s\n(shown only now)\n", in.Password)
	}
	return nil
}

func cmdUsersList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var accountID int64
	var asJSON bool
	fs := newFlags("users list", "users list --account ID [flags]\n\nLists the users of an account.", stderr)
	dataFlag(fs, &data)
	fs.Int64Var(&accountID, "account", 0, "account `ID` (required)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if accountID == 0 {
		fs.Usage()
		return errUsage
	}
	var out []adminrpc.UserOut
	if err := callAdmin(ctx, data, adminrpc.OpUsersList, false, adminrpc.AccountRef{AccountID: accountID}, &out); err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tROLE\tVERIFIED")
	for _, u := range out {
		fmt.Fprintf(tw, "%d\t%s\t%s %s\t%s\t%v\n", u.UserID, u.Email, u.FirstName, u.LastName, u.Role, u.EmailVerified)
	}
	return tw.Flush()
}

func cmdUsersRevokeKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var in adminrpc.RevokeIn
	fs := newFlags("users revoke-keys", "users revoke-keys --email EMAIL [flags]\n\n"+
		"Revokes every API key of the user (all devices); they log in again.", stderr)
	dataFlag(fs, &data)
	fs.StringVar(&in.Email, "email", "", "the user's login email (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if in.Email == "" {
		fs.Usage()
		return errUsage
	}
	var out adminrpc.RevokeOut
	if err := callAdmin(ctx, data, adminrpc.OpUsersRevokeKeys, false, in, &out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "revoked %d key(s) of user %d\n", out.Revoked, out.UserID)
	return nil
}

func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var out string
	fs := newFlags("backup", "backup --out FILE [flags]\n\n"+
		"Writes a consistent copy of the database to FILE (mode 0600), whether or not\n"+
		"the server is running: without a server it opens the database itself; with\n"+
		"one it asks the server over DATA/admin.sock, which streams a snapshot taken\n"+
		"in a read transaction while requests continue. FILE appears only complete.", stderr)
	dataFlag(fs, &data)
	fs.StringVar(&out, "out", "", "backup `file` to write (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if out == "" {
		fs.Usage()
		return errUsage
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	var n int64
	err = withStore(ctx, data, false, func(st store.Store) error {
		var err error
		n, err = st.Backup(ctx, tmp)
		return err
	}, func(c *adminrpc.Client) error {
		var err error
		n, err = c.Backup(ctx, tmp)
		return err
	})
	if err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup of %d bytes written to %s\n", n, out)
	return nil
}

func cmdLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseLoadFlags(args, stderr)
	if err != nil {
		return err
	}
	if f.wrkPath != "" {
		return wrkTarget(ctx, f.cfg, f.wrkPath, f.bareAddr, stdout)
	}
	tuneGC() // the generator's heap is small too; its collections would be its own p99
	if path := os.Getenv("PD_CPUPROFILE"); path != "" {
		// The generator's own cost, beside the server's profile.
		stopProfile, err := startCPUProfile(strings.ReplaceAll(path, "{pid}", strconv.Itoa(os.Getpid())))
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	res, err := load.Run(ctx, f.cfg)
	if err != nil {
		return err
	}
	if f.asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprint(stdout, res)
	return nil
}

// loadFlags are load's flags, the connection file read into cfg.
type loadFlags struct {
	cfg               load.Config
	asJSON            bool
	wrkPath, bareAddr string
}

func parseLoadFlags(args []string, stderr io.Writer) (loadFlags, error) {
	var f loadFlags
	var connFile string
	fs := newFlags("load", "load --connection-file FILE --user EMAIL --password PW [flags]\n\n"+
		"Load-tests a running server: exchanges the user's password for an API key,\n"+
		"then N clients each send signed requests back to back for the duration, over\n"+
		"keep-alive connections, and the throughput, latency percentiles (p50/p90/p99)\n"+
		"and errors are printed. Scenarios: get (a random proposal of the first 1,000),\n"+
		"list (text search), create-area (areas on the client's own new proposals;\n"+
		"writes data), mixed (70% get, 20% list, 10% create-area), failed-signin\n"+
		"(wrong passwords of unknown users from made-up X-Forwarded-For addresses,\n"+
		"for a server with --trust-forwarded), client-page (each client sends one\n"+
		"proposal and views its client link; writes data). Only loopback URLs\n"+
		"are loaded unless --allow-remote. The connection file is a demo.json or an\n"+
		"\"apps create --out\" file; --url overrides its baseUrl.", stderr)
	fs.StringVar(&f.cfg.BaseURL, "url", "", "server base `URL` (default: the connection file's baseUrl)")
	fs.StringVar(&connFile, "connection-file", "", "`file` with {baseUrl, appId, appSecret} (demo.json works)")
	fs.StringVar(&f.cfg.User, "user", "", "user `email`")
	fs.StringVar(&f.cfg.Password, "password", "", "user password (prefer PD_PASSWORD)")
	fs.IntVar(&f.cfg.Clients, "clients", 8, "concurrent clients `N`")
	fs.DurationVar(&f.cfg.Duration, "duration", 10*time.Second, "how long to measure")
	fs.DurationVar(&f.cfg.Warmup, "warmup", time.Second, "how long the clients run before the measured duration, not counted")
	fs.StringVar(&f.cfg.Scenario, "scenario", "get", "get, list, create-area, mixed, catalog, failed-signin, big-text or client-page")
	fs.StringVar(&f.cfg.SearchText, "search", "residence", "SearchText of the list scenario")
	fs.BoolVar(&f.cfg.AllowRemote, "allow-remote", false, "allow a base URL that is not loopback")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fs.StringVar(&f.wrkPath, "wrk-target", "", "instead of a load, print a signed GET of `PATH` as JSON {url, headers} for wrk")
	fs.StringVar(&f.bareAddr, "bare-addr", "", "with --wrk-target, then serve the bare baseline (HMAC check, same bytes) on `ADDR` until stopped")
	if err := parse(fs, args); err != nil {
		return f, err
	}
	if connFile == "" || f.cfg.User == "" || f.cfg.Password == "" {
		fs.Usage()
		return f, errUsage
	}
	b, err := os.ReadFile(connFile)
	if err != nil {
		return f, err
	}
	var conn Connection
	if err := json.Unmarshal(b, &conn); err != nil {
		return f, fmt.Errorf("%s: %w", connFile, err)
	}
	if f.cfg.BaseURL == "" {
		f.cfg.BaseURL = conn.BaseURL
	}
	f.cfg.AppID, f.cfg.AppSecret = conn.AppID, conn.AppSecret
	return f, nil
}

// wrkTarget prints a signed GET for wrk and, with bareAddr, serves the
// bare baseline of it.
func wrkTarget(ctx context.Context, cfg load.Config, path, bareAddr string, stdout io.Writer) error {
	t, err := load.SignedGet(ctx, cfg, path)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(stdout).Encode(t); err != nil || bareAddr == "" {
		return err
	}
	ln, err := net.Listen("tcp", bareAddr)
	if err != nil {
		return err
	}
	return load.ServeBare(ctx, ln, cfg.BaseURL, cfg.AppSecret, t.Body)
}
