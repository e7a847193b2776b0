// Package apiserver is the HTTP face of the service: the public proposal
// API of proposal-api.md with the wire details of contract.md, served on
// net/http's ServeMux.
//
// Every route except the key exchange is a signed, account-scoped call:
// the signing middleware finds the app and the user's API key, checks the
// subscription and the role's permission for the route's app.Operation,
// and only then runs the handler. Writes build an app.Mutation and apply
// it with app.Apply inside one store.Update transaction, together with
// the Idempotency-Key record when the request carries one.
package apiserver

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/clientpage"
	"proposaldesk/apiserver/lockout"
	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/openapi"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// DefaultMaxBodyBytes caps a request body when Config.MaxBodyBytes is 0.
const DefaultMaxBodyBytes int64 = 1 << 20

// Config configures a Server. The zero value works for a server on
// loopback: bodies capped at 1 MiB, the real clock, slog's default logger.
type Config struct {
	// PublicURL is the base URL clients use, e.g.
	// "https://proposals.example.com" (no trailing slash needed). The
	// signed absolute URL is PublicURL + the request URI. When empty, the
	// URL is built from the request's Host and TLS state.
	PublicURL string
	// StrictSigning refuses the compatibility variant of the signature
	// that covers the URL without its query string.
	StrictSigning bool
	// MaxBodyBytes caps request bodies (default 1 MiB); larger is 413.
	MaxBodyBytes int64
	// MaxImportBytes caps a catalog import's CSV body instead
	// (default DefaultMaxImportBytes).
	MaxImportBytes int64
	// Now is the server's clock (default time.Now).
	Now func() time.Time
	// Logger receives one line per request and every internal error
	// (default slog.Default()).
	Logger *slog.Logger
	// TrustForwarded makes the server honour X-Forwarded-Proto,
	// X-Forwarded-Host and X-Forwarded-For. Set it only behind a proxy
	// that sets them; otherwise clients could choose the URL that is
	// signed and the address that is rate-limited.
	TrustForwarded bool
	// SignInCounter holds the failed sign-in counts the lockout policy
	// decides on (default: in memory, per process). Servers sharing one
	// database share it through a counter kept there.
	SignInCounter lockout.Counter
	// DeviceKey signs the device tokens a correct sign-in hands out
	// (auth.DeviceTokens; at least auth.DeviceKeySize bytes). Servers
	// sharing one database need the same key. Default: a random key per
	// process, so a restart makes every device a stranger again.
	DeviceKey []byte
	// PasswordChecks bounds the password checks (bcrypt, 80-300 ms of
	// one core each) running at once (default: half the cores, at least
	// 1), so that a flood of sign-ins cannot take the CPU from every
	// other request. Sign-ins from trusted devices have as many again of
	// their own.
	PasswordChecks int
	// PasswordCheckWait is how long a sign-in waits for a free check
	// before it is 429 (default DefaultPasswordCheckWait).
	PasswordCheckWait time.Duration
	// ClientPageLimit bounds requests to the client page per address
	// (default clientpage.DefaultLimit).
	ClientPageLimit clientpage.Limit
	// Mail is the outgoing mail (mail.go); zero: no SMTP server.
	Mail MailConfig
	// WebhookAllowPrivate lets webhook URLs reach loopback and private
	// networks over http too (--webhook-allow-private).
	WebhookAllowPrivate bool
	// WebhookLookup resolves receivers' host names (default: the
	// system's resolver).
	WebhookLookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// WebhookWake, when set, is told after every write that may have
	// queued webhook deliveries (the worker's Wake).
	WebhookWake func()
}

// Route is one method and path pattern of the router.
type Route struct {
	// Method is the HTTP method: GET or POST.
	Method string
	// Pattern is the ServeMux path pattern, with Portal's parameter
	// names: "/public/proposals/{ProposalId}".
	Pattern string
	// Operation is the operation the route performs; it decides the
	// permission and whether an active subscription is needed.
	Operation app.Operation
	// Extension marks routes beyond the spec's 15 operations and
	// Portal's people endpoints (x-extension in the OpenAPI document).
	Extension bool
	// Edit is the kind of edit the route receives ("" for the routes
	// that are not edits of a proposal); its app.Mutation describes the
	// route's parameters.
	Edit app.MutationKind
}

// Server is the API's http.Handler.
type Server struct {
	cfg     Config
	st      store.Store
	log     *slog.Logger
	now     func() time.Time
	mux     *http.ServeMux
	routes  []Route
	signins lockout.Counter
	// rendered holds encoded proposal details (see renderCache).
	rendered *renderCache

	dummyOnce sync.Once
	dummyHash []byte

	devices *auth.DeviceTokens
	// passwordSlots holds a token per password check running;
	// trustedPasswordSlots those of trusted devices (checkPassword).
	passwordSlots, trustedPasswordSlots chan struct{}
	// mail is the outgoing mail queue (mail.go); nil without SMTP.
	mail *mail.Queue
}

