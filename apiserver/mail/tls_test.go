package mail_test

import (
	"crypto/tls"

	"proposaldesk/apiserver/mail/smtptest"
)

// tlsTrusting trusts srv's self-signed certificate.
func tlsTrusting(srv *smtptest.Server) *tls.Config { return &tls.Config{RootCAs: srv.Roots} }
