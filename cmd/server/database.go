package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"proposaldesk"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/apiserver/store/pgstore"
)

// storeFlags say where the data is: a bbolt file in --data, or the
// PostgreSQL database of --database when it is set.
type storeFlags struct {
	data, database   string
	maxConns         int
	statementTimeout time.Duration
}

type flagSet interface {
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}

// dataFlag adds --data and --database (PD_DATA, PD_DATABASE).
func dataFlag(fs flagSet, sf *storeFlags) {
	fs.StringVar(&sf.data, "data", "./data", "data `folder` (as given to serve)")
	databaseFlag(fs, sf)
}

func databaseFlag(fs flagSet, sf *storeFlags) {
	fs.StringVar(&sf.database, "database", "", "PostgreSQL `URL` (postgres://user:pw@host/db); without it the bbolt file in --data")
	fs.IntVar(&sf.maxConns, "db-max-conns", 0, "with --database, the most `connections` this process opens (default: max(4, CPUs))")
	fs.DurationVar(&sf.statementTimeout, "db-statement-timeout", 10*time.Second, "with --database, cancel statements running longer than this")
}

func openPostgres(ctx context.Context, sf storeFlags) (*pgstore.Store, error) {
	opts := []pgstore.Option{pgstore.WithStatementTimeout(sf.statementTimeout)}
	if sf.maxConns > 0 {
		opts = append(opts, pgstore.WithMaxConns(sf.maxConns))
	}
	st, err := pgstore.Open(ctx, sf.database, opts...)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return st, nil
}

const migrateSynopsis = `migrate --database URL

Applies the schema migrations this server has and the PostgreSQL database
lacks, then exits. serve does the same at start (under an advisory lock,
so replicas starting together are safe); run migrate first to upgrade
before rolling the replicas.`

func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var sf storeFlags
	fs := newFlags("migrate", migrateSynopsis, stderr)
	databaseFlag(fs, &sf)
	if err := parse(fs, args); err != nil {
		return err
	}
	if sf.database == "" {
		fs.Usage()
		return errUsage
	}
	st, err := openPostgres(ctx, sf) // Open migrates
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintf(stdout, "database at schema version %d\n", pgstore.SchemaVersion())
	return nil
}

// pinger is a store that can tell whether its database answers.
type pinger interface{ Ping(context.Context) error }

// withProbes answers GET /healthz (the process is up, and which version
// it runs, so a rollout can be watched) and GET /readyz (its database
// answers, so a proxy sends it traffic) before the API. Both are
// unsigned and say nothing about the data.
func withProbes(api http.Handler, st store.Store) http.Handler {
	// A path test rather than a ServeMux in front: every API request
	// passes here, and the API routes it once itself.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			api.ServeHTTP(w, r)
			return
		}
		switch r.URL.Path {
		case "/healthz":
			w.Header().Set("Content-Type", "application/json")
			w.Write(healthzBody)
		case "/readyz":
			if p, ok := st.(pinger); ok {
				ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
				defer cancel()
				if err := p.Ping(ctx); err != nil {
					http.Error(w, "database unavailable", http.StatusServiceUnavailable)
					return
				}
			}
			w.Write([]byte("ready\n"))
		default:
			api.ServeHTTP(w, r)
		}
	})
}

// healthzBody is /healthz's answer: fixed for the life of the process.
var healthzBody = []byte(`{"status":"ok","version":"` + proposaldesk.Version + `"}` + "\n")

// openServeStore opens serve's store: PostgreSQL with --database, else
// the bbolt file in --data (which one process holds at a time).
func openServeStore(ctx context.Context, f serveFlags) (store.Store, error) {
	if f.db.database != "" {
		return openPostgres(ctx, f.db)
	}
	st, err := boltstore.Open(filepath.Join(f.data, dbFile), boltstore.WithTimeout(2*time.Second))
	if err != nil {
		if errors.Is(err, boltstore.ErrInUse) {
			return nil, fmt.Errorf("%w: is another server running on %s?", err, f.data)
		}
		return nil, err
	}
	return st, nil
}

// demoLock and demoMeta: replicas on one database seed the demo data once
// (the first to take the lock) and share its passwords through the
// database, as the contract asks for demo mode only.
const (
	demoLock = 0x70645f64656d6f // "pd_demo"
	demoMeta = "demoCredentials"
)

// seedShared seeds or grows the demo data under the demo lock and returns
// credentials with the passwords the seeding replica kept.
func seedShared(ctx context.Context, st *pgstore.Store, f serveFlags, baseURL string, log *slog.Logger) (demo.Credentials, error) {
	var creds demo.Credentials
	err := st.Locked(ctx, demoLock, func() error {
		var err error
		creds, err = demo.Seed(ctx, st, demo.Options{BaseURL: baseURL, GrowTo: f.demoProposals, CatalogSize: f.demoCatalog, Logger: log})
		if err != nil {
			return err
		}
		if creds.Created {
			b, err := json.Marshal(creds)
			if err != nil {
				return err
			}
			return st.SetMeta(ctx, demoMeta, string(b))
		}
		raw, found, err := st.Meta(ctx, demoMeta)
		if err != nil || !found {
			if err == nil {
				log.Warn("demo data was seeded without shared passwords; passwords unknown")
			}
			return err
		}
		var earlier demo.Credentials
		if err := json.Unmarshal([]byte(raw), &earlier); err != nil {
			return fmt.Errorf("demo credentials in the database: %w", err)
		}
		creds.MergePasswords(earlier)
		return nil
	})
	return creds, err
}

const migrateDataSynopsis = `migrate-data --from DATA_DIR --database URL

Copies the bbolt data set in DATA_DIR (stop its server first) into an
empty PostgreSQL database, in one transaction: accounts, apps, users, API
keys, proposals, contacts, locations, idempotency records, every ID and
counter, the changes feed positions and the store ID. Signed-in clients
keep their keys and sync cursors.`

func cmdMigrateData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var sf storeFlags
	var from string
	fs := newFlags("migrate-data", migrateDataSynopsis, stderr)
	fs.StringVar(&from, "from", "", "bbolt data `folder` to copy (required)")
	databaseFlag(fs, &sf)
	if err := parse(fs, args); err != nil {
		return err
	}
	if from == "" || sf.database == "" {
		fs.Usage()
		return errUsage
	}
	path := filepath.Join(from, dbFile)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("%s: %w", path, errNoDatabase)
	}
	src, err := boltstore.Open(path, boltstore.WithTimeout(300*time.Millisecond))
	if err != nil {
		if errors.Is(err, boltstore.ErrInUse) {
			return fmt.Errorf("%w: stop the server on %s first", err, from)
		}
		return err
	}
	defer src.Close()
	dst, err := openPostgres(ctx, sf)
	if err != nil {
		return err
	}
	defer dst.Close()
	start := time.Now()
	if err := dst.Import(ctx, func(sink store.Sink) error { return src.CopyTo(ctx, sink) }); err != nil {
		return fmt.Errorf("migrate-data: %w", err)
	}
	fmt.Fprintf(stdout, "copied %s into the database (store %s) in %s\n", path, src.StoreID(), time.Since(start).Round(time.Millisecond))
	return nil
}
