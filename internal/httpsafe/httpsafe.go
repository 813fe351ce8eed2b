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
	"net/netip"
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

// Limits say what a connection of NewServer's and LimitConns's servers
// may cost. The zero value is the defaults.
type Limits struct {
	// MaxConns is the most connections open at once; 0 means
	// defaultMaxConns.
	MaxConns int
	// PerAddr is the most connections one client address may hold (an
	// IPv6 client counts by its /64, which one host is given); 0 means a
	// quarter of MaxConns (see addrShare), negative no cap. Loopback
	// and the trusted proxies are exempt: behind a proxy every client
	// comes from its address, and the servers count their sessions by the
	// forwarded one instead.
	PerAddr int
	// Proxies are the trusted reverse proxies (-trust-proxy).
	Proxies Proxies
	// Request is the longest a request may take to be answered, from its
	// handler's start to the last byte written; an event stream
	// (MarkStream) has no end. 0 means no limit.
	Request time.Duration

	loopback func(netip.Addr) bool // nil means netip.Addr.IsLoopback (tests take 127.0.0.2 for another machine)
}

// addrShare says what share of the connections one client address may
// hold unless told otherwise: 1/addrShare, a quarter, as for MCP
// sessions. A quarter
// (256 of 1,024) is more than a NAT of an office needs (a browser opens 6
// connections to a host, an MCP session 2, and 250 sessions one address
// may open hold 250 event streams), and leaves three quarters to everyone
// else.
const addrShare = 4

// NewServer returns an http.Server for h with read, header and idle
// timeouts, and ln wrapped so that connections keep to lim. Serve the
// returned listener with the returned server: the cap needs both.
//
// When the cap is reached, a new connection takes the place of one that
// costs the server without doing work (see LimitConns for which), so that
// a flood neither exhausts the process's file descriptors (which a reload
// of the content needs) nor keeps new requests waiting.
func NewServer(h http.Handler, ln net.Listener, lim Limits) (*http.Server, net.Listener) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
	}
	return srv, LimitConns(srv, ln, lim)
}

