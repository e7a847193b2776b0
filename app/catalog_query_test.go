package app_test

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"proposaldesk/app"
)

func TestParseCatalogQuery(t *testing.T) {
	with := func(f func(q *app.CatalogQuery)) app.CatalogQuery {
		q := app.DefaultCatalogQuery()
		f(&q)
		return q
	}
	for _, tc := range []struct {
		name  string
		query string
		want  app.CatalogQuery
		kind  app.Kind
		field string
	}{
		{"nothing: every type, page 1 of 10", "", app.DefaultCatalogQuery(), "", ""},
		{"blank values keep defaults", "PageNumber=&PageSize=%20&ItemType=&CategoryId=", app.DefaultCatalogQuery(), "", ""},
		{"search text trimmed", "searchtext=%20sonos%20amp%20", with(func(q *app.CatalogQuery) { q.SearchText = "sonos amp" }), "", ""},
		{"item type in any case", "ITEMTYPE=labor", with(func(q *app.CatalogQuery) { q.ItemType = app.ItemLabor }), "", ""},
		{"repeated brands, duplicates once, commas kept", "Brands=Sonos&brands=SONOS&Brands=Bowers,%20Inc", with(func(q *app.CatalogQuery) { q.Brands = []string{"Sonos", "Bowers, Inc"} }), "", ""},
		{"category and paging", "CategoryId=7&PageNumber=3&PageSize=200", with(func(q *app.CatalogQuery) { q.CategoryID, q.PageNumber, q.PageSize = 7, 3, 200 }), "", ""},
		{"unknown type", "ItemType=Widget", app.CatalogQuery{}, app.KindValidationFailed, "ItemType"},
		{"bad category", "CategoryId=x", app.CatalogQuery{}, app.KindValidationFailed, "CategoryId"},
		{"negative category", "CategoryId=-1", app.CatalogQuery{}, app.KindValidationFailed, "CategoryId"},
		{"search text too long", "SearchText=" + strings.Repeat("a", 201), app.CatalogQuery{}, app.KindValidationFailed, "SearchText"},
		{"page 0", "PageNumber=0", app.CatalogQuery{}, app.KindInvalidPaging, ""},
		{"page size 201", "PageSize=201", app.CatalogQuery{}, app.KindInvalidPaging, ""},
		{"page size 0", "PageSize=0", app.CatalogQuery{}, app.KindInvalidPaging, ""},
		{"page size not a number", "PageSize=ten", app.CatalogQuery{}, app.KindInvalidPaging, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			values, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := app.ParseCatalogQuery(values)
			if tc.kind != "" {
				var e *app.Error
				if app.KindOf(err) != tc.kind {
					t.Fatalf("error %v, want kind %s", err, tc.kind)
				}
				if tc.field != "" && (!errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != tc.field) {
					t.Errorf("error %v does not name %s", err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			again, err := app.ParseCatalogQuery(got.Values())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("Values round trip: %+v, %v", again, err)
			}
		})
	}
}

func TestCatalogQueryMatchesAndOrder(t *testing.T) {
	items := []app.CatalogItem{
		{ID: 1, ItemType: app.ItemPart, Brand: "Sonos", Model: "AMPG1US1BLK", Name: "Sonos Amp", PartNumber: "SON-AMP", CategoryID: 3},
		{ID: 2, ItemType: app.ItemPart, Brand: "sonos", Model: "ARC", Name: "Arc Soundbar", PartNumber: "SON-ARC", CategoryID: 4},
		{ID: 3, ItemType: app.ItemLabor, Name: "Installation Labor", PartNumber: "LAB-INSTALL"},
		{ID: 4, ItemType: app.ItemPart, Brand: "Denon", Model: "AVR-X4800H", Name: "Receiver", PartNumber: "DEN-4800", CategoryID: 3},
		{ID: 5, ItemType: app.ItemPart, Brand: "Sonos", Model: "ARC", Name: "Arc (white)", PartNumber: "SON-ARC-W", CategoryID: 4},
	}
	entries := make([]app.CatalogEntry, len(items))
	for i := range items {
		entries[i] = app.CatalogEntryOf(&items[i])
	}
	for _, tc := range []struct {
		name  string
		q     app.CatalogQuery
		want  []int64
		count int
	}{
		{"everything in brand, model, ID order; no brand first", app.CatalogQuery{PageNumber: 1, PageSize: 10}, []int64{3, 4, 1, 2, 5}, 5},
		{"words in any order, any case", app.CatalogQuery{SearchText: "AMP sonos", PageNumber: 1, PageSize: 10}, []int64{1}, 1},
		{"part number substring", app.CatalogQuery{SearchText: "4800", PageNumber: 1, PageSize: 10}, []int64{4}, 1},
		{"description is not searched", app.CatalogQuery{SearchText: "white arc", PageNumber: 1, PageSize: 10}, []int64{5}, 1},
		{"item type", app.CatalogQuery{ItemType: app.ItemLabor, PageNumber: 1, PageSize: 10}, []int64{3}, 1},
		{"brands case-insensitive", app.CatalogQuery{Brands: []string{"SONOS", "denon"}, PageNumber: 1, PageSize: 10}, []int64{4, 1, 2, 5}, 4},
		{"category", app.CatalogQuery{CategoryID: 4, PageNumber: 1, PageSize: 10}, []int64{2, 5}, 2},
		{"second page", app.CatalogQuery{PageNumber: 2, PageSize: 2}, []int64{1, 2}, 5},
		{"past the end", app.CatalogQuery{PageNumber: 4, PageSize: 2}, []int64{}, 5},
		{"huge page number", app.CatalogQuery{PageNumber: 1 << 62, PageSize: 200}, []int64{}, 5},
		{"no match", app.CatalogQuery{SearchText: "sonos labor", PageNumber: 1, PageSize: 10}, []int64{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, count := tc.q.Select(entries)
			ids := []int64{}
			for _, e := range page {
				ids = append(ids, e.ID)
			}
			if count != tc.count || !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("got %v (%d), want %v (%d)", ids, count, tc.want, tc.count)
			}
		})
	}
}

func TestCatalogViewHidesCost(t *testing.T) {
	cost := app.MustMoney("10.00")
	it := app.CatalogItem{ID: 1, Cost: &cost}
	if v := app.CatalogView(it, app.ViewOptions{}); v.Cost != nil {
		t.Errorf("Viewer sees cost %v", *v.Cost)
	}
	v := app.CatalogView(it, app.ViewOptions{ViewCosts: true})
	if v.Cost == nil || *v.Cost != cost || v.Cost == it.Cost {
		t.Errorf("Sales view cost %v (shared pointer: %v)", v.Cost, v.Cost == it.Cost)
	}
}
