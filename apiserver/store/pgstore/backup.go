package pgstore

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// Backup writes a consistent snapshot of the whole database to w: the
// output of pg_dump in its custom format (restore with pg_restore into an
// empty database). pg_dump reads one snapshot while the replicas keep
// serving. It is found on PATH or in /usr/lib/postgresql/*/bin.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	prog, err := pgDump()
	if err != nil {
		return 0, err
	}
	cmd := exec.CommandContext(ctx, prog, "--format=custom", "--no-owner", "--dbname", s.url)
	cw := &countWriter{w: w}
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = cw, &stderr
	if err := cmd.Run(); err != nil {
		return cw.n, fmt.Errorf("backup: pg_dump: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return cw.n, nil
}

func pgDump() (string, error) {
	if p, err := exec.LookPath("pg_dump"); err == nil {
		return p, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_dump")
	if len(dirs) > 0 {
		return dirs[len(dirs)-1], nil
	}
	return "", fmt.Errorf("backup: pg_dump not found (Debian package postgresql-client)")
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
