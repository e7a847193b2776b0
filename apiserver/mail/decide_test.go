package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		in   string
		want Server
		err  bool
	}{
		{in: "smtp://relay.office.lan", want: Server{Host: "relay.office.lan", Port: 25}},
		{in: "smtp://relay.office.lan:2525", want: Server{Host: "relay.office.lan", Port: 2525}},
		{in: "SMTP://10.0.0.5:587", want: Server{Host: "10.0.0.5", Port: 587}},
		{in: "smtps://mail.example.com", want: Server{Host: "mail.example.com", Port: 465, ImplicitTLS: true}},
		{in: "smtps://ann%40example.com:p%40ss%3Aw0rd@mail.example.com:4465",
			want: Server{Host: "mail.example.com", Port: 4465, ImplicitTLS: true, Username: "ann@example.com", Password: "p@ss:w0rd"}},
		{in: "smtp://apikey@[::1]:25", want: Server{Host: "::1", Port: 25, Username: "apikey"}},
		{in: "http://mail.example.com", err: true},
		{in: "mail.example.com:25", err: true},
		{in: "smtp://", err: true},
		{in: "smtp://mail.example.com:0", err: true},
		{in: "smtp://mail.example.com:99999", err: true},
		{in: "smtp://mail.example.com:x", err: true},
		{in: "smtp://:secret@mail.example.com", err: true},
		{in: "smtp://mail.example.com/path", err: true},
		{in: "smtp://mail.example.com?tls=no", err: true},
	}
	for _, tt := range tests {
		got, err := ParseURL(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	// Logs never show the password, even of a URL that fails.
	if _, err := ParseURL("ftp://ann:hunter2@mail.example.com"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error shows the password: %v", err)
	}
	s, _ := ParseURL("smtps://ann:hunter2@mail.example.com")
	if got := s.String(); got != "smtps://ann@mail.example.com:465" {
		t.Errorf("String() = %q", got)
	}
}

func TestParseFrom(t *testing.T) {
	for _, tt := range []struct {
		in, addr string
		err      bool
	}{
		{DefaultFrom, "proposals@proposaldesk.example", false},
		{"sales@dealer.com", "sales@dealer.com", false},
		{`"Smith AV" <office@smithav.com>`, "office@smithav.com", false},
		{"", "", true},
		{"not an address", "", true},
	} {
		a, err := ParseFrom(tt.in)
		if (err != nil) != tt.err || (err == nil && a.Address != tt.addr) {
			t.Errorf("ParseFrom(%q) = %v, %v", tt.in, a, err)
		}
	}
}

func TestClassify(t *testing.T) {
	reply := func(code int, msg string) error { return &textproto.Error{Code: code, Msg: msg} }
	tests := []struct {
		name string
		err  error
		want Outcome
	}{
		{"mailbox unavailable", reply(550, "5.1.1 no such user"), Permanent},
		{"policy refusal, wrapped", fmt.Errorf("send: %w", reply(554, "5.7.1 rejected")), Permanent},
		{"authentication failed", reply(535, "5.7.8 bad credentials"), Permanent},
		{"message too big", reply(552, "5.3.4 too big"), Permanent},
		{"greylisted", reply(451, "4.7.1 greylisted, try later"), Transient},
		{"service closing", reply(421, "4.3.2 shutting down"), Transient},
		{"mailbox full for now", reply(452, "4.2.2 over quota"), Transient},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", errors.New("connection refused"))}, Transient},
		{"connection dropped", fmt.Errorf("read: %w", io.EOF), Transient},
		{"timeout", fmt.Errorf("dial: %w", os.ErrDeadlineExceeded), Transient},
		{"context deadline", context.DeadlineExceeded, Transient},
		{"unknown error", errors.New("something odd"), Transient},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("%s: Classify(%v) = %v; want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestScheduleNext(t *testing.T) {
	s := Schedule{First: 30 * time.Second, Max: time.Hour, GiveUpAfter: 48 * time.Hour}
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		attempt int
		now     time.Time
		wait    time.Duration
		giveUp  bool
	}{
		{1, t0, 30 * time.Second, false},
		{2, t0.Add(time.Minute), time.Minute, false},
		{3, t0.Add(5 * time.Minute), 2 * time.Minute, false},
		{7, t0.Add(time.Hour), 32 * time.Minute, false},
		{8, t0.Add(2 * time.Hour), time.Hour, false}, // 64m capped
		{500, t0.Add(20 * time.Hour), time.Hour, false},
		{60, t0.Add(47 * time.Hour), time.Hour, false}, // exactly at the limit
		{61, t0.Add(47*time.Hour + time.Second), 0, true},
	}
	for _, tt := range tests {
		next, giveUp := s.Next(tt.attempt, t0, tt.now)
		if giveUp != tt.giveUp || (!giveUp && next.Sub(tt.now) != tt.wait) {
			t.Errorf("Next(%d, +%s) = +%s %v; want wait %s, give up %v", tt.attempt, tt.now.Sub(t0), next.Sub(tt.now), giveUp, tt.wait, tt.giveUp)
		}
	}
}
