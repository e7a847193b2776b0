// Command gen writes the API's OpenAPI document (spec.Build) to the file
// named by its argument. `go generate ./apiserver/openapi` runs it.
package main

import (
	"fmt"
	"os"

	"proposaldesk/apiserver/openapi/spec"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen FILE")
		os.Exit(2)
	}
	doc, err := spec.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], doc, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
}
