package apiclient

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The split page holds what encoding/json decodes from the same bytes,
// whatever the spacing and whatever brackets and quotes the strings hold;
// a malformed page is an error, never a silently shorter page.
func TestDecodeSyncPageEqualsUnmarshal(t *testing.T) {
	for _, body := range []string{
		`{"storeId":"s1","proposals":[],"missing":[]}`,
		`{"storeId":"s1","proposals":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"missing":[3,4]}`,
		// PostgreSQL's jsonb text, and spacing anywhere JSON allows it.
		" {\n \"missing\" : [ ] , \"proposals\" : [ {\"id\": 1, \"name\": \"x\"} ,\t{\"id\": 2} ] ,\r\n\"storeId\" : \"s\" } \n",
		`{"storeId":"s","proposals":[{"name":"\"}],[{\\","areas":[{"items":[[]]}]},{"name":"é ✓ \u00e9 \\\\"}],"missing":null}`,
		`{"storeId":"s","proposals":null,"missing":[1],"extra":{"a":[1,{"b":"]"}]}}`,
		`{"proposals":[1,true,null,"x",-2.5e3,[]]}`,
		`{}`,
	} {
		t.Run(body, func(t *testing.T) {
			got, err := decodeSyncPage([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			var want SyncPage
			if err := json.Unmarshal([]byte(body), &want); err != nil {
				t.Fatal(err)
			}
			if want.Proposals == nil {
				want.Proposals = []json.RawMessage{}
			}
			if want.Missing == nil {
				want.Missing = []int64{}
			}
			// RawMessage keeps spacing inside an element: compare compacted.
			if len(got.Proposals) != len(want.Proposals) {
				t.Fatalf("%d proposals, want %d", len(got.Proposals), len(want.Proposals))
			}
			for i := range got.Proposals {
				if string(got.Proposals[i]) != string(want.Proposals[i]) {
					t.Errorf("proposal %d: %s, want %s", i, got.Proposals[i], want.Proposals[i])
				}
			}
			got.Proposals, want.Proposals = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("page %+v, want %+v", got, want)
			}
		})
	}
}

func TestDecodeSyncPageRefusesMalformed(t *testing.T) {
	for _, body := range []string{
		``,
		`[]`,
		`{"storeId":"s","proposals":[{"id":1}`,
		`{"storeId":"s","proposals":[{"id":1}]`,
		`{"storeId":"s","proposals":[{"id":1},]}`,
		`{"storeId":"s","proposals":[{"id":1} {"id":2}]}`,
		`{"storeId" "s"}`,
		`{"storeId":"s}`,
		`{"storeId":"s"} x`,
		`{"storeId":1}`,
		`{"missing":["a"]}`,
		`{"proposals":{"id":1}}`,
		`{storeId:"s"}`,
	} {
		t.Run(body, func(t *testing.T) {
			if page, err := decodeSyncPage([]byte(body)); err == nil {
				t.Errorf("no error; page %+v", page)
			}
		})
	}
}
