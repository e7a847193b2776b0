package syncer

import (
	"errors"

	"proposaldesk/sync/apiclient"
)

// Explain is a sentence for the person using the app about an error of
// the client or the keyring. Server errors give the server's message,
// which is written for users.
func Explain(err error) string {
	if errors.Is(err, ErrKeyringUnavailable) {
		return "The system keyring is not available, so you will need to sign in again next time you start the app."
	}
	return apiclient.Explain(err)
}
