package apiserver

import (
	"encoding/json"
	"testing"

	"proposaldesk/app"
)

// listBody writes exactly what encoding app.ListResponse writes.
func TestListBodyIsListResponse(t *testing.T) {
	items := []app.ListItem{
		{ID: 1, Number: 7, Name: `Lake <house> & "dock"`, Status: app.Statuses[0]},
		{ID: 2, Name: "Ödön", Customer: &app.Contact{ID: 9, FirstName: "Ann"}},
	}
	for _, tc := range []struct {
		name  string
		items []app.ListItem
		count int
	}{{"empty", []app.ListItem{}, 0}, {"one", items[:1], 1}, {"page of more", items, 12345}} {
		rows := make([][]byte, len(tc.items))
		for i, it := range tc.items {
			b, err := json.Marshal(it)
			if err != nil {
				t.Fatal(err)
			}
			rows[i] = b
		}
		want, err := json.Marshal(app.ListResponse{Proposals: tc.items, Count: tc.count})
		if err != nil {
			t.Fatal(err)
		}
		if got := listBody(rows, tc.count); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
}
