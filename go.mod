module proposaldesk

go 1.26.0

require (
	github.com/go-resty/resty/v2 v2.17.2
	golang.org/x/crypto v0.58.0
)

require golang.org/x/net v0.60.0 // indirect
