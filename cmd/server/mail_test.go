package main

import (
	"flag"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

// The mail settings come from flags or PD_ variables, and a wrong one
// stops the server before it serves.
func TestMailFlags(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		env        map[string]string
		args       []string
		wantSender bool
		err        string
	}{
		{wantSender: false},
		{args: []string{"--smtp-url", "smtp://relay.office.lan"}, wantSender: true},
		{env: map[string]string{"PD_SMTP_URL": "smtps://ann:pw@mail.example.com", "PD_MAIL_FROM": "Smith AV <office@smithav.com>"}, wantSender: true},
		{args: []string{"--smtp-url", "http://mail.example.com"}, err: "--smtp-url"},
		{env: map[string]string{"PD_SMTP_URL": "smtp://relay"}, args: []string{"--mail-from", "nobody"}, err: "--mail-from"},
	}
	for i, tt := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) { // each restores its environment
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var mf mailFlags
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			mailFlag(fs, &mf)
			if err := parse(fs, tt.args); err != nil {
				t.Fatalf("%v %v: %v", tt.env, tt.args, err)
			}
			cfg, err := mf.config(log)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("%v %v: error %v; want one naming %s", tt.env, tt.args, err, tt.err)
				}
			} else if err != nil || (cfg.Sender != nil) != tt.wantSender {
				t.Errorf("%v %v: sender %v, %v", tt.env, tt.args, cfg.Sender != nil, err)
			}
		})
	}
}
