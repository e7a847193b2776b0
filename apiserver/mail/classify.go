package mail

import (
	"errors"
	"net/textproto"
	"strconv"
	"strings"

	gomail "github.com/wneessen/go-mail"
)

// Outcome is what a failed attempt means for the message.
type Outcome int

const (
	// Transient: try again later (a 4xx reply, a network failure, a
	// timeout, a server that could not be reached at all).
	Transient Outcome = iota
	// Permanent: the mail server refused the message (a 5xx reply), or
	// the message can never be sent (an address no server accepts).
	// Sending it again would be refused again.
	Permanent
)

func (o Outcome) String() string {
	if o == Permanent {
		return "permanent"
	}
	return "transient"
}

// Classify says whether an attempt that failed with err may succeed
// later. An SMTP reply decides by its first digit (RFC 5321: 4 is
// transient, 5 permanent); anything that is not a reply (a refused or
// broken connection, a timeout, a TLS handshake the server broke off) is
// transient, so a relay that is down for an hour loses no mail. A
// certificate that does not verify is transient too: it is usually a
// setting to fix, and the retries wait for it until the schedule gives
// up.
func Classify(err error) Outcome {
	if err == nil {
		return Transient
	}
	if code := replyCode(err); code != 0 {
		if code >= 500 && code < 600 {
			return Permanent
		}
		return Transient
	}
	var se *gomail.SendError
	if errors.As(err, &se) {
		switch se.Reason {
		case gomail.ErrGetSender, gomail.ErrGetRcpts, gomail.ErrNoUnencoded:
			// The message itself is unsendable: no sender or recipient
			// address go-mail can write, or 8-bit content a server
			// without 8BITMIME cannot take. No retry changes that.
			return Permanent
		}
	}
	return Transient
}

// replyCode is the SMTP reply code err carries, or 0.
func replyCode(err error) int {
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() != 0 {
		return se.ErrorCode()
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// Reason is why an attempt failed, in words for the proposal: the
// server's reply (code, enhanced code, text) when it gave one.
func Reason(err error) string {
	if code := replyCode(err); code != 0 {
		return "the mail server refused the message: " + replyText(err.Error(), code)
	}
	return "the mail server could not be reached: " + err.Error()
}

// replyText is the reply in msg, an error's text that quotes it after
// its code ("…: 550 \"5.7.1 Rejected\", affected message ID: …"): from
// the code to the end of the quoted text. msg as it is when the code is
// not in it.
func replyText(msg string, code int) string {
	c := strconv.Itoa(code)
	i := strings.LastIndex(msg, c+" ")
	if i < 0 {
		return msg
	}
	reply := msg[i:]
	if j := strings.Index(reply, ", affected "); j >= 0 {
		reply = reply[:j]
	}
	return strings.ReplaceAll(reply, `"`, "")
}
