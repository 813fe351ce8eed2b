package httpsafe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"testing"
	"time"
)

// TestPerAddrCap (#39 row 4): one client address holds at most its share
// of the connections, over real sockets. The test takes only 127.0.0.1
// for this machine, so that 127.0.0.2 and 127.0.0.3 play two other
// machines. 127.0.0.2 asks for 20 slow answers: 4 are at work, the others
// are closed at once; while they are at work 127.0.0.3 is answered; this
// machine's address and a trusted proxy (127.0.0.4) are not capped; and
// an address at its share whose connections are idle makes room among its
// own.
func TestPerAddrCap(t *testing.T) {
	release := make(chan struct{})
	started := make(chan bool, 100)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			started <- true
			<-release
		}
		fmt.Fprint(w, "ok")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxies, _ := ParseProxies("127.0.0.4")
	lim := Limits{MaxConns: 64, PerAddr: 4, Proxies: proxies, loopback: func(a netip.Addr) bool { return a == netip.MustParseAddr("127.0.0.1") }}
	srv, capped := NewServer(h, ln, lim)
	go srv.Serve(capped)
	t.Cleanup(func() { close(release); srv.Close() })
	addr := ln.Addr().String()
	dial := func(from string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial from %s: %v", from, err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// slow asks for a slow answer from an address and reports whether the
	// server took the request (its handler started) or closed the
	// connection.
	slow := func(from string) bool {
		c := dial(from)
		fmt.Fprintf(c, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
		closed := make(chan error, 1)
		go func() {
			_, err := c.Read(make([]byte, 1))
			closed <- err
		}()
		select {
		case <-started:
			return true
		case err := <-closed:
			if err != io.EOF && !errors.Is(err, syscall.ECONNRESET) {
				t.Errorf("from %s: %v, want the answer or the connection closed", from, err)
			}
			return false
		case <-time.After(time.Minute):
			t.Fatalf("from %s: neither taken nor closed", from)
			return false
		}
	}
	held := func(from string, n int) int {
		k := 0
		for i := 0; i < n; i++ {
			if slow(from) {
				k++
			}
		}
		return k
	}
	if k := held("127.0.0.2", 20); k != 4 {
		t.Errorf("one address asked for 20 slow answers: %d at work, want its share, 4", k)
	}
	get := func(from string) error {
		tr := &http.Transport{DisableKeepAlives: true, DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
			return d.DialContext(ctx, network, a)
		}}
		client := &http.Client{Timeout: 30 * time.Second, Transport: tr}
		resp, err := client.Get("http://" + addr + "/")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if b, _ := io.ReadAll(resp.Body); string(b) != "ok" {
			return fmt.Errorf("%s %q", resp.Status, b)
		}
		return nil
	}
	if err := get("127.0.0.3"); err != nil {
		t.Errorf("another client while the first holds its share: %v", err)
	}
	if err := get("127.0.0.2"); err == nil {
		t.Errorf("the capped address was answered while its share is at work")
	}
	if k := held("127.0.0.1", 10); k != 10 {
		t.Errorf("this machine asked for 10 slow answers: %d at work, want all", k)
	}
	if k := held("127.0.0.4", 10); k != 10 {
		t.Errorf("the trusted proxy asked for 10 slow answers: %d at work, want all", k)
	}

	// Idle connections of an address at its share give way to its new
	// one: the oldest is closed.
	var idle []net.Conn
	for i := 0; i < 4; i++ {
		idle = append(idle, dial("127.0.0.5"))
	}
	l := capped.(*limitListener)
	waitCount(t, l, netip.MustParsePrefix("127.0.0.5/32"), 4)
	if err := get("127.0.0.5"); err != nil {
		t.Errorf("an address whose share is idle: %v", err)
	}
	idle[0].SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := idle[0].Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the oldest idle connection of the address: %v, want it closed", err)
	}
}

// waitCount waits until l counts n connections of the client p.
func waitCount(t *testing.T, l *limitListener, p netip.Prefix, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		l.mu.Lock()
		k := l.byAddr[p]
		l.mu.Unlock()
		if k == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %d connections, want %d", p, k, n)
		}
	}
}

// TestClientOf: a client counts by its IPv4 address or its IPv6 /64; this
// machine and the trusted proxies are not counted.
func TestClientOf(t *testing.T) {
	proxies, _ := ParseProxies("10.0.0.0/8")
	l := &limitListener{}
	l.exempt = func(a netip.Addr) bool { return a.IsLoopback() || proxies.trusts(a) }
	for remote, want := range map[string]string{
		"192.0.2.7:5000":              "192.0.2.7/32",
		"[::ffff:192.0.2.7]:5000":     "192.0.2.7/32",
		"[2001:db8:1:2:3:4:5:6]:5000": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:443":  "2001:db8:1:2::/64",
		"127.0.0.1:5000":              "invalid Prefix",
		"[::1]:5000":                  "invalid Prefix",
		"10.1.2.3:5000":               "invalid Prefix",
		"[::ffff:10.1.2.3]:5000":      "invalid Prefix",
		"not an address":              "invalid Prefix",
	} {
		if got := l.clientOf(fakeConn{remote: stringAddr(remote)}).String(); got != want {
			t.Errorf("%s counts as %s, want %s", remote, got, want)
		}
	}
}

type fakeConn struct {
	net.Conn
	remote net.Addr
}

func (c fakeConn) RemoteAddr() net.Addr { return c.remote }
