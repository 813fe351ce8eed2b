package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
	"incidentlib/internal/webtest"
)

// TestNginx runs a real nginx with the README's configuration block in
// front of two stateless replicas, as the README tells an operator to,
// and a client that calls tools through it for a while. The block is read
// from the README, so the two cannot drift apart. The client names the
// public host with its port (the old block's $host dropped it: 403) and
// sends an X-Forwarded-For of its own, which the replicas, trusting the
// proxy, log as the client.
//
// The run lasts 20 s; INCIDENTLIB_NGINX_SOAK=5m (any duration) makes it
// the five minutes, too long for every CI run.
func TestNginx(t *testing.T) {
	webtest.Heavy(t, "runs nginx and two replicas")
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr == nil {
			nginx, err = "/usr/sbin/nginx", nil
		}
	}
	if err != nil {
		webtest.Missing(t, "nginx", err)
	}
	soak := 20 * time.Second
	if v := os.Getenv("INCIDENTLIB_NGINX_SOAK"); v != "" {
		if soak, err = time.ParseDuration(v); err != nil {
			t.Fatalf("INCIDENTLIB_NGINX_SOAK=%q: %v", v, err)
		}
	}
	block := readmeNginx(t)

	port := freePort(t)
	public := fmt.Sprintf("http://mcp.test:%d/", port)
	content := repotest.ContentDir(t)
	flags := []string{"-stateless", "-public-url", public, "-trust-proxy", "127.0.0.1", "-drain", "3s"}
	replicas := []*mcpServer{startHTTP(t, content, flags...), startHTTP(t, content, flags...)}

	dir := t.TempDir()
	for _, r := range []struct{ old, new string }{
		{"server 127.0.0.1:8080 ", "server " + hostPort(replicas[0].endpoint) + " "},
		{"server 127.0.0.1:8081 ", "server " + hostPort(replicas[1].endpoint) + " "},
		{"listen 443 ssl;", fmt.Sprintf("listen 127.0.0.1:%d;", port)},
		{"/var/log/nginx/incidentlib.log", filepath.Join(dir, "access.log")},
	} {
		if strings.Count(block, r.old) != 1 {
			t.Fatalf("the README's nginx block does not have %q once: the test no longer matches it", r.old)
		}
		block = strings.Replace(block, r.old, r.new, 1)
	}
	who := ""
	if os.Geteuid() == 0 {
		// nginx's workers would run as nobody, who cannot write here.
		u, _ := user.Current()
		who = "user " + u.Username + ";\n"
	}
	conf := fmt.Sprintf(`%sdaemon off;
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log info;
events { worker_connections 512; }
http {
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
%[3]s
}
`, who, dir, block)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-e", filepath.Join(dir, "error.log"), "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	var nginxOut syncBuilder
	cmd.Stdout, cmd.Stderr = &nginxOut.b, &nginxOut.b
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGQUIT)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	nginxAddr := fmt.Sprintf("127.0.0.1:%d", port)
	// The client resolves mcp.test to nginx and sends a forwarded address.
	client := &http.Client{Transport: &forwarded{base: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, nginxAddr)
		},
	}}}
	ready := false
	for t0 := time.Now(); time.Since(t0) < time.Minute; time.Sleep(100 * time.Millisecond) {
		res, err := client.Get(public + "healthz")
		if err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == 200 && strings.HasPrefix(string(b), "ok: ") {
				ready = true
				break
			}
		}
	}
	if !ready {
		b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		t.Fatalf("nginx never answered /healthz with the replicas' ok:\n%s\n%s", nginxOut.String(), b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), soak+5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e-nginx", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: public + "mcp", HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("connect through nginx: %v", err)
	}
	defer cs.Close()
	var calls, failed atomic.Int64
	call := func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_incidents", Arguments: map[string]any{"query": "ingress 502"}})
		calls.Add(1)
		if err != nil || res.IsError {
			failed.Add(1)
			if failed.Load() <= 5 {
				t.Errorf("call %d through nginx: %v %v", calls.Load(), err, res)
			}
		}
	}
	for end := time.Now().Add(soak); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		call()
	}
	t.Logf("%d calls through nginx in %v, %d failed", calls.Load(), soak, failed.Load())
	if calls.Load() < 10 {
		t.Errorf("only %d calls in %v", calls.Load(), soak)
	}

	// Both replicas answered, and logged the forwarded client with a real
	// duration; nginx logged the calls too.
	line := regexp.MustCompile(`198\.51\.100\.9 POST /mcp 200 \d+B \d+\.\d{3}ms tools/call search_incidents`)
	for i, r := range replicas {
		if !line.MatchString(r.log.String()) {
			t.Errorf("replica %d logged no call of the forwarded client:\n%.2000s", i, r.log.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "access.log")); !strings.Contains(string(b), `"198.51.100.9"`) {
		t.Errorf("nginx's access log has no forwarded address:\n%.1000s", b)
	}

	// SIGTERM: a replica's /healthz fails while it drains, and calls
	// through nginx go on.
	replicas[0].cmd.Process.Signal(syscall.SIGTERM)
	drained := false
	for t0 := time.Now(); time.Since(t0) < 3*time.Second && !drained; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(strings.TrimSuffix(replicas[0].endpoint, "mcp") + "healthz")
		if err != nil {
			break
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		drained = res.StatusCode == http.StatusServiceUnavailable && strings.HasPrefix(string(b), "draining")
	}
	if !drained {
		t.Errorf("replica 0's /healthz did not say draining after SIGTERM:\n%s", replicas[0].log.String())
	}
	before := failed.Load()
	for i := 0; i < 20; i++ {
		call()
	}
	if failed.Load() > before {
		t.Errorf("%d of 20 calls failed through nginx while a replica stopped", failed.Load()-before)
	}
}

// readmeNginx returns the README's nginx block for the MCP server: the
// one with the upstream of replicas.
func readmeNginx(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```nginx\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], "upstream incidentlib_mcp") {
			return m[1]
		}
	}
	t.Fatal("the README has no nginx block with upstream incidentlib_mcp")
	return ""
}

// forwarded sends an X-Forwarded-For, as a client behind another proxy
// would: nginx appends its own peer, and the replicas, which trust nginx,
// take the address before it.
type forwarded struct{ base http.RoundTripper }

func (f *forwarded) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", "198.51.100.9")
	return f.base.RoundTrip(r)
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// hostPort is the host:port of an endpoint URL.
func hostPort(endpoint string) string {
	return strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), "/mcp")
}
