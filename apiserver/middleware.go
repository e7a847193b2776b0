package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"time"

	"proposaldesk/app"
)

// reqInfo is what the request log line says about a request; the signing
// middleware fills in who made it.
type reqInfo struct {
	id        string
	op        app.Operation
	accountID int64
	userID    int64
}

type ctxKey struct{}

func infoOf(r *http.Request) *reqInfo {
	if i, ok := r.Context().Value(ctxKey{}).(*reqInfo); ok {
		return i
	}
	return nil
}

func requestIDOf(r *http.Request) string {
	if i := infoOf(r); i != nil {
		return i.id
	}
	return ""
}

// statusWriter records what was written, for the log line and to know
// whether a panic can still be answered with an error body.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// fallbackWriter catches the router's own 404 and 405 answers (plain
// text) so that they can be replaced by the contract's error body. The
// router sets r.Pattern before it calls the handler it found and leaves
// it empty for its own answers, so a route's 404 (an unknown proposal)
// passes through untouched.
type fallbackWriter struct {
	http.ResponseWriter
	r    *http.Request
	code int
}

func (f *fallbackWriter) WriteHeader(code int) {
	if f.r.Pattern == "" && (code == http.StatusNotFound || code == http.StatusMethodNotAllowed) {
		f.code = code
		return
	}
	f.ResponseWriter.WriteHeader(code)
}

func (f *fallbackWriter) Write(b []byte) (int, error) {
	if f.code != 0 {
		return len(b), nil
	}
	return f.ResponseWriter.Write(b)
}

func (f *fallbackWriter) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// newRequestID makes a request ID, or keeps the client's X-Request-ID
// when it is short and plain enough to log safely.
func newRequestID(r *http.Request) string {
	if v := headerValue(r.Header, "X-Request-Id"); validRequestID(v) {
		return v
	}
	// 80 random bits as 16 characters of lower-case base32: an ID to find
	// a log line by, not a secret, so math/rand's per-thread generator
	// (crypto/rand's Text was 2 % of a cached GET).
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [16]byte
	x, y := rand.Uint64(), rand.Uint64()
	for i := range 12 {
		b[i] = alphabet[x&31]
		x >>= 5
	}
	for i := 12; i < 16; i++ {
		b[i] = alphabet[y&31]
		y >>= 5
	}
	return string(b[:])
}

func validRequestID(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// serve is the outer middleware: request ID, the body cap, panic
// recovery, the router (with contract-shaped 404 and 405) and the log
// line.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	info := &reqInfo{id: newRequestID(r)}
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, info))
	sw := &statusWriter{ResponseWriter: w}
	sw.Header()["X-Request-Id"] = []string{info.id} // canonical key, set directly
	if r.Body != nil {
		limit := s.cfg.MaxBodyBytes
		if r.URL.Path == CatalogImportPath {
			limit = s.cfg.MaxImportBytes
		}
		r.Body = http.MaxBytesReader(sw, r.Body, limit)
		// A body declared over the cap is refused before any of it is
		// read, before authentication: waiting for hundreds of MiB only
		// to refuse them would let anyone hold a connection and a
		// handler that long. The connection closes (its body is unread).
		if r.ContentLength > limit {
			sw.Header().Set("Connection", "close")
			s.writeErrorBody(sw, r, http.StatusRequestEntityTooLarge, app.KindPayloadTooLarge,
				fmt.Sprintf("The body declares %d bytes; the limit is %d.", r.ContentLength, limit), nil)
			s.logRequest(r, info, sw, time.Since(start))
			return
		}
	}

	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.LogAttrs(r.Context(), slog.LevelError, "panic",
				slog.String("request_id", info.id),
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("panic", fmt.Sprint(v)),
				slog.String("stack", string(debug.Stack())))
			if sw.status == 0 {
				s.writeErrorBody(sw, r, StatusOf(app.KindInternal), app.KindInternal, msgInternal, nil)
			}
		}
		s.logRequest(r, info, sw, time.Since(start))
	}()

	if s.refuseBadInput(sw, r) {
		return
	}
	// One lookup: the router serves the route it finds, and answers 404,
	// 405 or a redirect to the clean path itself; fw replaces its 404
	// and 405 with the contract's shape.
	fw := &fallbackWriter{ResponseWriter: sw, r: r}
	s.mux.ServeHTTP(fw, r)
	switch fw.code {
	case http.StatusNotFound:
		s.writeErrorBody(sw, r, http.StatusNotFound, app.KindNotFound,
			"There is no API endpoint at "+r.URL.Path+".", nil)
	case http.StatusMethodNotAllowed:
		s.writeErrorBody(sw, r, http.StatusMethodNotAllowed, app.KindMethodNotAllowed,
			fmt.Sprintf("%s is not supported at %s; allowed: %s.", r.Method, r.URL.Path, sw.Header().Get("Allow")), nil)
	}
}

// logRequest writes the request's log line. It names the path without
// its query (the key exchange carries a password there) and never a
// header value or a body.
func (s *Server) logRequest(r *http.Request, info *reqInfo, sw *statusWriter, d time.Duration) {
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	// Straight to the handler: Logger.LogAttrs would also walk the stack
	// for the caller's line, which a request line never shows, and that
	// walk was a tenth of the line's cost.
	h := s.log.Handler()
	ctx := r.Context()
	if !h.Enabled(ctx, level) {
		return
	}
	rec := slog.NewRecord(time.Now(), level, "request", 0)
	rec.AddAttrs(
		slog.String("request_id", info.id),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", status),
		slog.Duration("duration", d),
		slog.Int64("bytes", sw.bytes),
	)
	if info.op != "" {
		rec.AddAttrs(slog.String("op", string(info.op)))
	}
	if info.accountID != 0 {
		rec.AddAttrs(slog.Int64("account", info.accountID), slog.Int64("user", info.userID))
	}
	h.Handle(ctx, rec)
}

// logInternal logs an error that is answered with a bare 500.
func (s *Server) logInternal(r *http.Request, err error) {
	s.log.LogAttrs(r.Context(), slog.LevelError, "internal error",
		slog.String("request_id", requestIDOf(r)),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("error", fmt.Sprint(err)))
}
