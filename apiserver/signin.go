package apiserver

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"proposaldesk/apiserver/lockout"
	"proposaldesk/app"
)

// checkLockout refuses a key exchange the lockout policy says must wait
// (429 with Retry-After), before the password is looked at.
func (s *Server) checkLockout(c *call, keys lockout.Keys) error {
	st, err := s.signins.Load(c.r.Context(), keys)
	if err != nil {
		return fmt.Errorf("load sign-in failures of %s: %w", keys.User, err)
	}
	d := lockout.Default.Decide(st, c.now)
	if d.Allowed() {
		return nil
	}
	secs := int(math.Ceil(d.Wait.Seconds()))
	c.w.Header().Set("Retry-After", strconv.Itoa(secs))
	return app.Errorf(app.KindRateLimited, "Too many failed sign-ins for this %s. Try again in %s.", d.Scope, waitText(d.Wait))
}

// signInFailed counts a wrong password or unknown user and answers it.
func (s *Server) signInFailed(c *call, keys lockout.Keys) error {
	if err := s.signins.Failed(c.r.Context(), keys, c.now); err != nil {
		return fmt.Errorf("count sign-in failure of %s: %w", keys.User, err)
	}
	return errInvalidCredentials
}

func waitText(d time.Duration) string {
	if d <= time.Minute {
		n := int(math.Ceil(d.Seconds()))
		if n == 1 {
			return "1 second"
		}
		return strconv.Itoa(n) + " seconds"
	}
	n := int(math.Ceil(d.Minutes()))
	return strconv.Itoa(n) + " minutes"
}
