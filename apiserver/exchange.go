package apiserver

import (
	"crypto/rand"
	"net"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/lockout"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// exchangeResponse is the key exchange's 200 body, in the spec's shape.
// Only userId, userName, displayName, roles, permissions, meta.apiKey
// and meta.deviceToken carry values; the token fields exist for
// compatibility and are empty.
// UserKey repeats meta.apiKey at the top level, where clients written
// for Portal read it.
type exchangeResponse struct {
	UserKey            string            `json:"UserKey"`
	UserID             string            `json:"userId"`
	SessionID          string            `json:"sessionId"`
	UserName           string            `json:"userName"`
	DisplayName        string            `json:"displayName"`
	ReferrerURL        string            `json:"referrerUrl"`
	BearerToken        string            `json:"bearerToken"`
	RefreshToken       string            `json:"refreshToken"`
	RefreshTokenExpiry app.Time          `json:"refreshTokenExpiry"`
	ProfileURL         string            `json:"profileUrl"`
	Roles              []string          `json:"roles"`
	Permissions        []string          `json:"permissions"`
	AuthProvider       string            `json:"authProvider"`
	ResponseStatus     ResponseStatus    `json:"responseStatus"`
	Meta               map[string]string `json:"meta"`
}

var errInvalidCredentials = app.Errorf(app.KindInvalidCredentials,
	"Invalid user name or password.")

// GET /authenticate/apikeyexchange?UserName=&Password=[&DeviceToken=]
func (s *Server) keyExchange(c *call) error {
	var name, password, device string
	var haveName, havePassword bool
	for k, vs := range c.r.URL.Query() {
		switch {
		case strings.EqualFold(k, "UserName") && len(vs) > 0:
			name, haveName = vs[0], true
		case strings.EqualFold(k, "Password") && len(vs) > 0:
			password, havePassword = vs[0], true
		case strings.EqualFold(k, "DeviceToken") && len(vs) > 0:
			device = vs[0]
		}
	}
	if !haveName || strings.TrimSpace(name) == "" {
		return app.Invalid("UserName", "is required")
	}
	if !utf8.ValidString(name) {
		return app.Invalid("UserName", "must be valid UTF-8 text")
	}
	if n := utf8.RuneCountInString(name); n > app.MaxUserNameLength {
		return app.Invalid("UserName", "is %d characters long; the limit is %d", n, app.MaxUserNameLength)
	}
	if !havePassword || password == "" {
		return app.Invalid("Password", "is required")
	}

	keys := lockout.KeysOf(name, s.clientAddr(c.r))
	// A token that is not valid for this user (another user's, expired,
	// made up) is ignored: the attempt is an untrusted one, no more.
	if id, ok := s.devices.Verify(device, keys.User, c.now); ok {
		keys.Device = id
	}
	if err := s.checkLockout(c, keys); err != nil {
		return err
	}

	ctx := c.r.Context()
	u, err := s.st.Auth().UserByEmail(ctx, strings.TrimSpace(name))
	pwHash := u.PasswordHash
	switch {
	case err != nil && app.KindOf(err) != app.KindNotFound:
		return err
	case err != nil:
		// Unknown user: spend the same bcrypt time as a wrong password.
		pwHash = s.dummyPasswordHash()
	}
	match, checkErr := s.checkPassword(c, keys.Device != "", pwHash, password)
	switch {
	case checkErr != nil:
		return checkErr
	case err != nil || !match:
		return s.signInFailed(c, keys)
	}
	if !u.EmailVerified {
		return app.Errorf(app.KindEmailNotVerified,
			"Your email address is not verified yet. Follow the link in the verification email, then sign in again.")
	}

	// A user whose role allows nothing gets no key.
	if err := app.Require(u.User, c.op.Permission()); err != nil {
		return err
	}

	value, hash, err := auth.NewAPIKey()
	if err != nil {
		return err
	}
	if err := s.st.Auth().PutKey(ctx, store.APIKey{
		Hash: hash, UserID: u.ID, AccountID: u.AccountID, AppID: c.appID, CreatedAt: c.now.UTC(),
	}); err != nil {
		return err
	}
	deviceToken, err := s.devices.Issue(keys.User, c.now)
	if err != nil {
		return err
	}
	if err := s.signins.Succeeded(ctx, keys, c.now); err != nil {
		// It only clears counts and marks the address known: the sign-in
		// stands, and the operator hears of it.
		s.log.Warn("recording a successful sign-in", "request_id", requestIDOf(c.r), "err", err)
	}
	if info := infoOf(c.r); info != nil {
		info.accountID, info.userID = u.AccountID, u.ID
	}

	perms := u.Role.Permissions()
	permNames := make([]string, len(perms))
	for i, p := range perms {
		permNames[i] = string(p)
	}
	display := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if display == "" {
		display = u.Email
	}
	res, err := jsonResult(exchangeResponse{
		UserID:         strconv.FormatInt(u.ID, 10),
		SessionID:      rand.Text(),
		UserName:       u.Email,
		DisplayName:    display,
		Roles:          []string{string(u.Role)},
		Permissions:    permNames,
		AuthProvider:   "credentials",
		ResponseStatus: ResponseStatus{Errors: []FieldErrorBody{}, Meta: map[string]string{}},
		Meta:           map[string]string{"apiKey": value, "deviceToken": deviceToken},
		UserKey:        value,
	})
	if err != nil {
		return err
	}
	return c.write(res)
}

// dummyPasswordHash is a bcrypt hash of a random password at the real
// cost, compared against for unknown users.
func (s *Server) dummyPasswordHash() []byte {
	s.dummyOnce.Do(func() {
		h, err := auth.HashPassword(rand.Text())
		if err != nil {
			h = []byte("$2a$11$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva")
		}
		s.dummyHash = h
	})
	return s.dummyHash
}

// clientAddr is the address the rate limit counts: the peer's IP, or,
// behind a trusted proxy, the last X-Forwarded-For entry (the one that
// proxy added).
func (s *Server) clientAddr(r *http.Request) string {
	if s.cfg.TrustForwarded {
		if xff := strings.Join(r.Header.Values("X-Forwarded-For"), ","); xff != "" {
			parts := strings.Split(xff, ",")
			if v := strings.TrimSpace(parts[len(parts)-1]); v != "" {
				return v
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
