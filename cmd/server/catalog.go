package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"proposaldesk/apiserver"
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
	fs := newFlags("catalog import", "catalog import --account N [--mode Merge|Replace] FILE\n\n"+
		"Imports a catalog CSV file (columns: see apiserver/DECISIONS.md, \"Catalog\") into the\n"+
		"account. Every row is checked first; if any is bad nothing is imported and\n"+
		"each bad row is listed with its line number. Merge adds and updates items;\n"+
		"Replace also removes the items the file does not name.", stderr)
	dataFlag(fs, &data)
	fs.Int64Var(&account, "account", 0, "account `ID` (required)")
	fs.StringVar(&modeText, "mode", "Merge", "Merge or Replace")
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
	var rep app.CatalogImportReport
	err = withStore(ctx, data, false, func(st store.Store) error {
		var err error
		rep, err = apiserver.ImportCatalog(ctx, st, account, mode, f)
		return err
	}, func(c *http.Client) error {
		u := "http://admin/catalog/import?account=" + strconv.FormatInt(account, 10) + "&mode=" + url.QueryEscape(string(mode))
		resp, err := c.Post(u, "text/csv", f)
		if err != nil {
			return fmt.Errorf("admin socket: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			var e struct {
				Error string `json:"error"`
			}
			json.NewDecoder(resp.Body).Decode(&e)
			return fmt.Errorf("admin socket: HTTP %d: %s", resp.StatusCode, e.Error)
		}
		return json.NewDecoder(resp.Body).Decode(&rep)
	})
	if err != nil {
		return err
	}
	if !rep.Applied {
		for _, r := range rep.Rejected {
			fmt.Fprintf(stderr, "%s: line %d: %s\n", file, r.Line, r.Reason)
		}
		return errors.New(apiserver.RejectedError(rep).Message)
	}
	fmt.Fprintf(stdout, "%s: %d rows into account %d (%s): %d added, %d updated, %d unchanged, %d removed in %s\n",
		file, rep.Rows, account, rep.Mode, rep.Added, rep.Updated, rep.Unchanged, rep.Deleted, time.Since(start).Round(time.Millisecond))
	return nil
}

// adminCatalogImport is the admin socket's side: the report as JSON (a
// rejected file too: the client prints it), or {"error"} for a failure.
func adminCatalogImport(st store.Store, log *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		account, err := strconv.ParseInt(r.URL.Query().Get("account"), 10, 64)
		if err != nil || account <= 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "account must be an ID"})
			return
		}
		mode, err := app.ParseCatalogImportMode(r.URL.Query().Get("mode"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		rep, err := apiserver.ImportCatalog(r.Context(), st, account, mode, r.Body)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		log.Info("catalog import", "account", account, "mode", mode, "rows", rep.Rows, "applied", rep.Applied, "rejected", len(rep.Rejected))
		writeJSON(w, http.StatusOK, rep)
	}
}

// splitFileArgs separates the FILE operand from the flags, wherever it
// stands: every flag of the command takes a value ("--account 3" or
// "--account=3").
func splitFileArgs(args []string) (flags, files []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			files = append(files, a)
		case strings.Contains(a, "=") || a == "-h" || a == "--help" || a == "-help" || i+1 == len(args):
			flags = append(flags, a)
		default:
			flags = append(flags, a, args[i+1])
			i++
		}
	}
	return flags, files
}
