package pgtest

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// shared is the cluster of this test binary, started by Main.
var shared *Cluster

var dbSeq atomic.Int64

// Main is os.Exit(Run(m)), for a TestMain with nothing else to do.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run starts one cluster for the test binary, runs the tests, removes the
// cluster and returns the exit code. When PostgreSQL cannot start the
// binary fails: tests that need it must not pass without it.
func Run(m *testing.M) int {
	c, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	err = c.waitReady(ctx)
	cancel()
	if err != nil {
		c.Close()
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	shared = c
	code := m.Run()
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return code
}

// Shared is the cluster Main started; the test fails without one.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if shared == nil {
		t.Fatal("pgtest: no cluster: call pgtest.Main from the package's TestMain")
	}
	return shared
}

var unsafe = regexp.MustCompile(`[^a-z0-9_]+`)

// NewDatabase makes a fresh empty database for the test in the shared
// cluster and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	c := Shared(t)
	name := unsafe.ReplaceAllString(strings.ToLower(t.Name()), "_")
	if len(name) > 40 {
		name = name[:40]
	}
	name = fmt.Sprintf("t%d_%s", dbSeq.Add(1), name)
	url, err := c.CreateDatabase(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// NewDatabaseNamed is NewDatabase for fixtures shared by several tests
// (made outside any one test): the database is named name.
func NewDatabaseNamed(name string) (string, error) {
	if shared == nil {
		return "", fmt.Errorf("pgtest: no cluster: call pgtest.Main or pgtest.Run from the package's TestMain")
	}
	return shared.CreateDatabase(context.Background(), fmt.Sprintf("f%d_%s", dbSeq.Add(1), unsafe.ReplaceAllString(strings.ToLower(name), "_")))
}
