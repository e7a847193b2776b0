package pgstore

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"proposaldesk/app"
)

// unavailable is an error of kind Unavailable (HTTP 503) that keeps the
// database's error underneath for the log.
type unavailable struct {
	kind  *app.Error
	cause error
}

func (u unavailable) Error() string   { return u.kind.Message + ": " + u.cause.Error() }
func (u unavailable) Unwrap() []error { return []error{u.kind, u.cause} }

// dbErr marks errors that mean "the database cannot be reached or is
// overloaded right now" as app.KindUnavailable, so a request gets 503 and
// a client retries later; the replica reconnects by itself when the
// database is back. Other errors pass unchanged.
func dbErr(err error) error {
	if err == nil || app.KindOf(err) != app.KindInternal {
		return err
	}
	if isUnavailable(err) {
		return unavailable{app.Errorf(app.KindUnavailable, "the database is unavailable; try again shortly"), err}
	}
	return err
}

func isUnavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 08: connection exception; 53: insufficient resources; 57P0x:
		// shutdown, cannot connect now; 57014: statement timeout.
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "53") ||
			strings.HasPrefix(pe.Code, "57P") || pe.Code == "57014"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
