package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/app"
	"proposaldesk/cmd/server/internal/load"
)

// selfSigned writes a certificate and key for 127.0.0.1 and returns a
// pool that trusts it.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(k)
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// TestNginxConfig runs docs/nginx-replicas.conf as the README gives it
// (addresses and certificate paths replaced) in front of two replicas on
// one database: signed requests over TLS through the proxy, reads
// alternating between the replicas, and GETs still answered after one
// replica is killed.
func TestNginxConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			t.Fatal("nginx not installed (scripts/setup-debian.sh installs nginx-light)")
		}
		nginx = "/usr/sbin/nginx"
	}
	dir := t.TempDir()
	cert, key, pool := selfSigned(t, dir)
	port, err := freeTCPPort()
	if err != nil {
		t.Fatal(err)
	}
	public := fmt.Sprintf("https://127.0.0.1:%d", port)
	db := pgtest.NewDatabase(t)
	var ps [2]*proc
	for i := range ps {
		ps[i] = startServe(t, filepath.Join(dir, fmt.Sprint("r", i)), "--demo", "--database", db, "--public-url", public)
	}
	conf, err := os.ReadFile("../../docs/nginx-replicas.conf")
	if err != nil {
		t.Fatal(err)
	}
	site := strings.NewReplacer(
		"127.0.0.1:8081", listenAddr(t, ps[0]),
		"127.0.0.1:8082", listenAddr(t, ps[1]),
		"listen 443 ssl;", fmt.Sprintf("listen 127.0.0.1:%d ssl;", port),
		"/etc/ssl/certs/proposals.example.com.pem", cert,
		"/etc/ssl/private/proposals.example.com.key", key,
	).Replace(string(conf))
	os.WriteFile(filepath.Join(dir, "site.conf"), []byte(site), 0o644)
	main := fmt.Sprintf(`pid %[1]s/nginx.pid; error_log %[1]s/error.log; daemon off; worker_processes 1;
events {}
http { access_log off; client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy; include %[1]s/site.conf; }
`, dir)
	os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644)
	cmd := exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	// A file, not a pipe: nginx's workers inherit it, and Wait would
	// wait for them to close a pipe.
	logf, err := os.Create(filepath.Join(dir, "nginx.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// SIGTERM: the master stops its workers, then itself.
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	out := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return string(b)
	}

	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	var creds demo.Credentials
	for range 100 { // nginx starting
		if resp, err := hc.Get(public + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	creds = readDemo(t, filepath.Join(dir, "r0"))
	sales, _ := creds.User(demo.MainAccountName, app.RoleSales, true)
	k, uid, err := load.Exchange(context.Background(), hc, public, creds.AppID, creds.AppSecret, sales.Email, sales.Password)
	if err != nil {
		t.Fatalf("sign in through nginx: %v\n%s", err, out())
	}
	c := &apiClient{base: public, appID: creds.AppID, secret: creds.AppSecret, key: k, userID: uid, hc: hc}
	id := c.newProposal(t, "Through the proxy")
	path := fmt.Sprintf("/public/proposals/%d", id)
	for range 4 { // round robin: both replicas answer
		if _, err := c.call("GET", path, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	ps[0].cmd.Process.Kill()
	ps[0].wait(t, 10*time.Second)
	for i := range 4 {
		if _, err := c.call("GET", path, nil, nil); err != nil {
			t.Errorf("GET %d after one replica died: %v", i, err)
		}
	}
}

// listenAddr is the address serve listens on (its baseUrl is the public
// URL here).
func listenAddr(t *testing.T, p *proc) string {
	t.Helper()
	for _, line := range strings.Split(p.logs(), "\n") {
		var rec struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "listening" && rec.Addr != "" {
			return rec.Addr
		}
	}
	t.Fatalf("no listening address in the log:\n%s", p.logs())
	return ""
}

func freeTCPPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
