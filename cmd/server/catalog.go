package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/adminrpc"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// server catalog import: the same check-then-apply as the API route
// (apiserver.ImportCatalog), on the data folder or, while the server
// runs, inside it through the admin socket (the file is streamed).

func cmdCatalogImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var data storeFlags
	var modeText string
	var account int64
	var confirm bool
	fs := newFlags("catalog import", "catalog import --account N [--mode Merge|Replace] [--confirm-removal] FILE\n\n"+
		"Imports a catalog CSV file (columns: see apiserver/DECISIONS.md, \"Catalog\") into the\n"+
		"account. Every row is checked first; if any is bad nothing is imported and\n"+
		"each bad row is listed with its line number. Merge adds and updates items;\n"+
		"Replace also removes the items the file does not name. A Replace that would\n"+
		"remove more than half of the catalog asks first (at a terminal) or needs\n"+
		"--confirm-removal.", stderr)
	dataFlag(fs, &data)
	fs.Int64Var(&account, "account", 0, "account `ID` (required)")
	fs.StringVar(&modeText, "mode", "Merge", "Merge or Replace")
	fs.BoolVar(&confirm, "confirm-removal", false, "let a Replace remove more than half of the catalog")
	flags, files := splitFileArgs(args)
	if err := parse(fs, flags); err != nil {
		return err
	}
	if account <= 0 || len(files) != 1 {
		fs.Usage()
		return errUsage
	}
	file := files[0]
	mode, err := app.ParseCatalogImportMode(modeText)
	if err != nil {
		return err
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	start := time.Now()
	rep, err := importCatalog(ctx, data, account, mode, confirm, f)
	if e := adminrpc.NeedsConfirmation(err); e != nil && !confirm {
		if err := askRemoval(e.Message, stderr); err != nil {
			return err
		}
		rep, err = importCatalog(ctx, data, account, mode, true, f)
	}
	if err != nil {
		return err
	}
	return printImport(stdout, stderr, file, account, rep, time.Since(start))
}

// importCatalog imports the file f from its start, in process or through
// the running server's admin socket.
func importCatalog(ctx context.Context, data storeFlags, account int64, mode app.CatalogImportMode, confirm bool, f *os.File) (app.CatalogImportReport, error) {
	var rep app.CatalogImportReport
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return rep, err
	}
	err := withStore(ctx, data, false, func(st store.Store) error {
		var err error
		rep, err = apiserver.ImportCatalogConfirming(ctx, st, account, mode, confirm, f)
		return err
	}, func(c *adminrpc.Client) error {
		var err error
		rep, err = c.ImportCatalog(ctx, account, mode, confirm, f)
		return err
	})
	return rep, err
}

// askRemoval asks the user at a terminal to let a Replace remove what
// msg says; anywhere else, and unless the answer is yes, it is an error.
func askRemoval(msg string, stderr io.Writer) error {
	if !stdinIsTerminal() {
		return fmt.Errorf("%s Run again with --confirm-removal to remove them", strings.TrimSuffix(msg, "."))
	}
	fmt.Fprintf(stderr, "%s\nRemove them? [y/N] ", msg)
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return errors.New("nothing was imported")
	}
	return nil
}

// printImport tells what the import of file did, or lists the rows that
// kept it from applying.
func printImport(stdout, stderr io.Writer, file string, account int64, rep app.CatalogImportReport, took time.Duration) error {
	if !rep.Applied {
		for _, r := range rep.Rejected {
			fmt.Fprintf(stderr, "%s: line %d: %s\n", file, r.Line, r.Reason)
		}
		return errors.New(apiserver.RejectedError(rep).Message)
	}
	fmt.Fprintf(stdout, "%s: %d rows into account %d (%s): %d added, %d updated, %d unchanged, %d removed in %s\n",
		file, rep.Rows, account, rep.Mode, rep.Added, rep.Updated, rep.Unchanged, rep.Deleted, took.Round(time.Millisecond))
	for _, r := range rep.Removed {
		fmt.Fprintf(stdout, "removed %d: %s\n", r.ID, removedText(r))
	}
	if more := rep.Deleted - len(rep.Removed); more > 0 {
		fmt.Fprintf(stdout, "and %d more removed\n", more)
	}
	return nil
}

func removedText(r app.CatalogRemovedItem) string {
	var parts []string
	for _, s := range []string{r.Brand, r.Model, r.Name} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if r.PartNumber != "" {
		parts = append(parts, "("+r.PartNumber+")")
	}
	return strings.Join(parts, " ")
}

// splitFileArgs separates the FILE operand from the flags, wherever it
// stands: every flag of the command but --confirm-removal takes a value
// ("--account 3" or "--account=3").
func splitFileArgs(args []string) (flags, files []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			files = append(files, a)
		case strings.Contains(a, "=") || a == "-h" || a == "--help" || a == "-help" || i+1 == len(args) ||
			strings.TrimLeft(a, "-") == "confirm-removal":
			flags = append(flags, a)
		default:
			flags = append(flags, a, args[i+1])
			i++
		}
	}
	return flags, files
}
