package boltstore

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// benchStore is a store with one account holding n random proposals,
// written in one transaction.
func benchStore(b *testing.B, n int, opts ...Option) (*Store, int64, []int64) {
	b.Helper()
	s, _ := openTest(b, opts...)
	acct, err := s.Auth().CreateAccount(ctx, store.Account{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	g := storetest.NewGen(42)
	ps := g.PutRandom(b, s, acct.ID, n)
	ids := make([]int64, 0, len(ps))
	for id := range ps {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return s, acct.ID, ids
}

// realistic is a proposal of the size a dealer makes: 8 areas of 2
// options of 6 items, with notes.
func realistic(tx store.Tx) *app.Proposal {
	p := storetest.NewProposal(tx, "Lake house theater and whole-home audio", &app.Contact{ID: 5, PartyType: app.PartyPerson, FirstName: "Ann", LastName: "Smith"})
	p.ProjectDescription = string(make([]byte, 2000))
	for a := range 8 {
		area := app.Area{ID: tx.NextID(), Name: fmt.Sprint("Area ", a)}
		for o := range 2 {
			opt := app.Option{ID: tx.NextID(), Status: app.OptionDraft, ClientDescription: "A good option with several lines of client-facing text."}
			for i := range 6 {
				opt.Items = append(opt.Items, app.Item{ID: tx.NextID(), ItemType: app.ItemTypes[i%4], Brand: "Sonance", Model: fmt.Sprint("M", o, i),
					Name: "In-ceiling speaker", Description: "8 inch two-way in-ceiling speaker", SellPrice: 49900, MSRP: 59900, Quantity: app.MustQuantity("2"),
					CreatedDate: p.CreatedDate, LastModifiedDate: p.CreatedDate})
			}
			area.Options = append(area.Options, opt)
		}
		p.Areas = append(p.Areas, area)
	}
	return p
}

// BenchmarkList10k is a filtered, text-searched list page over 10,000
// proposals with a warm cache; it reports the p99 latency too.
func BenchmarkList10k(b *testing.B) { benchList(b, 10000) }

// BenchmarkList100k is the same at 100,000 proposals (target: under
// 25 ms p99).
func BenchmarkList100k(b *testing.B) { benchList(b, 100000) }

// BenchmarkListAfterWrites is a list page while the account is written
// to: every write makes a new index version (the delta grows, and the
// base is rebuilt every n/8 writes), as under the mixed load.
func BenchmarkListAfterWrites10k(b *testing.B) {
	s, acct, ids := benchStore(b, 10000)
	q := app.ListQuery{SearchText: "smith", SortBy: app.SortModifiedDate, Descending: true, PageNumber: 1, PageSize: 25}
	i := 0
	for b.Loop() {
		i++
		err := s.Update(ctx, acct, func(tx store.Tx) error {
			p, err := tx.Proposal(ids[i%len(ids)])
			if err != nil {
				return err
			}
			p.Name = fmt.Sprint("renamed ", i)
			return tx.PutProposal(p)
		})
		if err != nil {
			b.Fatal(err)
		}
		s.View(ctx, acct, func(tx store.Tx) error { _, _, err := tx.List(q); return err })
	}
}

func benchList(b *testing.B, n int) {
	s, acct, _ := benchStore(b, n)
	queries := map[string]app.ListQuery{
		"search+status": {SearchText: "smith kitchen", Statuses: []app.Status{app.StatusDraft, app.StatusSubmitted, app.StatusViewedByClient},
			SortBy: app.SortModifiedDate, Descending: true, PageNumber: 1, PageSize: 25},
		"search-only/name-asc":   {SearchText: "lake", SortBy: app.SortName, PageNumber: 2, PageSize: 25},
		"unfiltered/default":     app.DefaultListQuery(),
		"unfiltered/name-page40": {SortBy: app.SortName, PageNumber: 40, PageSize: 200},
	}
	for _, name := range []string{"search+status", "search-only/name-asc", "unfiltered/default", "unfiltered/name-page40"} {
		q := queries[name]
		b.Run(name, func(b *testing.B) {
			var count int
			s.View(ctx, acct, func(tx store.Tx) error { _, count, _ = tx.List(q); return nil }) // warm
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				err := s.View(ctx, acct, func(tx store.Tx) error {
					_, _, err := tx.List(q)
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(count), "matches")
		})
	}
}

// BenchmarkListCold is the first list after open: the cache is built from
// the index bucket (10,000 small JSON decodes).
func BenchmarkListCold10k(b *testing.B) {
	s, acct, _ := benchStore(b, 10000)
	q := app.DefaultListQuery()
	for b.Loop() {
		s.snaps.Reset()
		s.View(ctx, acct, func(tx store.Tx) error { _, _, err := tx.List(q); return err })
	}
}

// BenchmarkPutProposal is one Update per put of a realistic proposal
// (read it, change it, write it) into an account of 10,000; "fsync" is
// the default, "nosync" shows what bbolt's commit fsync costs.
func BenchmarkPutProposal(b *testing.B) {
	for _, mode := range []string{"fsync", "nosync"} {
		b.Run(mode, func(b *testing.B) {
			var opts []Option
			if mode == "nosync" {
				opts = append(opts, WithNoSync())
			}
			s, acct, _ := benchStore(b, 10000, opts...)
			var id int64
			s.Update(ctx, acct, func(tx store.Tx) error {
				p := realistic(tx)
				id = p.ID
				return tx.PutProposal(p)
			})
			// The list cache is warm, as on a serving server.
			s.View(ctx, acct, func(tx store.Tx) error { _, _, err := tx.List(app.DefaultListQuery()); return err })
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				i++
				err := s.Update(ctx, acct, func(tx store.Tx) error {
					p, err := tx.Proposal(id)
					if err != nil {
						return err
					}
					p.Name = fmt.Sprint("Lake house ", i)
					p.Version++
					return tx.PutProposal(p)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGetProposal reads and decodes a realistic proposal in a View.
func BenchmarkGetProposal(b *testing.B) {
	s, acct, _ := benchStore(b, 10000)
	var id int64
	s.Update(ctx, acct, func(tx store.Tx) error {
		p := realistic(tx)
		id = p.ID
		return tx.PutProposal(p)
	})
	b.ReportAllocs()
	for b.Loop() {
		err := s.View(ctx, acct, func(tx store.Tx) error {
			_, err := tx.Proposal(id)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGroupCommit is small proposal writes (one Update each, fsync'd)
// from 1 or 32 concurrent writers: with 32, writes share commits.
func BenchmarkGroupCommit(b *testing.B) {
	for _, writers := range []int{1, 32} {
		b.Run(fmt.Sprint("writers=", writers), func(b *testing.B) {
			s, acct, ids := benchStore(b, 1000)
			b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					err := s.Update(ctx, acct, func(tx store.Tx) error {
						p, err := tx.Proposal(ids[i%len(ids)])
						if err != nil {
							return err
						}
						p.Name = fmt.Sprint("renamed ", i)
						return tx.PutProposal(p)
					})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
