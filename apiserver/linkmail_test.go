package apiserver

import (
	"strings"
	"testing"
	"time"
)

func TestLinkMail(t *testing.T) {
	d := LinkDelivery{To: []string{"ann@client.example"}, URL: "https://pd.example/c/1.2.abc",
		Message: "Hi Ann, <b>here</b> it is.", ExpiresOn: time.Date(2026, 12, 24, 23, 0, 0, 0, time.UTC),
		Dealer: "Sound & Vision", ProposalName: `Den "theater" <script>`}
	m := linkMail(d)
	if m.To[0] != "ann@client.example" || !strings.Contains(m.Subject, `Den "theater" <script>`) {
		t.Errorf("to %v, subject %q", m.To, m.Subject)
	}
	for _, want := range []string{d.URL, "Hi Ann, <b>here</b> it is.", "Thursday, December 24, 2026", "Sound & Vision"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, "<b>here") {
		t.Errorf("HTML not escaped:\n%s", m.HTML)
	}
	if !strings.Contains(m.HTML, `href="https://pd.example/c/1.2.abc"`) || !strings.Contains(m.HTML, "Sound &amp; Vision") {
		t.Errorf("HTML lacks the link or the dealer:\n%s", m.HTML)
	}
	if m := linkMail(LinkDelivery{To: d.To, URL: d.URL, ProposalName: "X"}); strings.HasPrefix(m.Text, "\n") || !strings.Contains(m.Text, "Your dealer sent") {
		t.Errorf("without a message or dealer:\n%s", m.Text)
	}
}
