package apiserver

import (
	"encoding/json"
	"testing"

	"proposaldesk/app"
)

// BenchmarkHideCosts is the server's cost of one demo proposal of
// GET /public/sync/proposals for a reader without ViewCosts: the stored
// bytes with the costs replaced (bytes), against decoding, hiding and
// encoding (decode).
//
//	go test -run '^$' -bench HideCosts ./apiserver/
func BenchmarkHideCosts(b *testing.B) {
	docs := demoDocs(b)
	b.Run("bytes", func(b *testing.B) {
		var out []byte
		for i := 0; b.Loop(); i++ {
			var err error
			if out, err = hideCostsJSON(out[:0], docs[i%len(docs)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		var out []byte
		for i := 0; b.Loop(); i++ {
			var p app.Proposal
			if err := json.Unmarshal(docs[i%len(docs)], &p); err != nil {
				b.Fatal(err)
			}
			p.HideCosts()
			var err error
			if out, err = p.AppendJSON(out[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
