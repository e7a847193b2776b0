package syncer

import (
	"testing"
	"time"
)

func TestEditSyncAt(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	delay, most := 400*time.Millisecond, 2*time.Second
	for _, c := range []struct {
		name        string
		first, last time.Time
		want        time.Time
	}{
		{"one edit: the delay after it", t0, t0, ms(400)},
		{"a burst: the delay after the last", t0, ms(300), ms(700)},
		{"editing on: no later than most after the first", t0, ms(1800), ms(2000)},
		{"long past most: at once (the limit)", t0, ms(5000), ms(2000)},
	} {
		if got := editSyncAt(c.first, c.last, delay, most); !got.Equal(c.want) {
			t.Errorf("%s: editSyncAt = +%s, want +%s", c.name, got.Sub(t0), c.want.Sub(t0))
		}
	}
}
