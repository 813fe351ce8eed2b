// Package httpsafe is the HTTP hardening that the preview (package serve)
// and the MCP server's HTTP mode (package mcpserver) share: they face the
// same clients, some of them hostile or broken: connections that send
// nothing, keep-alive connections left open by the thousand. NewServer is
// the one place that sets what a connection may cost, for both; ListenURL
// and PublicWarning say where a server listens and warn when other
// machines can reach it.
package httpsafe

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Timeouts of NewServer's servers. A request must arrive whole within
// readTimeout; net/http lifts the deadline once the request is read, so an
// event stream, which stays open by design, is not cut. There is no write
// timeout for the same reason.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = time.Minute
	idleTimeout       = time.Minute
)

// NewServer returns an http.Server for h with read, header and idle
// timeouts, and ln wrapped so that at most maxConns connections are open
// at once (0 means defaultMaxConns). Serve the returned listener with the
// returned server: the cap needs both.
//
// When the cap is reached, a new connection takes the place of the one
// idle the longest (a keep-alive connection between requests, or one that
// has sent nothing yet), so that a flood of idle connections neither
// exhausts the process's file descriptors (which a reload of the content
// needs) nor keeps new requests waiting. When every connection is busy
// with a request, the new one is closed.
func NewServer(h http.Handler, ln net.Listener, maxConns int) (*http.Server, net.Listener) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
	}
	return srv, LimitConns(srv, ln, maxConns)
}

// LimitConns returns ln wrapped so that srv, which must serve it, holds at
// most maxConns connections at once (0 means defaultMaxConns), as
// NewServer's servers do; for a server that sets its own timeouts
// (mcp -http). It sets srv.ConnState.
func LimitConns(srv *http.Server, ln net.Listener, maxConns int) net.Listener {
	if maxConns <= 0 {
		maxConns = defaultMaxConns()
	}
	l := &limitListener{Listener: ln, max: maxConns, conns: map[*limitConn]bool{}}
	prev := srv.ConnState
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		if lc, ok := c.(*limitConn); ok {
			l.setState(lc, st)
		}
		if prev != nil {
			prev(c, st)
		}
	}
	return l
}

// limitListener caps the connections open at once.
type limitListener struct {
	net.Listener
	max   int
	mu    sync.Mutex
	conns map[*limitConn]bool // open connections
}

type limitConn struct {
	net.Conn
	l     *limitListener
	once  sync.Once
	state http.ConnState // guarded by l.mu
	since time.Time      // when state was entered; guarded by l.mu
}

func (c *limitConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

func (l *limitListener) setState(c *limitConn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.state, c.since = st, time.Now()
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, state: http.StateNew, since: time.Now()}
		l.mu.Lock()
		var victim *limitConn
		if len(l.conns) >= l.max {
			victim = l.idlest()
			if victim == nil {
				l.mu.Unlock()
				c.Close() // every connection is busy: this one waits its turn elsewhere
				continue
			}
			delete(l.conns, victim)
		}
		l.conns[lc] = true
		l.mu.Unlock()
		if victim != nil {
			victim.Conn.Close() // its server goroutine sees the error and ends
		}
		return lc, nil
	}
}

// idlest returns the connection waiting the longest without a request in
// progress, or nil. Called with l.mu held.
func (l *limitListener) idlest() *limitConn {
	var best *limitConn
	for c := range l.conns {
		if c.state != http.StateIdle && c.state != http.StateNew {
			continue
		}
		if best == nil || c.since.Before(best.since) {
			best = c
		}
	}
	return best
}

// ListenURL is the address to open in a browser for a server listening on
// addr: "localhost" for an address that means every interface (0.0.0.0,
// [::]), which a browser cannot open. It also reports whether addr is
// reachable from beyond this machine.
func ListenURL(addr net.Addr) (url string, public bool) {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/", true
	}
	ip := net.ParseIP(host)
	switch {
	case ip != nil && ip.IsUnspecified():
		return "http://localhost:" + port + "/", true
	case ip != nil && ip.IsLoopback(), strings.EqualFold(host, "localhost"):
		return "http://" + net.JoinHostPort(host, port) + "/", false
	}
	return "http://" + net.JoinHostPort(host, port) + "/", true
}

// PublicWarning is what a server prints when it listens beyond this
// machine.
const PublicWarning = "warning: listening on %s, which other machines can reach: anyone on the network can read what it serves; use 127.0.0.1:PORT to keep it on this machine\n"

// LoopbackNames are the names of this machine LoopbackHost takes, for
// messages that say which hosts a server answers.
const LoopbackNames = "localhost, 127.0.0.1 and [::1]"

// LoopbackHost reports whether host (a Host header or the host of an
// Origin, with or without a port) names this machine: "localhost" in any
// case, or a loopback address (127.0.0.0/8, ::1), with or without the
// final dot of a fully qualified name. It is the one rule the preview and
// the MCP server apply against DNS rebinding: a page on an attacker's name
// that resolves to this machine sends that name, and is refused.
func LoopbackHost(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.Trim(name, "[]"), ".")
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}
