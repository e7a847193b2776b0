package app

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxSendRecipients bounds the addresses one send mails the link to.
const MaxSendRecipients = 20

// SendRequest is a send's input as checked: the recipients' addresses,
// the message, and the instant the link stops deciding.
type SendRequest struct {
	To        []string
	Message   string
	ExpiresOn time.Time
}

// ParseSendRequest checks a send's fields as typed or sent: To is
// comma-separated (empty: defaultTo, the customer's email), ExpiresOn a
// date (YYYY-MM-DD or an RFC 3339 time; empty: DefaultLinkDays from
// now). The link decides through the whole day named, in UTC. The server
// and the laptop both call it, so an offline send that could never go
// out is refused at once, in the same words.
func ParseSendRequest(to, message, expiresOn, defaultTo string, now time.Time) (SendRequest, error) {
	var r SendRequest
	if strings.TrimSpace(to) == "" {
		to = defaultTo
	}
	for _, a := range strings.Split(to, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		addr, err := mail.ParseAddress(a)
		if err != nil {
			return r, Invalid("To", "%q is not an email address", a)
		}
		r.To = append(r.To, addr.Address)
	}
	if len(r.To) == 0 {
		return r, Invalid("To", "is required: the customer has no email address")
	}
	if len(r.To) > MaxSendRecipients {
		return r, Invalid("To", "names %d addresses; at most %d", len(r.To), MaxSendRecipients)
	}
	r.Message = message
	if n := utf8.RuneCountInString(message); n > MaxSendMessage {
		return r, Invalid("Message", "is %d characters long; at most %d", n, MaxSendMessage)
	}
	day := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, DefaultLinkDays)
	if s := strings.TrimSpace(expiresOn); s != "" {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t, err2 := time.Parse(time.RFC3339, s)
			if err2 != nil {
				return r, Invalid("ExpiresOn", "must be a date (YYYY-MM-DD), not %q", s)
			}
			d = t.UTC()
		}
		day = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	}
	r.ExpiresOn = day.AddDate(0, 0, 1)
	if !r.ExpiresOn.After(now) {
		return r, Invalid("ExpiresOn", "is in the past")
	}
	if r.ExpiresOn.After(now.AddDate(1, 0, 1)) {
		return r, Invalid("ExpiresOn", "is more than a year away")
	}
	return r, nil
}
