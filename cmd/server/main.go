// Command server runs the Proposal Desk API server and its admin tasks.
//
//	server serve            run the API (optionally with demo data)
//	server accounts create  add a dealer account
//	server apps create      add a client app; prints its secret once
//	server users create     add a user to an account
//	server users list       list an account's users
//	server users revoke-keys  revoke every API key of a user
//	server catalog import   import an account's catalog from CSV
//	server backup           write a consistent copy of the database
//	server migrate          apply the PostgreSQL schema migrations
//	server migrate-data     copy a bbolt data folder into PostgreSQL
//	server load             load-test a running server (loopback only)
//	server export           export proposals (CSV, JSON Lines) or a PDF via the API
//
// Every flag can also be set from an environment variable: PD_ and the
// flag name in upper case with dashes as underscores (--public-url is
// PD_PUBLIC_URL). A flag on the command line wins over the environment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"proposaldesk"
)

const usage = `Usage: server <command> [flags]

Commands:
  serve                 run the API server
  accounts create       add a dealer account
  apps create           add a client app (prints its secret once)
  users create          add a user to an account
  users list            list the users of an account
  users revoke-keys     revoke every API key of a user
  catalog import        import an account's catalog from a CSV file
  backup                write a consistent copy of the database
  migrate               apply the PostgreSQL schema migrations and exit
  migrate-data          copy a bbolt data folder into an empty PostgreSQL database
  load                  load-test a running server on loopback
  export                export proposals (CSV, JSON Lines) or one PDF, as an Admin
  version               print the version (also --version)

Run "server <command> --help" for the command's flags. Every flag can
also come from the environment: PD_<FLAG NAME> in upper case with dashes
as underscores (e.g. --public-url from PD_PUBLIC_URL); the command line
wins.

Admin commands (accounts, apps, users, catalog, backup) open the data folder
directly when no server is running on it. While "serve" runs, the
database file is locked by the server, so they send the same request to
the running server over its admin socket DATA/admin.sock instead (a Unix
socket only the server's OS user can open; it is not reachable over the
network). With --database (PD_DATABASE) every command, serve included,
uses that PostgreSQL database instead of --data: any number of serve
replicas and admin commands share it, with no socket in between.
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error already explained by printed usage.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "version" || args[0] == "--version" || args[0] == "-version" {
		fmt.Fprintf(stdout, "Proposal Desk server %s\n", proposaldesk.Version)
		return 0
	}
	cmd, rest := args[0], args[1:]
	subs, ok := commands[cmd]
	if !ok {
		fmt.Fprintf(stderr, "server: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	err := dispatch(ctx, cmd, subs, rest, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "server %s: %v\n", cmd, err)
		return 1
	}
}

type command func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// commands are the commands by name, each with its subcommands ("" for
// a command that has none).
var commands = map[string]map[string]command{
	"serve":        {"": cmdServe},
	"accounts":     {"create": cmdAccountsCreate},
	"apps":         {"create": cmdAppsCreate},
	"users":        {"create": cmdUsersCreate, "list": cmdUsersList, "revoke-keys": cmdUsersRevokeKeys},
	"catalog":      {"import": cmdCatalogImport},
	"backup":       {"": cmdBackup},
	"migrate":      {"": cmdMigrate},
	"migrate-data": {"": cmdMigrateData},
	"load":         {"": cmdLoad},
	"export":       {"": cmdExport},
}

// dispatch runs the command name of subs, or its subcommand named by the
// first argument.
func dispatch(ctx context.Context, name string, subs map[string]command, args []string, stdout, stderr io.Writer) error {
	if f, ok := subs[""]; ok {
		return f(ctx, args, stdout, stderr)
	}
	sub, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, rest = args[0], args[1:]
	}
	if f, ok := subs[sub]; ok {
		return f(ctx, rest, stdout, stderr)
	}
	return badSub(stderr, name, sub, strings.Join(slices.Sorted(maps.Keys(subs)), ", "))
}

func badSub(stderr io.Writer, cmd, got, want string) error {
	if got == "" {
		fmt.Fprintf(stderr, "server %s: missing subcommand (%s)\n", cmd, want)
	} else {
		fmt.Fprintf(stderr, "server %s: unknown subcommand %q (%s)\n", cmd, got, want)
	}
	return errUsage
}

// envName is the environment variable of a flag.
func envName(flagName string) string {
	return "PD_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlags makes a command's flag set whose help lists each flag with
// its environment variable.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: server %s\n\n%s\n\nFlags (environment variable in brackets):\n", name, synopsis)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		sort.Strings(names)
		for _, n := range names {
			f := fs.Lookup(n)
			typ, help := flag.UnquoteUsage(f)
			line := "  --" + n
			if typ != "" {
				line += " " + typ
			}
			fmt.Fprintf(stderr, "%s  [%s]\n      %s", line, envName(n), help)
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
				fmt.Fprintf(stderr, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(stderr)
		}
	}
	return fs
}

// parse applies the environment, then the command line.
func parse(fs *flag.FlagSet, args []string) error {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %w", envName(f.Name), v, err)
			}
		}
	})
	if envErr != nil {
		return envErr
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		fs.Usage()
		return errUsage
	}
	return nil
}

// newLogger logs JSON when stderr is not a terminal (a service manager or
// a file), text otherwise.
func newLogger(w io.Writer, format string) *slog.Logger {
	if formatOf(w, format) == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// formatOf is the log format for w: format itself unless it is empty or
// "auto", then text on a terminal and JSON elsewhere.
func formatOf(w io.Writer, format string) string {
	if format != "" && format != "auto" {
		return format
	}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return "text"
		}
	}
	return "json"
}