// New returns a server over st.
func New(cfg Config, st store.Store) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxImportBytes <= 0 {
		cfg.MaxImportBytes = DefaultMaxImportBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.SignInCounter == nil {
		cfg.SignInCounter = lockout.NewMemory(lockout.Default, 0)
	}
	if cfg.PasswordChecks <= 0 {
		cfg.PasswordChecks = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if cfg.PasswordCheckWait <= 0 {
		cfg.PasswordCheckWait = DefaultPasswordCheckWait
	}
	devices, err := deviceTokens(cfg.DeviceKey)
	if err != nil {
		// The key is the operator's configuration; a short one is a bug
		// in the caller, not something to serve without.
		panic("bug: " + err.Error())
	}
	s := &Server{
		cfg:      cfg,
		st:       st,
		log:      cfg.Logger,
		now:      cfg.Now,
		mux:      http.NewServeMux(),
		signins:  cfg.SignInCounter,
		rendered: newRenderCache(64 << 20),

		devices:              devices,
		passwordSlots:        make(chan struct{}, cfg.PasswordChecks),
		trustedPasswordSlots: make(chan struct{}, cfg.PasswordChecks),
	}
	s.mail = s.newMailQueue()
	for _, rt := range s.table() {
		s.routes = append(s.routes, rt.Route)
		s.mux.Handle(rt.Method+" "+rt.Pattern, s.signed(rt.Route, rt.h))
	}
	// The API's own description is public: clients and tools read it
	// before they have credentials.
	s.mux.HandleFunc("GET /openapi.json", serveOpenAPI)
	// The client's page of a sent proposal: its token is the credential.
	clientpage.Register(s.mux, clientpage.Config{Store: st, Now: cfg.Now, Logger: cfg.Logger, ClientAddr: s.clientAddr, Limit: cfg.ClientPageLimit})
	return s
}

func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(openapi.JSON())
}

// Routes lists every method and pattern the router has, in a stable
// order, for the OpenAPI coverage test.
func (s *Server) Routes() []Route { return append([]Route(nil), s.routes...) }

// ServeHTTP serves one request: request ID, logging, panic recovery and
// the body cap around the router.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r)
}

type routeDef struct {
	Route
	h handlerFunc
}

// table is the router: every route with its operation and handler. The
// edits of a proposal come from their descriptions in app (editRoutes);
// the routes here are the reads and the writes that are not edits.
func (s *Server) table() []routeDef {
	r := func(method, pattern string, op app.Operation, ext bool, h handlerFunc) routeDef {
		return routeDef{Route{Method: method, Pattern: pattern, Operation: op, Extension: ext}, h}
	}
	routes := append(s.editRoutes(),
		r("GET", "/public/proposals", app.OpListProposals, false, s.listProposals),
		r("GET", "/public/proposals/{ProposalId}", app.OpGetProposal, false, s.getProposal),
		r("GET", "/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}", app.OpGetChangeOrder, false, s.getChangeOrder),
		r("GET", "/public/proposals/{ProposalId}/changeorders", app.OpListChangeOrders, false, s.listChangeOrders),
		r("GET", "/public/proposals/{ProposalId}/items", app.OpListItems, true, s.listItems),
		r("GET", "/authenticate/apikeyexchange", app.OpKeyExchange, false, s.keyExchange),
		// Portal's people endpoints.
		r("GET", "/public/people", app.OpListPeople, false, s.listPeople),
		r("POST", "/public/people", app.OpCreatePerson, false, s.createPerson),
		r("GET", "/public/people/{PersonId}", app.OpGetPerson, false, s.getPerson),
		r("GET", "/public/people/changes", app.OpPeopleChanges, true, s.peopleChanges),
		r("GET", "/public/people/{PersonId}/location", app.OpListLocations, false, s.listLocations),
		r("POST", "/public/people/{PersonId}/location", app.OpCreateLocation, false, s.createLocation),
		// Extensions.
		r("GET", "/public/users", app.OpListUsers, true, s.listUsers),
		r("GET", "/public/changes", app.OpChanges, true, s.changes),
		r("GET", "/public/sync/proposals", app.OpSyncProposals, true, s.syncProposals),
		r("GET", "/public/export/proposals", app.OpExport, true, s.exportProposals),
		r("GET", "/public/proposals/{ProposalId}/document", app.OpExport, true, s.proposalDocument),
		r("GET", "/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}/document", app.OpExport, true, s.changeOrderDocument),
		// The catalog: Portal's search and item, our feed and import.
		r("GET", "/public/catalog", app.OpListCatalog, false, s.listCatalog),
		r("GET", "/public/catalog/{ItemId}", app.OpGetCatalogItem, false, s.getCatalogItem),
		r("GET", "/public/catalog/changes", app.OpCatalogChanges, true, s.catalogChanges),
		r("POST", CatalogImportPath, app.OpImportCatalog, true, s.importCatalog),
		// Sending to the client (send.go).
		r("POST", "/public/proposals/{ProposalId}/send", app.OpSendProposal, true, s.sendProposal),
		r("GET", "/public/proposals/{ProposalId}/events", app.OpProposalEvents, true, s.proposalEvents),
		r("GET", "/public/proposals/{ProposalId}/signed.pdf", app.OpSignedPDF, true, s.signedPDF),
	)
	return append(routes, s.webhookRoutes()...)
}
