package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"proposaldesk"
	"proposaldesk/apiserver"
	"proposaldesk/apiserver/adminrpc"
	"proposaldesk/apiserver/connlimit"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/lockout"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/apiserver/webhook"
)

// Files inside the data folder.
const (
	dbFile     = "proposals.db"
	demoFile   = "demo.json"
	socketFile = "admin.sock"
)

const serveSynopsis = `serve [flags]

Runs the API on --addr with its data in --data (created if missing; the
database is DATA/proposals.db). Stops gracefully on SIGINT or SIGTERM:
in-flight requests finish (up to --shutdown-timeout), then the database
is closed.

With --demo, the first start seeds demo accounts, users and proposals and
every start writes DATA/demo.json (mode 0600) with the listening base URL,
the demo app's ID and secret and every demo user's password. Passwords are
random per data folder. --demo-proposals N grows the main demo account to
N proposals, --demo-catalog N its catalog (20,000 items) to N items.

Outside loopback, serve TLS (--tls-cert and --tls-key) or run behind a
TLS-terminating proxy and set --public-url to the https URL clients use;
plain HTTP on a non-loopback address is refused unless --insecure-http.`

type serveFlags struct {
	addr, data, publicURL, tlsCert, tlsKey, logFormat     string
	demo, strict, trustForwarded, insecureHTTP            bool
	demoProposals, demoCatalog, maxConns, maxConnsPerAddr int
	shutdownTimeout, idleTimeout                          time.Duration
	db                                                    storeFlags
	mail                                                  mailFlags
	webhookAllowPrivate                                   bool
	webhookTimeout                                        time.Duration
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	tuneGC()
	log := newLogger(stderr, f.logFormat)
	slog.SetDefault(log)
	if err := os.MkdirAll(f.data, 0o700); err != nil {
		return err
	}
	st, err := openServeStore(ctx, f)
	if err != nil {
		return err
	}
	defer closeStore(st, log)
	ln, err := listen(f, log)
	if err != nil {
		return err
	}
	srv, api, stopWebhooks, err := newHTTPServer(ctx, f, st, ln, log)
	if err != nil {
		ln.Close()
		return err
	}
	// The webhook worker stops before the store closes (deferred
	// earlier, so run later).
	defer stopWebhooks()
	admin := startAdmin(f, st, log)
	if path := os.Getenv("PD_CPUPROFILE"); path != "" {
		// For finding where a load run's time goes: a CPU profile of
		// the whole serving life ("{pid}" in the path tells replicas
		// apart).
		stopProfile, err := startCPUProfile(strings.ReplaceAll(path, "{pid}", strconv.Itoa(os.Getpid())))
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	return serveUntilSignal(ctx, srv, api, ln, admin, f, log)
}

// parseServeFlags reads serve's flags and checks those that go together.
func parseServeFlags(args []string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := newFlags("serve", serveSynopsis, stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free port)")
	fs.StringVar(&f.data, "data", "./data", "data `folder`")
	fs.BoolVar(&f.demo, "demo", false, "seed demo data on first start and write DATA/demo.json")
	fs.IntVar(&f.demoProposals, "demo-proposals", 0, "with --demo, grow the main demo account to `N` proposals")
	fs.IntVar(&f.demoCatalog, "demo-catalog", 0, "with --demo, grow the main demo account's catalog to `N` items (it starts with 20,000)")
	fs.StringVar(&f.publicURL, "public-url", "", "base `URL` clients use (behind a proxy); signatures are checked against it")
	fs.BoolVar(&f.strict, "strict-signing", false, "refuse the compatibility signature over the URL without its query string")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "TLS certificate `file` (PEM); serve HTTPS with --tls-key")
	fs.StringVar(&f.tlsKey, "tls-key", "", "TLS private key `file` (PEM)")
	fs.BoolVar(&f.insecureHTTP, "insecure-http", false, "allow plain HTTP on a non-loopback address without TLS or an https --public-url")
	fs.BoolVar(&f.trustForwarded, "trust-forwarded", false, "honour X-Forwarded-Proto/Host/For (only behind a proxy that sets them)")
	fs.DurationVar(&f.shutdownTimeout, "shutdown-timeout", 20*time.Second, "how long in-flight requests may take to finish on shutdown")
	fs.IntVar(&f.maxConns, "max-conns", 0, "cap on open connections (0: derived from the open-files limit; see README)")
	fs.IntVar(&f.maxConnsPerAddr, "max-conns-per-addr", 0, "cap on open connections from one client IP (0: a quarter of --max-conns)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", 30*time.Second, "how long an idle keep-alive connection stays open")
	fs.StringVar(&f.logFormat, "log-format", "auto", "log format: auto (JSON unless stderr is a terminal), json or text")
	fs.BoolVar(&f.webhookAllowPrivate, "webhook-allow-private", false, "let webhook URLs reach loopback and private networks, over http too (an office server delivering inside its LAN)")
	fs.DurationVar(&f.webhookTimeout, "webhook-timeout", webhook.DefaultTimeout, "how long one webhook delivery attempt may take")
	databaseFlag(fs, &f.db)
	mailFlag(fs, &f.mail)
	if err := parse(fs, args); err != nil {
		return f, err
	}
	f.db.data = f.data
	switch {
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return f, errors.New("--tls-cert and --tls-key go together")
	case f.demoProposals > 0 && !f.demo:
		return f, errors.New("--demo-proposals needs --demo")
	case f.demoCatalog > 0 && !f.demo:
		return f, errors.New("--demo-catalog needs --demo")
	}
	return f, nil
}

