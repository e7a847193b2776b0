package main

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeRefusesPlainHTTPOffLoopback: plain HTTP on all interfaces is
// refused with a message that says why and what to do; an https public
// URL (a TLS proxy in front) or --insecure-http lets it start.
func TestServeRefusesPlainHTTPOffLoopback(t *testing.T) {
	data := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, serverBin, "serve", "--data", data, "--addr", "0.0.0.0:0", "--log-format", "json").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("serve on 0.0.0.0 without TLS: %v\n%s", err, out)
	}
	for _, want := range []string{"refusing to serve plain HTTP", "password", "--tls-cert", "--public-url https://", "--insecure-http"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("message lacks %q:\n%s", want, out)
		}
	}

	for _, extra := range [][]string{
		{"--public-url", "https://proposals.example.com"},
		{"--insecure-http"},
	} {
		p := startServe(t, t.TempDir(), append([]string{"--addr", "0.0.0.0:0"}, extra...)...)
		p.cmd.Process.Signal(syscall.SIGTERM)
		if code := p.wait(t, 25*time.Second); code != 0 {
			t.Errorf("%v: exit code %d", extra, code)
		}
	}
}
