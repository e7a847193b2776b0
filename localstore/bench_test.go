package localstore

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/internal/procstat"
)

// BenchmarkEdit is one offline edit as the user makes it: the rules, the
// local view and list row, the outbox entry, one fsynced commit. It
// reports the median (p50-ns) besides the mean.
func BenchmarkEdit(b *testing.B) {
	s := openStore(b, "")
	seed(b, s)
	rng := rand.New(rand.NewSource(1))
	fill(b, s, 200, rng)
	f := newFakeServer()
	p := pulled(b, s, f, "Bench")
	v, err := s.Edit(ctx, p.ID, &app.CreateArea{ID: p.ID, Name: "Main"}, envAt(0, sales))
	if err != nil {
		b.Fatal(err)
	}
	opt := v.Areas[0].Options[0].ID
	var times []time.Duration
	i := 0
	for b.Loop() {
		i++
		var m app.Mutation = &app.SetDescription{ID: p.ID, Description: strings.Repeat("x", i%500)}
		if i%2 == 0 {
			m = &app.SetOptionClientDescription{ID: p.ID, OptionID: opt, ClientDescription: "v" + string(rune('a'+i%26))}
		}
		start := time.Now()
		if _, err := s.Edit(ctx, p.ID, m, envAt(i, sales)); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.ReportMetric(float64(median(times).Nanoseconds()), "p50-ns")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// store10k is a file with 10,000 proposals, made once per run.
func store10k(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "localstore-bench")
	path := filepath.Join(dir, "10k.db")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	os.MkdirAll(dir, 0o700)
	tmp := path + ".tmp"
	os.Remove(tmp)
	s, err := OpenWith(tmp, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	seed(b, s)
	fill(b, s, 10_000, rand.New(rand.NewSource(3)))
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkOpen10k opens a store of 10,000 proposals and loads its list
// index. It reports the process's resident memory after the load.
func BenchmarkOpen10k(b *testing.B) {
	path := store10k(b)
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		if len(s.items) != 10_000 {
			b.Fatalf("%d items", len(s.items))
		}
		s.Close()
	}
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.Search(app.DefaultListQuery())
	b.ReportMetric(float64(median(times).Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(int64(procstat.KB("VmRSS"))), "RSS-KiB")
}

// BenchmarkSearch10k is a text search with a sort over 10,000 entries.
func BenchmarkSearch10k(b *testing.B) {
	s, err := Open(store10k(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	q := app.DefaultListQuery()
	q.SearchText = "lake acme"
	q.SortBy = app.SortName
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, n, _ := s.Search(q); n == 0 {
			b.Fatal("no matches")
		}
		times = append(times, time.Since(start))
	}
	b.ReportMetric(float64(median(times).Nanoseconds()), "p50-ns")
}

// BenchmarkEditItem500 is a content edit of a 500-item proposal as the
// user makes it offline: change an item's quantity or price, or add a
// line and remove one, with the rules, the totals of the list row, the
// outbox entry and one fsynced commit. Target: p50 < 5 ms.
func BenchmarkEditItem500(b *testing.B) {
	s := openStore(b, "")
	seed(b, s)
	f := newFakeServer()
	p := pulled(b, s, f, "Big job")
	var err error
	for a := range 5 {
		p, err = f.apply(&app.CreateArea{ID: p.ID, Name: "Room " + string(rune('A'+a))}, t0, sales)
		if err != nil {
			b.Fatal(err)
		}
		opt := p.Areas[a].Options[0].ID
		for i := range 100 {
			price, q := app.Money(1000+i*37), app.Quantity(1+i%4)*app.OneUnit
			p, err = f.apply(&app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("Part"),
				SellPrice: &price, Quantity: &q}, t0, sales)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := s.PutServerCopy(ctx, p); err != nil {
		b.Fatal(err)
	}
	items := app.ItemsView(p, app.ViewOptions{})
	if len(items) != 500 {
		b.Fatalf("%d items", len(items))
	}
	rng := rand.New(rand.NewSource(1))
	var times []time.Duration
	i := 0
	for b.Loop() {
		i++
		it := items[rng.Intn(len(items))]
		q := app.Quantity(1+rng.Intn(9)) * app.OneUnit
		var m app.Mutation = &app.ChangeItem{ID: p.ID, ItemID: it.ID, Quantity: &q}
		if i%3 == 0 {
			price := app.Money(rng.Intn(100_000))
			m = &app.ChangeItem{ID: p.ID, ItemID: it.ID, SellPrice: &price}
		}
		start := time.Now()
		if _, err := s.Edit(ctx, p.ID, m, envAt(i, sales)); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.ReportMetric(float64(median(times).Microseconds())/1000, "p50-ms")
}

func ptrTo[T any](v T) *T { return &v }
