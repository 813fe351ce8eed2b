// Package httpsafe is the HTTP hardening that the preview (package serve)
// and the MCP server's HTTP mode (package mcpserver) share: they face the
// same clients, some of them hostile or broken: connections that send
// nothing, keep-alive connections left open by the thousand. NewServer is
// the one place that sets what a connection may cost, for both; ListenURL
// and PublicWarning say where a server listens and warn when other
// machines can reach it.
package httpsafe

import (
	"context"
	"io"
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
// When the cap is reached, a new connection takes the place of one that
// costs the server without doing work (see LimitConns for which), so that
// a flood neither exhausts the process's file descriptors (which a reload
// of the content needs) nor keeps new requests waiting.
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
// (mcp -http). It sets srv.ConnState and srv.ConnContext, and wraps
// srv.Handler, so call it once the handler is set.
//
// The rule for a full server: a new connection takes the place of, in
// this order, the one idle the longest (between requests, or that has sent
// nothing yet); the one whose request body comes slowest, below
// minBodyRate; the oldest event stream (MarkStream). Only when every
// connection is a request at work is the new one closed. A request body
// must also keep to minBodyRate on its own, after bodyGrace: a client
// that sends headers and then a byte a minute holds a connection for no
// longer. Event streams have a cap of their own, a quarter of the
// connections: past it, the oldest ends.
func LimitConns(srv *http.Server, ln net.Listener, maxConns int) net.Listener {
	if maxConns <= 0 {
		maxConns = defaultMaxConns()
	}
	l := &limitListener{Listener: ln, max: maxConns, maxStreams: max(1, maxConns/4), conns: map[*limitConn]bool{}}
	prev := srv.ConnState
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		if lc, ok := c.(*limitConn); ok {
			l.setState(lc, st)
		}
		if prev != nil {
			prev(c, st)
		}
	}
	prevCtx := srv.ConnContext
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if prevCtx != nil {
			ctx = prevCtx(ctx, c)
		}
		if lc, ok := c.(*limitConn); ok {
			ctx = context.WithValue(ctx, connKey{}, lc)
		}
		return ctx
	}
	h := srv.Handler
	if h == nil {
		h = http.DefaultServeMux
	}
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lc, _ := r.Context().Value(connKey{}).(*limitConn)
		var body *rateBody
		if lc != nil && r.Body != nil && r.Body != http.NoBody {
			body = &rateBody{ReadCloser: r.Body, c: lc, rc: http.NewResponseController(w), start: time.Now()}
			r.Body = body
			l.mu.Lock()
			lc.reading, lc.bodyStart, lc.bodyRead = true, time.Now(), 0
			l.mu.Unlock()
			// A body the handler left unread is read to its end by the
			// server after it, at the same rate, to keep the connection.
			_ = body.rc.SetReadDeadline(body.start.Add(bodyGrace))
		}
		defer func() {
			if lc != nil {
				l.mu.Lock()
				lc.reading, lc.stream = body != nil && !body.done, false
				l.mu.Unlock()
			}
		}()
		h.ServeHTTP(w, r)
	})
	return l
}

// Request bodies must come at minBodyRate bytes a second at least, after
// the first bodyGrace: a request of MCP is a few hundred bytes, a form a
// few kilobytes, and any client on a working network sends them in a
// fraction of that time.
const (
	minBodyRate = 1024
	bodyGrace   = 5 * time.Second
)

type connKey struct{}

// rateBody is a request body held to minBodyRate: each read moves the
// connection's read deadline to when the bytes so far are due.
type rateBody struct {
	io.ReadCloser
	c     *limitConn
	rc    *http.ResponseController
	start time.Time
	n     int64
	done  bool // read to its end; guarded by c.l.mu
}

func (b *rateBody) Read(p []byte) (int, error) {
	due := b.start.Add(bodyGrace + time.Duration(b.n)*time.Second/minBodyRate)
	_ = b.rc.SetReadDeadline(due)
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	b.c.l.mu.Lock()
	b.c.bodyRead = b.n
	if err != nil {
		b.c.reading, b.done = false, true
	}
	b.c.l.mu.Unlock()
	if err == nil && n > 0 {
		_ = b.rc.SetReadDeadline(b.start.Add(bodyGrace + time.Duration(b.n)*time.Second/minBodyRate))
	}
	return n, err
}

// MarkStream says that r is answered with an event stream, which stays
// open: the connection cap may end the oldest stream for a new connection,
// and past their own cap streams end oldest first. Servers call it before
// they start the stream.
func MarkStream(r *http.Request) {
	lc, ok := r.Context().Value(connKey{}).(*limitConn)
	if !ok {
		return
	}
	l := lc.l
	l.mu.Lock()
	lc.stream, lc.streamSince = true, time.Now()
	n := 0
	for c := range l.conns {
		if c.stream {
			n++
		}
	}
	var victim *limitConn
	if n > l.maxStreams {
		victim = l.oldestStream(lc)
		if victim != nil {
			delete(l.conns, victim)
		}
	}
	l.mu.Unlock()
	if victim != nil {
		victim.Conn.Close()
	}
}

// limitListener caps the connections open at once.
type limitListener struct {
	net.Listener
	max        int
	maxStreams int
	mu         sync.Mutex
	conns      map[*limitConn]bool // open connections
}

type limitConn struct {
	net.Conn
	l     *limitListener
	once  sync.Once
	state http.ConnState // guarded by l.mu, as all below
	since time.Time      // when state was entered
	// reading is set while a handler reads a request body: bodyRead bytes
	// of it since bodyStart.
	reading   bool
	bodyStart time.Time
	bodyRead  int64
	// stream is set while the connection carries an event stream, since
	// streamSince (MarkStream).
	stream      bool
	streamSince time.Time
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
			victim = l.victim()
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

// victim returns the connection a new one takes the place of, or nil:
// the one idle the longest, else the slowest request body below
// minBodyRate, else the oldest event stream. Called with l.mu held.
func (l *limitListener) victim() *limitConn {
	var idle, slow *limitConn
	var slowest float64
	now := time.Now()
	for c := range l.conns {
		switch {
		case c.state == http.StateIdle || c.state == http.StateNew:
			if idle == nil || c.since.Before(idle.since) {
				idle = c
			}
		case c.reading && !c.stream:
			took := now.Sub(c.bodyStart).Seconds()
			if took < 1 {
				continue // too soon to tell
			}
			if rate := float64(c.bodyRead) / took; rate < minBodyRate && (slow == nil || rate < slowest) {
				slow, slowest = c, rate
			}
		}
	}
	switch {
	case idle != nil:
		return idle
	case slow != nil:
		return slow
	}
	return l.oldestStream(nil)
}

// oldestStream returns the event stream open the longest, but not, or
// nil. Called with l.mu held.
func (l *limitListener) oldestStream(but *limitConn) *limitConn {
	var best *limitConn
	for c := range l.conns {
		if c.stream && c != but && (best == nil || c.streamSince.Before(best.streamSince)) {
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
