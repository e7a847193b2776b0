package main

import (
	"fmt"
	"log/slog"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/mail"
)

// mailFlags are the outgoing mail settings of serve.
type mailFlags struct{ smtpURL, from string }

func mailFlag(fs flagSet, mf *mailFlags) {
	fs.StringVar(&mf.smtpURL, "smtp-url", "", "SMTP server for the client's link mail: smtp://[user:password@]host[:port] (STARTTLS when offered; port 25) or smtps://… (TLS; port 465); without it no mail goes out")
	fs.StringVar(&mf.from, "mail-from", mail.DefaultFrom, "sender `address` of the link mail (\"Name <addr>\")")
}

// config checks the settings; an empty --smtp-url is no mail.
func (mf mailFlags) config(log *slog.Logger) (apiserver.MailConfig, error) {
	if mf.smtpURL == "" {
		log.Info("no --smtp-url: client links are made but not mailed")
		return apiserver.MailConfig{}, nil
	}
	srv, err := mail.ParseURL(mf.smtpURL)
	if err != nil {
		return apiserver.MailConfig{}, fmt.Errorf("--smtp-url: %w", err)
	}
	snd, err := mail.NewSender(mail.Settings{Server: srv, From: mf.from})
	if err != nil {
		return apiserver.MailConfig{}, fmt.Errorf("--mail-from: %w", err)
	}
	if mf.from == mail.DefaultFrom {
		log.Warn("--mail-from not set: mail goes out from the demo address, which receivers may refuse", "from", mf.from)
	}
	log.Info("mail", "smtp", srv.String(), "from", mf.from)
	return apiserver.MailConfig{Sender: snd}, nil
}