// LimitConns returns ln wrapped so that srv, which must serve it, keeps
// to lim, as NewServer's servers do; for a server that sets its own
// timeouts (mcp -http). It sets srv.ConnState and srv.ConnContext, and
// wraps srv.Handler, so call it once the handler is set.
//
// The rule for a full server: a new connection takes the place of, in
// this order, the one idle the longest (between requests, or that has sent
// nothing yet); the one whose request body comes slowest, below
// minBodyRate; the oldest event stream (MarkStream). Only when every
// connection is a request at work is the new one closed. The same rule
// holds among one client address's connections when it has lim.PerAddr of
// them: its new connection takes the place of one of its own, or is
// closed, and never of another client's. A request body must also keep to
// minBodyRate on its own, after bodyGrace, and end within srv.ReadTimeout:
// a client that sends headers and then a byte a minute holds a connection
// for no longer. An answer must be written within lim.Request. Event
// streams have a cap of their own, a quarter of the connections: past it,
// the oldest ends.
func LimitConns(srv *http.Server, ln net.Listener, lim Limits) net.Listener {
	maxConns := lim.MaxConns
	if maxConns <= 0 {
		maxConns = defaultMaxConns()
	}
	perAddr := lim.PerAddr
	switch {
	case perAddr == 0:
		perAddr = max(1, maxConns/addrShare)
	case perAddr < 0:
		perAddr = maxConns
	}
	loopback := lim.loopback
	if loopback == nil {
		loopback = netip.Addr.IsLoopback
	}
	exempt := func(a netip.Addr) bool { return loopback(a) || lim.Proxies.trusts(a) }
	l := &limitListener{Listener: ln, max: maxConns, maxStreams: max(1, maxConns/4), conns: map[*limitConn]bool{},
		perAddr: perAddr, exempt: exempt, byAddr: map[netip.Prefix]int{}}
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
		start := time.Now()
		rc := http.NewResponseController(w)
		if lc != nil {
			l.mu.Lock()
			lc.rc = rc
			l.mu.Unlock()
		}
		if lim.Request > 0 {
			// Lifted by MarkStream for an event stream.
			_ = rc.SetWriteDeadline(start.Add(lim.Request))
		}
		var body *rateBody
		if lc != nil && r.Body != nil && r.Body != http.NoBody {
			body = &rateBody{ReadCloser: r.Body, c: lc, rc: rc, start: start}
			if srv.ReadTimeout > 0 {
				body.end = start.Add(srv.ReadTimeout)
			}
			r.Body = body
			l.mu.Lock()
			lc.reading, lc.bodyStart, lc.bodyRead = true, start, 0
			l.mu.Unlock()
			// A body the handler left unread is read to its end by the
			// server after it, at the same rate, to keep the connection.
			_ = body.rc.SetReadDeadline(body.due())
		}
		defer func() {
			if lc != nil {
				l.mu.Lock()
				lc.reading, lc.stream, lc.rc = body != nil && !body.done, false, nil
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
// connection's read deadline to when the bytes so far are due, but never
// past end, when the whole request is due (the server's ReadTimeout, which
// a read deadline of the handler's would otherwise replace).
type rateBody struct {
	io.ReadCloser
	c     *limitConn
	rc    *http.ResponseController
	start time.Time
	end   time.Time // zero: no limit
	n     int64
	done  bool // read to its end; guarded by c.l.mu
}

// due is when the bytes read so far must have come.
func (b *rateBody) due() time.Time {
	due := b.start.Add(bodyGrace + time.Duration(b.n)*time.Second/minBodyRate)
	if !b.end.IsZero() && b.end.Before(due) {
		return b.end
	}
	return due
}

func (b *rateBody) Read(p []byte) (int, error) {
	_ = b.rc.SetReadDeadline(b.due())
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	b.c.l.mu.Lock()
	b.c.bodyRead = b.n
	if err != nil {
		b.c.reading, b.done = false, true
	}
	b.c.l.mu.Unlock()
	if err == nil && n > 0 {
		_ = b.rc.SetReadDeadline(b.due())
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
	if lc.rc != nil {
		_ = lc.rc.SetWriteDeadline(time.Time{}) // a stream has no end
	}
	n := 0
	for c := range l.conns {
		if c.stream {
			n++
		}
	}
	var victim *limitConn
	if n > l.maxStreams {
		victim = l.oldestStream(lc, netip.Prefix{})
		if victim != nil {
			l.forget(victim)
		}
	}
	l.mu.Unlock()
	if victim != nil {
		victim.Conn.Close()
	}
}

// limitListener caps the connections open at once, in all and per
// client address.
type limitListener struct {
	net.Listener
	max        int
	maxStreams int
	perAddr    int
	exempt     func(netip.Addr) bool
	mu         sync.Mutex
	conns      map[*limitConn]bool  // open connections
	byAddr     map[netip.Prefix]int // open connections per counted client address
}

type limitConn struct {
	net.Conn
	l     *limitListener
	once  sync.Once
	addr  netip.Prefix   // the client address it counts against; invalid when exempt
	state http.ConnState // guarded by l.mu, as all below
	since time.Time      // when state was entered
	// rc controls the request at work, if any.
	rc *http.ResponseController
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
		c.l.forget(c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// forget takes c out of the counts. Called with l.mu held.
func (l *limitListener) forget(c *limitConn) {
	if !l.conns[c] {
		return
	}
	delete(l.conns, c)
	if c.addr.IsValid() {
		if l.byAddr[c.addr]--; l.byAddr[c.addr] <= 0 {
			delete(l.byAddr, c.addr)
		}
	}
}

func (l *limitListener) setState(c *limitConn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.state, c.since = st, time.Now()
}

// clientOf is the address a connection counts against: its IP address,
// an IPv6 one by its /64; invalid for an exempt address or one that is
// not an IP address.
func (l *limitListener) clientOf(c net.Conn) netip.Prefix {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return netip.Prefix{}
	}
	a := ap.Addr().Unmap()
	if l.exempt(a) {
		return netip.Prefix{}
	}
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, state: http.StateNew, since: time.Now(), addr: l.clientOf(c)}
		l.mu.Lock()
		var victim *limitConn
		switch {
		case lc.addr.IsValid() && l.byAddr[lc.addr] >= l.perAddr:
			// One address at its share makes room among its own.
			victim = l.victim(lc.addr)
		case len(l.conns) >= l.max:
			victim = l.victim(netip.Prefix{})
		default:
			victim = lc // no room needed
		}
		if victim == nil {
			l.mu.Unlock()
			c.Close() // every connection is busy: this one waits its turn elsewhere
			continue
		}
		if victim != lc {
			l.forget(victim)
		}
		l.conns[lc] = true
		if lc.addr.IsValid() {
			l.byAddr[lc.addr]++
		}
		l.mu.Unlock()
		if victim != lc {
			victim.Conn.Close() // its server goroutine sees the error and ends
		}
		return lc, nil
	}
}

// CloseSending closes the connections of ln (a listener of NewServer or
// LimitConns) that have not sent their whole request: those that sent
// nothing or part of their headers, and those still sending a body. A
// server that stops calls it, so that a slow client does not hold the
// stop up for the work it has not asked for yet. It returns how many it
// closed.
func CloseSending(ln net.Listener) int {
	l, ok := ln.(*limitListener)
	if !ok {
		return 0
	}
	l.mu.Lock()
	var gone []*limitConn
	for c := range l.conns {
		if c.state == http.StateNew || (c.reading && !c.stream) {
			gone = append(gone, c)
			l.forget(c)
		}
	}
	l.mu.Unlock()
	for _, c := range gone {
		c.Conn.Close()
	}
	return len(gone)
}

// SenderGrace is how long a stopping server lets a client finish sending
// the request it has begun: a body on its way at SIGTERM is answered, a
// slow one is dropped within a second.
const SenderGrace = time.Second

// DropSenders gives the connections of ln still sending their request up
// to grace to finish it, then closes those that have not (CloseSending).
// A stopping server runs it beside its Shutdown, which has closed the
// listener and waits for the requests that did arrive.
func DropSenders(ln net.Listener, grace time.Duration) int {
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) && sending(ln) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	return CloseSending(ln)
}

// sending counts the connections of ln that CloseSending would close.
func sending(ln net.Listener) int {
	l, ok := ln.(*limitListener)
	if !ok {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for c := range l.conns {
		if c.state == http.StateNew || (c.reading && !c.stream) {
			n++
		}
	}
	return n
}

// victim returns the connection a new one takes the place of, or nil:
// the one idle the longest, else the slowest request body below
// minBodyRate, else the oldest event stream; among the connections of
// addr only, when it is valid. Called with l.mu held.
func (l *limitListener) victim(addr netip.Prefix) *limitConn {
	var idle, slow *limitConn
	var slowest float64
	now := time.Now()
	for c := range l.conns {
		if addr.IsValid() && c.addr != addr {
			continue
		}
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
	return l.oldestStream(nil, addr)
}

// oldestStream returns the event stream open the longest, but not, or
// nil; among addr's connections only when addr is valid. Called with l.mu
// held.
func (l *limitListener) oldestStream(but *limitConn, addr netip.Prefix) *limitConn {
	var best *limitConn
	for c := range l.conns {
		if addr.IsValid() && c.addr != addr {
			continue
		}
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
