package app

import (
	"testing"
	"time"
)

func TestRecordEmailFailure(t *testing.T) {
	sent := time.Date(2026, 5, 1, 14, 2, 0, 0, time.UTC)
	now := sent.Add(time.Hour)
	f := EmailFailure{Reason: "the mail server refused the message: 550 5.1.1 no such user", To: "ann@client.example"}
	tests := []struct {
		name       string
		status     Status
		lastSent   time.Time
		queuedAt   time.Time
		changed    bool
		wantStatus Status
	}{
		{"waiting for the client", StatusSubmitted, sent, sent, true, StatusEmailFailed},
		{"queued a moment after the send", StatusSubmitted, sent, sent.Add(time.Millisecond), true, StatusEmailFailed},
		{"sent again since", StatusSubmitted, sent.Add(time.Minute), sent, false, StatusSubmitted},
		{"opened through a copied link", StatusViewedByClient, sent, sent, true, StatusViewedByClient},
		{"accepted meanwhile", StatusAccepted, sent, sent, true, StatusAccepted},
		{"back to draft", StatusDraft, sent, sent, true, StatusDraft},
		{"already failed", StatusEmailFailed, sent, sent, true, StatusEmailFailed},
	}
	for _, tt := range tests {
		p := &Proposal{Document: Document{ID: 7, Status: tt.status, LastSubmittedDate: At(tt.lastSent),
			LastModifiedByUserDate: At(sent)}, Version: 4}
		next, changed := RecordEmailFailure(p, tt.queuedAt, f, now)
		if changed != tt.changed {
			t.Errorf("%s: changed %v; want %v", tt.name, changed, tt.changed)
			continue
		}
		if p.Version != 4 || p.EmailFailure != nil || p.Status != tt.status {
			t.Errorf("%s: the proposal given was changed", tt.name)
		}
		if !changed {
			continue
		}
		want := f
		want.At = At(now)
		if next.Status != tt.wantStatus || next.EmailFailure == nil || *next.EmailFailure != want ||
			next.Version != 5 || !next.LastModifiedDate.Equal(now) || !next.LastModifiedByUserDate.Equal(sent) {
			t.Errorf("%s: status %s, failure %+v, version %d, modified %v by user %v", tt.name, next.Status, next.EmailFailure,
				next.Version, next.LastModifiedDate, next.LastModifiedByUserDate)
		}
		if moved := next.FieldVersions[FieldStatus] == 5; moved != (tt.status != tt.wantStatus) {
			t.Errorf("%s: status field version %d", tt.name, next.FieldVersions[FieldStatus])
		}
	}
}
