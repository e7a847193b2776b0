package apiserver

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// IdempotencyWindow is how long an Idempotency-Key answers with its first
// response.
const IdempotencyWindow = 24 * time.Hour

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 255

// result is a successful response, rendered before it is written so that
// a write can keep it beside its Idempotency-Key.
type result struct {
	status int
	body   []byte // nil: no body (204), unless render is set
	// stored, when set, is the body an Idempotency-Key's record keeps
	// instead of body (a send's answer without the link's token).
	stored       []byte
	etag         string
	lastModified time.Time
	// render, when set, makes body later: a write's response is encoded
	// after its commit, outside the single writer, unless an
	// Idempotency-Key needs it kept in the write's transaction. What it
	// reads must not change after fn returns (the proposal fn stored).
	render func() ([]byte, error)
	// header, when set, holds the header values of body, etag and
	// lastModified, made once for a rendering the cache keeps.
	header *headerValues
	// committed, when set, runs once the write is committed (not on an
	// Idempotency-Key's replay), before the answer: what must follow a
	// write but cannot run inside the single writer's transaction (a
	// send's mail goes into the mail queue, itself a write).
	committed func()
}

// headerValues are the header values that follow from a result's body,
// etag and lastModified (nil: no such header).
type headerValues struct {
	etag, lastModified, contentLength []string
}

func (r *result) headerValues() headerValues {
	if r.header != nil {
		return *r.header
	}
	var hv headerValues
	if r.etag != "" {
		hv.etag = []string{r.etag}
	}
	if !r.lastModified.IsZero() {
		hv.lastModified = []string{r.lastModified.UTC().Format(http.TimeFormat)}
	}
	if r.body != nil {
		// A known length spares net/http the chunked encoding of bodies
		// over 2 KB (a detail is ~10 KB): one write syscall fewer.
		hv.contentLength = []string{strconv.Itoa(len(r.body))}
	}
	return hv
}

// recorded is the body an Idempotency-Key's record keeps.
func (r *result) recorded() []byte {
	if r.stored != nil {
		return r.stored
	}
	return r.body
}

// rendered sets body from render.
func (r *result) rendered() error {
	if r.render == nil {
		return nil
	}
	b, err := r.render()
	if err != nil {
		return err
	}
	r.body, r.render = b, nil
	return nil
}

// jsonResult renders v as a 200 response.
func jsonResult(v any) (result, error) {
	b, err := encodeJSON(v)
	if err != nil {
		return result{}, err
	}
	return result{status: http.StatusOK, body: b}, nil
}

// jsonAppender is a value with its own encoder, held byte-equal to
// json.Marshal and several times cheaper (app's details: the body of
// every detail read not cached and of every write's answer).
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// encodeJSON is json.Marshal(v), through v's own encoder when it has one
// (pass the pointer).
func encodeJSON(v any) ([]byte, error) {
	if a, ok := v.(jsonAppender); ok {
		return a.AppendJSON(nil)
	}
	return json.Marshal(v)
}

// etagOf is the ETag of a proposal version.
func etagOf(version int64) string { return `"` + strconv.FormatInt(version, 10) + `"` }

// Header values every answer shares; net/http only reads them.
var (
	noStore         = []string{"no-store"}
	contentTypeJSON = []string{"application/json; charset=utf-8"}
)

// write sends a result.
func (c *call) write(res result) error {
	if err := res.rendered(); err != nil {
		return fmt.Errorf("render the response: %w", err)
	}
	// Canonical keys set directly: Header.Set canonicalizes every key on
	// every response.
	h := c.w.Header()
	hv := res.headerValues()
	if hv.etag != nil {
		h["Etag"] = hv.etag
	}
	if hv.lastModified != nil {
		h["Last-Modified"] = hv.lastModified
	}
	h["Cache-Control"] = noStore
	if res.body == nil {
		c.w.WriteHeader(res.status)
		return nil
	}
	h["Content-Type"] = contentTypeJSON
	h["Content-Length"] = hv.contentLength
	c.w.WriteHeader(res.status)
	c.w.Write(res.body)
	return nil
}

// idempotencyKey reads and checks the Idempotency-Key header.
func (c *call) idempotencyKey() (string, error) {
	k := c.r.Header.Get("Idempotency-Key")
	if k == "" {
		return "", nil
	}
	if len(k) > maxIdempotencyKey {
		return "", app.Invalid("Idempotency-Key", "is longer than %d characters", maxIdempotencyKey)
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return "", app.Invalid("Idempotency-Key", "must be printable ASCII without spaces")
		}
	}
	return k, nil
}

// fingerprint identifies a write for its Idempotency-Key: method, path
// and body.
func (c *call) fingerprint() [32]byte {
	h := sha256.New()
	h.Write([]byte(c.r.Method))
	h.Write([]byte{0})
	h.Write([]byte(c.r.URL.Path))
	h.Write([]byte{0})
	h.Write(c.body)
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// update runs a write: fn inside one store transaction, together with the
// Idempotency-Key record when the request has a key. A key already used
// by this user within the window answers with the first response without
// running fn; used for another request it is 409. Only successful
// responses are recorded: a failed write changes nothing, so sending it
// again evaluates it again.
func (s *Server) update(c *call, fn func(tx store.Tx) (result, error)) error {
	key, err := c.idempotencyKey()
	if err != nil {
		return err
	}
	if _, err := c.readBody(); err != nil {
		return err
	}
	fp := c.fingerprint()
	var res result
	replayed := false
	err = s.st.Update(c.r.Context(), c.account.ID, func(tx store.Tx) error {
		if key != "" {
			rec, found, err := tx.Idempotency(c.user.ID, key, c.now.Add(-IdempotencyWindow))
			if err != nil {
				return err
			}
			if found {
				if rec.Fingerprint != fp {
					return app.Errorf(app.KindIdempotencyKeyReused,
						"This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.")
				}
				res = result{status: rec.Status, body: rec.Body, etag: rec.ETag}
				replayed = true
				return nil
			}
		}
		r, err := fn(tx)
		if err != nil {
			return err
		}
		res = r
		if key != "" {
			if err := res.rendered(); err != nil {
				return err
			}
			return tx.PutIdempotency(store.IdempotencyRecord{
				UserID: c.user.ID, Key: key, Fingerprint: fp,
				Status: res.status, Body: res.recorded(), ETag: res.etag, CreatedAt: c.now.UTC(),
			})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if replayed {
		c.w.Header().Set("Idempotent-Replayed", "true")
	} else {
		s.wakeWebhooks()
		if res.committed != nil {
			res.committed()
		}
	}
	return c.write(res)
}

// ifMatch checks the If-Match header against a proposal's version.
func (c *call) ifMatch(version int64) error {
	v := c.r.Header.Get("If-Match")
	if v == "" {
		return nil
	}
	current := etagOf(version)
	for _, tag := range strings.Split(v, ",") {
		tag = strings.TrimSpace(tag)
		tag = strings.TrimPrefix(tag, "W/")
		if tag == "*" || tag == current {
			return nil
		}
	}
	return app.Errorf(app.KindPreconditionFailed,
		"The proposal has changed since you read it (it is now at version %d, ETag %s). Read it again and reapply your change.", version, current)
}
