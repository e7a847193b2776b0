package adminrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Socket is the server side: a Unix socket that runs admin operations,
// catalog imports and backups inside the server process.
type Socket struct {
	srv  *http.Server
	path string
}

// Listen serves the admin socket at path, of mode 0600, on st. The caller
// holds st's lock, so no other server uses the folder: a socket file left
// at path is stale and replaced.
func Listen(path string, st store.Store, log *slog.Logger) (*Socket, error) {
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	h := handlers{st: st, log: log}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /op/{name}", h.op)
	mux.HandleFunc("POST /catalog/import", h.catalogImport)
	mux.HandleFunc("GET /backup", h.backup)
	s := &Socket{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, path: path}
	go s.srv.Serve(ln)
	return s, nil
}

// Shutdown stops the socket once its requests finish (or ctx ends) and
// removes its file.
func (s *Socket) Shutdown(ctx context.Context) {
	s.srv.Shutdown(ctx)
	os.Remove(s.path)
}

// Close stops the socket at once and removes its file.
func (s *Socket) Close() {
	s.srv.Close()
	os.Remove(s.path)
}

type handlers struct {
	st  store.Store
	log *slog.Logger
}

// errorBody is every failure's answer; Field names the input at fault
// when the client can act on it (ConfirmRemoval: ask, then send again).
type errorBody struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

func (h handlers) op(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
		return
	}
	v, err := Run(r.Context(), h.st, name, raw)
	switch {
	case errors.Is(err, ErrUnknownOp):
		writeJSON(w, http.StatusNotFound, errorBody{Error: err.Error()})
		return
	case err != nil:
		writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
		return
	}
	h.log.Info("admin operation", "op", name)
	writeJSON(w, http.StatusOK, v)
}

// catalogImport answers with the report as JSON (a rejected file too: the
// client prints it).
func (h handlers) catalogImport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	account, err := strconv.ParseInt(q.Get("account"), 10, 64)
	if err != nil || account <= 0 {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: "account must be an ID"})
		return
	}
	mode, err := app.ParseCatalogImportMode(q.Get("mode"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
		return
	}
	confirm, err := app.ParseConfirmRemoval(q.Get("confirmRemoval"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
		return
	}
	rep, err := apiserver.ImportCatalogConfirming(r.Context(), h.st, account, mode, confirm, r.Body)
	if e := NeedsConfirmation(err); e != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: e.Message, Field: confirmField})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
		return
	}
	h.log.Info("catalog import", "account", account, "mode", mode, "rows", rep.Rows, "applied", rep.Applied, "rejected", rep.RejectedCount)
	writeJSON(w, http.StatusOK, rep)
}

// backup streams a consistent copy; its size, or the error that cut it
// short, follows in a trailer, as the status is sent already.
func (h handlers) backup(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Trailer", trailerBytes+", "+trailerError)
	n, err := h.st.Backup(r.Context(), w)
	if err != nil {
		h.log.Error("backup failed", "err", err, "bytes", n)
		w.Header().Set(trailerError, err.Error())
		return
	}
	w.Header().Set(trailerBytes, fmt.Sprint(n))
	h.log.Info("backup streamed", "bytes", n)
}

const (
	trailerBytes = "X-Backup-Bytes"
	trailerError = "X-Backup-Error"
	confirmField = "ConfirmRemoval"
)

// NeedsConfirmation is err when it is a catalog Replace refused for want
// of ConfirmRemoval (app.CheckCatalogRemoval), else nil.
func NeedsConfirmation(err error) *app.Error {
	var e *app.Error
	if errors.As(err, &e) && len(e.Fields) == 1 && e.Fields[0].Field == confirmField {
		return e
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
