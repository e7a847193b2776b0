package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"proposaldesk/apiserver/adminrpc"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
)

// errNoDatabase is returned by admin commands pointed at a folder without
// a database.
var errNoDatabase = errors.New("no database in the data folder (run \"server serve\" or \"server accounts create\" first)")

// callAdmin runs an admin operation (adminrpc.Op…) on the data folder:
// directly when no server holds the database, otherwise through the
// server's admin socket.
func callAdmin(ctx context.Context, data storeFlags, op string, create bool, in, out any) error {
	return withStore(ctx, data, create, func(st store.Store) error {
		return adminrpc.Local(ctx, st, op, in, out)
	}, func(c *adminrpc.Client) error {
		return c.Call(ctx, op, in, out)
	})
}

// withStore runs local with the data folder's store when it can open it,
// or remote with a client of the running server's admin socket when the
// database is locked by that server.
func withStore(ctx context.Context, sf storeFlags, create bool, local func(store.Store) error, remote func(*adminrpc.Client) error) error {
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
	c := adminrpc.Dial(sock)
	defer c.Close()
	return remote(c)
}
