package apiserver

import (
	"strconv"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/app"
)

// DefaultPasswordCheckWait is Config.PasswordCheckWait's default: a few
// checks' time on a busy two-core machine (one check takes 80-300 ms
// there), so sign-ins that merely meet (an office at nine in the
// morning) queue instead of failing.
const DefaultPasswordCheckWait = time.Second

// passwordBusyRetry is the Retry-After of a sign-in that found every
// password check taken: a check takes well under a second.
const passwordBusyRetry = 1

// checkPassword compares password with hash in one of the bounded
// password-check slots. Every bcrypt comparison of a request goes
// through here (the unknown user's dummy one too), so that sign-ins,
// wrong or right, never use more than Config.PasswordChecks cores and
// other requests keep the rest. When no slot frees within
// Config.PasswordCheckWait it is 429 RateLimited with Retry-After, before
// any comparison, and nothing is counted against the user.
//
// Attempts from a trusted device (a valid device token of the user)
// have slots of their own: a flood of strangers' sign-ins, which fills
// the shared ones, does not keep the users of known devices out. A
// device's failures are limited by the lockout before they get here, so
// a stolen token cannot flood these slots either.
func (s *Server) checkPassword(c *call, trusted bool, hash []byte, password string) (bool, error) {
	slots := s.passwordSlots
	if trusted {
		slots = s.trustedPasswordSlots
	}
	t := time.NewTimer(s.cfg.PasswordCheckWait)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
	case <-t.C:
		c.w.Header().Set("Retry-After", strconv.Itoa(passwordBusyRetry))
		return false, app.Errorf(app.KindRateLimited,
			"The server is checking too many sign-ins at once. Try again in %d second.", passwordBusyRetry)
	case <-c.r.Context().Done():
		return false, c.r.Context().Err()
	}
	defer func() { <-slots }()
	return auth.CheckPassword(hash, password), nil
}

// deviceTokens is the server's device token signer: over key, or a
// random key of this process's own when there is none.
func deviceTokens(key []byte) (*auth.DeviceTokens, error) {
	if key == nil {
		var err error
		if key, err = auth.NewDeviceKey(); err != nil {
			return nil, err
		}
	}
	return auth.NewDeviceTokens(key, auth.DeviceTokenLifetime)
}