func closeStore(st store.Store, log *slog.Logger) {
	if err := st.Close(); err != nil {
		log.Error("closing the database", "err", err)
	} else {
		log.Info("database closed")
	}
}

// serveListener is the API's listener: TLS when configured, capped in
// connections, and the base URL clients reach it by.
type serveListener struct {
	net.Listener
	limited *connlimit.Limiter
	baseURL string
	tls     bool
}

// listen opens --addr, refusing plain HTTP where it would carry
// passwords over a network (checkPlainHTTP).
func listen(f serveFlags, log *slog.Logger) (*serveListener, error) {
	var tlsCfg *tls.Config
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("TLS: %w", err)
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, err
	}
	if err := checkPlainHTTP(ln.Addr(), tlsCfg != nil, f.publicURL, f.insecureHTTP); err != nil {
		ln.Close()
		return nil, err
	}
	scheme := "http"
	if tlsCfg != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tlsCfg)
	}
	limited := connlimit.New(ln, connLimits(f, log), log)
	sl := &serveListener{Listener: limited, limited: limited, baseURL: scheme + "://" + limited.Addr().String(), tls: tlsCfg != nil}
	if f.publicURL != "" {
		sl.baseURL = f.publicURL
	}
	return sl, nil
}

// newHTTPServer seeds the demo data if asked and builds the API's server:
// the HTTP server and the API it serves, whose background work (mail,
// expiries) serveUntilSignal runs, and starts the webhook worker, which
// runs until stopWebhooks.
func newHTTPServer(ctx context.Context, f serveFlags, st store.Store, ln *serveListener, log *slog.Logger) (srv *http.Server, api *apiserver.Server, stopWebhooks func(), err error) {
	if f.demo {
		if err := writeDemo(ctx, st, f, ln.baseURL, log); err != nil {
			return nil, nil, nil, err
		}
	}
	devKey, err := deviceKey(ctx, st, f.data)
	if err != nil {
		return nil, nil, nil, err
	}
	mailCfg, err := f.mail.config(log)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := apiserver.Config{
		PublicURL: f.publicURL, StrictSigning: f.strict, TrustForwarded: f.trustForwarded, Logger: log,
		DeviceKey: devKey, Mail: mailCfg, WebhookAllowPrivate: f.webhookAllowPrivate,
	}
	if pg, ok := st.(*pgstore.Store); ok {
		// Replicas share the failed sign-in counts, so the lockout holds
		// however requests are spread over them.
		cfg.SignInCounter = pg.SignInCounter(lockout.Default)
	}
	stopWebhooks = startWebhooks(st, &cfg, f.webhookTimeout, log)
	api = apiserver.New(cfg, st)
	return &http.Server{
		Handler:           withProbes(api, st),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       f.idleTimeout,
		ConnState:         ln.limited.ConnState,
		MaxHeaderBytes:    apiserver.HardMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}, api, stopWebhooks, nil
}

// startAdmin opens the admin socket of a bbolt data folder (nil if it
// cannot; the server runs without). On PostgreSQL admin commands open the
// database themselves.
func startAdmin(f serveFlags, st store.Store, log *slog.Logger) *adminrpc.Socket {
	if f.db.database != "" {
		return nil
	}
	admin, err := adminrpc.Listen(filepath.Join(f.data, socketFile), st, log)
	if err != nil {
		log.Warn("admin socket unavailable; admin commands need the server stopped", "err", err)
		return nil
	}
	return admin
}

