package apiserver

import (
	"html/template"
	"strings"
	texttemplate "text/template"

	"proposaldesk/apiserver/mail"
)

// linkMail is the mail that carries a client link: the salesperson's
// message, what the link is for, the link and until when it works, as
// plain text and as the same in HTML (every dealer and client string
// escaped by html/template).
func linkMail(d LinkDelivery) mail.Message {
	dealer := d.Dealer
	if strings.TrimSpace(dealer) == "" {
		dealer = "Your dealer"
	}
	v := linkMailView{Dealer: dealer, Proposal: d.ProposalName, Message: d.Message, URL: d.URL,
		Until: d.ExpiresOn.UTC().Format("Monday, January 2, 2006")}
	var text, html strings.Builder
	if err := linkMailText.Execute(&text, v); err != nil {
		panic("bug: link mail text: " + err.Error()) // the template and its view are fixed
	}
	if err := linkMailHTML.Execute(&html, v); err != nil {
		panic("bug: link mail HTML: " + err.Error())
	}
	return mail.Message{To: d.To, Subject: "Proposal from " + dealer + ": " + d.ProposalName,
		Text: text.String(), HTML: html.String()}
}

type linkMailView struct {
	Dealer, Proposal, Message, URL, Until string
}

var linkMailText = texttemplate.Must(texttemplate.New("text").Parse(`{{if .Message}}{{.Message}}

{{end}}{{.Dealer}} sent you the proposal "{{.Proposal}}". Open it to review it, choose options, and accept or decline:

{{.URL}}

The link works until {{.Until}}.
`))

var linkMailHTML = template.Must(template.New("html").Parse(`<!doctype html>
<html lang="en"><body style="font-family: sans-serif; line-height: 1.5">
{{if .Message}}<p style="white-space: pre-line">{{.Message}}</p>
{{end}}<p>{{.Dealer}} sent you the proposal &ldquo;{{.Proposal}}&rdquo;. Open it to review it, choose options, and accept or decline:</p>
<p><a href="{{.URL}}">Open the proposal</a></p>
<p>The link works until {{.Until}}.</p>
</body></html>
`))
