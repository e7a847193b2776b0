// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// and pg_ctl from Debian's postgresql package, in a temp folder, on a free
// loopback port, run as the postgres OS user when the tests run as root
// (initdb refuses root). A missing PostgreSQL is an error, never a skip.
package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running PostgreSQL server in a temp folder.
type Cluster struct {
	dir  string // holds data/, the socket and the log
	bin  string // folder of initdb, pg_ctl, postgres
	port int
	cred *syscall.Credential // the postgres user's, when run as root
}

// binDir finds the PostgreSQL programs: the newest /usr/lib/postgresql/*/bin,
// else initdb on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return va - vb
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("pgtest: PostgreSQL not found (no /usr/lib/postgresql/*/bin/initdb, no initdb on PATH): install Debian's postgresql package (scripts/setup-debian.sh)")
}

// Start makes and starts a new cluster.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: running as root needs the postgres OS user (initdb refuses root): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: %w", err)
		}
	}
	if err := c.run("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

// run runs one of the PostgreSQL programs as the cluster's user.
func (c *Cluster) run(prog string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, prog), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("pgtest: %s: %w\n%s\n%s", prog, err, out.Bytes(), log)
	}
	return nil
}

// Start starts the server (again, after Stop) on a free port the first
// time, the same port after.
func (c *Cluster) Start() error {
	if c.port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		c.port = p
	}
	// fsync off: a test cluster is thrown away, and fsync
	// would make every commit wait for a shared, noisy disk.
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200", c.port, c.dir)
	return c.run("pg_ctl", "start", "-w", "-t", "60", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts)
}

// Stop stops the server at once (connections are cut, as in a crash of
// the database host); Start brings it back with its data.
func (c *Cluster) Stop() error {
	return c.run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", c.data())
}

// Close stops the server and deletes its folder.
func (c *Cluster) Close() error {
	err := c.Stop()
	os.RemoveAll(c.dir)
	return err
}

// URL is the address of a database of the cluster.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// BinDir is the folder of the PostgreSQL programs (pg_dump, pg_restore).
func (c *Cluster) BinDir() string { return c.bin }

// CreateDatabase makes a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: connect: %w", err)
	}
	defer conn.Close(ctx)
	// FILE_COPY: with fsync off it is the quicker way to copy the small
	// template.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template0 STRATEGY FILE_COPY"); err != nil {
		return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return c.URL(name), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady waits until the server accepts connections.
func (c *Cluster) waitReady(ctx context.Context) error {
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgtest: server not ready: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