// serveUntilSignal serves until SIGINT or SIGTERM, then lets in-flight
// requests finish for up to --shutdown-timeout before closing what
// remains.
func serveUntilSignal(ctx context.Context, srv *http.Server, api *apiserver.Server, ln *serveListener, admin *adminrpc.Socket, f serveFlags, log *slog.Logger) error {
	sigCtx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// The mail queue stops before the database closes (deferred
	// earlier, so run later).
	mailCtx, stopMail := context.WithCancel(context.WithoutCancel(ctx))
	mailDone := make(chan struct{})
	go func() { api.RunMail(mailCtx); close(mailDone) }()
	defer func() { stopMail(); <-mailDone }()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	// Client links past their date move to Expired (once, even with
	// several replicas: apiserver.ExpireDue).
	go api.RunExpiries(sigCtx, time.Minute)
	// Only now: whoever waits for this line may signal at once.
	log.Info("listening", "version", proposaldesk.Version, "addr", ln.Addr().String(), "baseUrl", ln.baseURL, "data", f.data, "demo", f.demo, "tls", ln.tls)
	select {
	case err := <-serveErr:
		if admin != nil {
			admin.Close()
		}
		return fmt.Errorf("serve: %w", err)
	case <-sigCtx.Done():
	}
	stop()
	log.Info("shutting down: finishing in-flight requests", "timeout", f.shutdownTimeout)
	shutCtx, cancel := context.WithTimeout(context.Background(), f.shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutCtx)
	if admin != nil {
		admin.Shutdown(shutCtx)
	}
	if err != nil {
		log.Warn("shutdown timed out; closing remaining connections", "err", err)
		srv.Close()
	}
	log.Info("server stopped")
	return nil
}

// writeDemo seeds (first start) or grows the demo data and writes
// DATA/demo.json.
func writeDemo(ctx context.Context, st store.Store, f serveFlags, baseURL string, log *slog.Logger) error {
	var creds demo.Credentials
	var err error
	if pg, ok := st.(*pgstore.Store); ok {
		creds, err = seedShared(ctx, pg, f, baseURL, log)
	} else {
		creds, err = demo.Seed(ctx, st, demo.Options{BaseURL: baseURL, GrowTo: f.demoProposals, CatalogSize: f.demoCatalog, Logger: log})
	}
	if err != nil {
		return err
	}
	path := filepath.Join(f.data, demoFile)
	if !creds.Created && f.db.database == "" {
		// Passwords exist only in the demo.json of the first start.
		var earlier demo.Credentials
		b, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(b, &earlier)
		}
		if err != nil {
			log.Warn("demo data was seeded before but its demo.json is unreadable: passwords unknown; start with an empty --data folder to get new ones", "err", err)
		}
		creds.MergePasswords(earlier)
	}
	b, err := json.MarshalIndent(creds, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, append(b, '\n'), 0o600); err != nil {
		return err
	}
	log.Info("demo credentials written", "file", path, "seeded", creds.Created)
	return nil
}

// writeFileAtomic writes data to a temporary file beside path, syncs it
// and renames it into place, so readers never see half a file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// tuneGC trades memory for latency: the server's live heap is small (tens
// of MB), so with Go's default GOGC=100 it collects very often under load,
// and the collections show in the p99. 400 measured p99 of signed GETs at
// 32 clients about a third lower here. GOGC and GOMEMLIMIT set by the
// operator win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30) // collect harder before 1 GiB rather than grow
	}
}

// connLimits raises the open-files limit and derives the connection caps
// from it; the flags win.
func connLimits(f serveFlags, log *slog.Logger) connlimit.Limits {
	nofile, err := raiseNoFile()
	if err != nil {
		log.Warn("cannot read or raise the open-files limit; assuming 1024", "err", err)
		nofile = 1024
	}
	lim := connlimit.DefaultLimits(nofile)
	if f.maxConns > 0 {
		lim.Total = f.maxConns
		lim.PerAddr = max(f.maxConns/4, 1)
	}
	if f.maxConnsPerAddr > 0 {
		lim.PerAddr = f.maxConnsPerAddr
	}
	log.Info("connection limits", "open_files", nofile, "max_conns", lim.Total, "max_conns_per_addr", lim.PerAddr, "idle_timeout", f.idleTimeout)
	return lim
}

// startCPUProfile writes a CPU profile to path until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
