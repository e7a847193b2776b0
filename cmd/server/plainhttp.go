package main

import (
	"fmt"
	"net"
	"strings"
)

// checkPlainHTTP refuses plain HTTP on an address other machines can
// reach. The key exchange carries the password in its query string and
// the signature does not cover request bodies, so over plain HTTP anyone
// on the path can read passwords and keys and rewrite writes. Plain HTTP
// is allowed on loopback, behind a TLS proxy (an https public URL), or
// when the operator says so with --insecure-http.
func checkPlainHTTP(bound net.Addr, tlsOn bool, publicURL string, insecure bool) error {
	if tlsOn || insecure || strings.HasPrefix(strings.ToLower(publicURL), "https://") {
		return nil
	}
	if ta, ok := bound.(*net.TCPAddr); ok && ta.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing to serve plain HTTP on %s, which is reachable from other machines: "+
		"the key exchange sends the password in the URL and signatures do not cover request bodies, "+
		"so anyone on the network could read passwords and keys or change what is written. "+
		"Serve HTTPS with --tls-cert and --tls-key, or run behind a TLS-terminating proxy and set "+
		"--public-url https://..., or listen on 127.0.0.1; "+
		"--insecure-http accepts the risk (a trusted, isolated network only)", bound)
}
