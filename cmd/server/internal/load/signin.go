package load

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// failedSignIn is one key exchange of a user nobody has, with a wrong
// password, from an address of its own in X-Forwarded-For: against a
// server run with --trust-forwarded the lockout then never answers
// first, and every attempt costs the server a password check, as a
// flood from many addresses does. Its 401s are the scenario working;
// run it beside another scenario and read that one's latency.
func (w *worker) failedSignIn(ctx context.Context) (int, []byte, error) {
	w.seq++
	q := url.Values{
		"UserName": {fmt.Sprintf("nobody-%d-%d@load.invalid", w.id, w.seq)},
		"Password": {"not the password"},
	}
	addr := fmt.Sprintf("10.%d.%d.%d", w.r.IntN(256), w.r.IntN(256), 1+w.r.IntN(254))
	status, _, err := w.c.sendAs(ctx, "", http.Header{"X-Forwarded-For": {addr}},
		http.MethodGet, "/authenticate/apikeyexchange?"+q.Encode(), nil, &w.buf)
	return status, w.buf.Bytes(), err
}
