package main

import (
	"bufio"
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
	var rep app.CatalogImportReport
	importFile := func() error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		return withStore(ctx, data, false, func(st store.Store) error {
			var err error
			rep, err = apiserver.ImportCatalogConfirming(ctx, st, account, mode, confirm, f)
			return err
		}, func(c *http.Client) error {
			u := "http://admin/catalog/import?account=" + strconv.FormatInt(account, 10) + "&mode=" + url.QueryEscape(string(mode)) +
				"&confirmRemoval=" + strconv.FormatBool(confirm)
			resp, err := c.Post(u, "text/csv", f)
			if err != nil {
				return fmt.Errorf("admin socket: %w", err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				var e struct {
					Error string `json:"error"`
					Field string `json:"field"`
				}
				json.NewDecoder(resp.Body).Decode(&e)
				if e.Field != "" {
					return &app.Error{Kind: app.KindValidationFailed, Message: e.Error, Fields: []app.FieldError{{Field: e.Field}}}
				}
				return fmt.Errorf("admin socket: HTTP %d: %s", resp.StatusCode, e.Error)
			}
			return json.NewDecoder(resp.Body).Decode(&rep)
		})
	}
	err = importFile()
	if e := needsConfirmation(err); e != nil && !confirm {
		msg := e.Message
		if !stdinIsTerminal() {
			return fmt.Errorf("%s Run again with --confirm-removal to remove them", strings.TrimSuffix(msg, "."))
		}
		fmt.Fprintf(stderr, "%s\nRemove them? [y/N] ", msg)
		answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return errors.New("nothing was imported")
		}
		confirm = true
		err = importFile()
	}
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
	for _, r := range rep.Removed {
		fmt.Fprintf(stdout, "removed %d: %s\n", r.ID, removedText(r))
	}
	if more := rep.Deleted - len(rep.Removed); more > 0 {
		fmt.Fprintf(stdout, "and %d more removed\n", more)
	}
	return nil
}

// needsConfirmation is err when it is a Replace refused for want of
// ConfirmRemoval (app.CheckCatalogRemoval), else nil.
func needsConfirmation(err error) *app.Error {
	var e *app.Error
	if errors.As(err, &e) && len(e.Fields) == 1 && e.Fields[0].Field == "ConfirmRemoval" {
		return e
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
		confirm, err := app.ParseConfirmRemoval(r.URL.Query().Get("confirmRemoval"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		rep, err := apiserver.ImportCatalogConfirming(r.Context(), st, account, mode, confirm, r.Body)
		if e := needsConfirmation(err); e != nil {
			// The client asks its user, then sends the file again.
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": e.Message, "field": "ConfirmRemoval"})
			return
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		log.Info("catalog import", "account", account, "mode", mode, "rows", rep.Rows, "applied", rep.Applied, "rejected", rep.RejectedCount)
		writeJSON(w, http.StatusOK, rep)
	}
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
