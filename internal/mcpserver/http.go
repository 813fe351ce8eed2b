package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"incidentlib/internal/diag"
	"incidentlib/internal/httpsafe"
)

// ServeHTTP serves Streamable HTTP on ln until ctx is done, then shuts
// down: it stops accepting, lets the calls in flight finish (for
// HTTPOptions.ShutdownGrace at most) and closes the sessions.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	watchCtx, stopWatch := context.WithCancel(context.Background())
	wait, err := s.watch(watchCtx)
	if err != nil {
		stopWatch()
		ln.Close()
		return err
	}
	s.public.Store(true)
	o := s.opt.HTTP
	srv := &http.Server{
		Handler:           s.httpHandler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.opt.CallTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	if o.Stateless {
		// Without sessions there are no long-lived event streams, so an
		// answer may take no longer than a call.
		srv.WriteTimeout = s.opt.CallTimeout + 5*time.Second
	}
	// At most a quarter of the file descriptors as connections, a quarter
	// of them per client address, an idle one giving way to a new one
	// (see httpsafe.LimitConns); an answer written within a call's time
	// and a little more (event streams have no end).
	ln = httpsafe.LimitConns(srv, ln, httpsafe.Limits{PerAddr: o.MaxConnsPerAddr, Proxies: o.TrustProxy, Request: s.opt.CallTimeout + 5*time.Second})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	s.announce(ln.Addr())
	var serveErr error
	select {
	case <-ctx.Done():
		if o.Drain > 0 {
			// The load balancer sees /healthz fail and sends the calls
			// elsewhere; those that still come are answered.
			s.draining.Store(true)
			s.logf("draining: /healthz answers 503 for %v before the server stops\n", o.Drain)
			select {
			case <-time.After(o.Drain):
			case serveErr = <-served:
			}
		}
	case serveErr = <-served:
	}
	// A request whose body is still coming has a second to arrive (it is
	// then answered); a slower one does not hold the stop up.
	go httpsafe.DropSenders(ln, httpsafe.SenderGrace)
	s.logf("shutting down: waiting for calls in flight (up to %v)\n", o.ShutdownGrace)
	shutCtx, cancel := context.WithTimeout(context.Background(), o.ShutdownGrace)
	defer cancel()
	go func() {
		// Event streams of sessions never end by themselves: close the
		// sessions once the calls in flight are done.
		for s.inFlight.Load() > 0 && shutCtx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		for ss := range s.mcp.Sessions() {
			ss.Close()
		}
	}()
	err = srv.Shutdown(shutCtx)
	stopWatch()
	wait()
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("requests still open after %v were cut off", o.ShutdownGrace)
	}
	s.logf("stopped\n")
	return err
}

// announce logs where the server listens, how and what it watches, with a
// warning when it listens beyond this machine and no public address says
// why.
func (s *Server) announce(at net.Addr) {
	o := s.opt.HTTP
	mode := "sessions"
	if o.Stateless {
		mode = "stateless"
	}
	public := ""
	if o.PublicURL != nil {
		public = "; public at " + o.PublicURL.String()
	}
	addr, beyond := httpsafe.ListenURL(at)
	if beyond && o.PublicURL == nil {
		s.logf(httpsafe.PublicWarning, at)
	}
	s.logf("%s%s (%s%s; watching %s; Ctrl-C to stop)\n", strings.TrimSuffix(addr, "/"), mcpPath, mode, public, s.opt.Content)
}

// healthPath answers load balancers' health checks: 200 "ok" when the
// library is loaded, 200 "degraded" with the number of problems while a
// save broke it (the last good library answers), 503 while the content
// never loaded, and 503 "draining" once the server is stopping. It names
// no file.
const healthPath = "/healthz"

// httpHandler serves Streamable HTTP at mcpPath and the health check at
// healthPath. Requests to mcpPath pass, in order: the Host check, the Origin
// check, the body limit, the frame check (malformed JSON-RPC answered
// with its error and status 400), the session gate (a call without a
// session before initialize, or an initialize beyond the session cap) and
// the SDK's handler. Each request is logged on one line.
func (s *Server) httpHandler() http.Handler {
	h := s.sdkHandler() // versions.go
	mux := http.NewServeMux()
	mux.Handle(mcpPath, s.checkHost(s.checkOrigin(s.gate(compress(s.keepAlive(h))))))
	mux.HandleFunc(healthPath, s.health)
	return s.accessLog(mux)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	cur := s.live.Current()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "draining: the server is stopping")
		return
	}
	good := cur.lastGood()
	switch {
	case good == nil:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "content has %d errors\n", cur.diags.Errors())
	case good != cur:
		fmt.Fprintf(w, "degraded: %d problems; answering from the last library that loaded, %d cases\n", cur.diags.Errors(), len(good.lib.Cases))
	default:
		fmt.Fprintf(w, "ok: %d cases\n", len(cur.lib.Cases))
	}
}

// checkHost refuses a request whose Host is neither the public address's
// nor a loopback one, against DNS rebinding: a page on an attacker's name
// that resolves to this server cannot reach it under that name.
func (s *Server) checkHost(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.allowedHost(r.Host) {
			writeRPCError(w, http.StatusForbidden, invalid(nil, "host %q is not served here: use %s", r.Host, s.serviceName()))
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) serviceName() string {
	if u := s.opt.HTTP.PublicURL; u != nil {
		return u.String()
	}
	return "a loopback address (" + httpsafe.LoopbackNames + ")"
}

func (s *Server) allowedHost(host string) bool {
	if httpsafe.LoopbackHost(host) {
		return true
	}
	u := s.opt.HTTP.PublicURL
	return u != nil && sameHost(host, u)
}

// defaultPort is the port of a scheme.
var defaultPort = map[string]string{"http": "80", "https": "443"}

// sameHost reports whether host (a Host header) names u's host and port,
// the scheme's default port when either has none.
func sameHost(host string, u *url.URL) bool {
	port := u.Port()
	if port == "" {
		port = defaultPort[u.Scheme]
	}
	name, p, err := net.SplitHostPort(host)
	if err != nil {
		name, p = host, defaultPort[u.Scheme]
	}
	return strings.EqualFold(strings.Trim(name, "[]"), u.Hostname()) && p == port
}

// checkOrigin refuses requests that a browser sends on behalf of a page
// from another site (the MCP specification asks servers to check Origin,
// against DNS rebinding and drive-by pages). Clients that are not browsers
// send no Origin and pass.
func (s *Server) checkOrigin(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !s.allowedOrigin(o, r.Host) {
			own := "this server (" + r.Host + ")"
			if u := s.opt.HTTP.PublicURL; u != nil {
				own = u.Scheme + "://" + u.Host
			}
			writeRPCError(w, http.StatusForbidden, invalid(nil, "origin %q may not use this server: only pages of %s or of this machine (%s) may", o, own, httpsafe.LoopbackNames))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// allowedOrigin reports whether origin is the server's own (the public
// address's, or without one the request's Host) or a loopback one.
func (s *Server) allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null" (a file or a sandboxed frame) and anything odd
	}
	if httpsafe.LoopbackHost(u.Host) {
		return true
	}
	if pub := s.opt.HTTP.PublicURL; pub != nil {
		return u.Scheme == pub.Scheme && sameHost(u.Host, pub)
	}
	return strings.EqualFold(u.Host, host)
}

// gate reads a POST's body (up to the limit), answers a malformed message
// itself with status 400 and its JSON-RPC error, as the transport
// specification allows, and answers with a proper code what the SDK would
// get wrong: a call without a session before initialize (400), and an
// initialize beyond the session cap (503). The body is passed on intact.
func (s *Server) gate(h http.Handler) http.Handler {
	o := s.opt.HTTP
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			if r.Method == http.MethodGet {
				httpsafe.MarkStream(r) // a session's event stream
			}
			h.ServeHTTP(w, r)
			return
		}
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, o.MaxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeRPCError(w, http.StatusRequestEntityTooLarge, invalid(nil, "the request body is larger than %d bytes", o.MaxBody))
				return
			}
			writeRPCError(w, http.StatusBadRequest, invalid(nil, "the request body could not be read: %v", err))
			return
		}
		version := r.Header.Get("Mcp-Protocol-Version")
		f, ferr := checkFrame(body, version != "" && version < batchesEnd)
		if ferr != nil {
			writeRPCError(w, http.StatusBadRequest, ferr)
			return
		}
		if lr, ok := w.(*logResponse); ok {
			lr.rpc, lr.tool = f.method, f.tool
		}
		sid := r.Header.Get("Mcp-Session-Id")
		if sid != "" {
			s.sess.touch(sid)
		}
		stateless := o.Stateless || sessionless(r) // versions.go
		if !stateless && sid == "" && !f.batch && f.call && !f.sidless && f.method != "initialize" {
			var id struct{ ID json.RawMessage }
			json.Unmarshal(body, &id)
			writeRPCError(w, http.StatusBadRequest, invalid(id.ID, "no session: send initialize first, then use the Mcp-Session-Id it answers with"))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		if stateless || sid != "" || !f.init {
			h.ServeHTTP(w, r)
			return
		}
		// An initialize, alone or in a batch, opens a session: one at a
		// time, within the caps.
		var id struct{ ID json.RawMessage }
		json.Unmarshal(body, &id)
		client := s.clientOf(r)
		s.sess.initMu.Lock()
		defer s.sess.initMu.Unlock()
		switch s.sess.admit(s, client) {
		case tooManyForClient:
			w.Header().Set("Retry-After", "30")
			writeRPCError(w, http.StatusTooManyRequests, &frameError{code: codeServerBusy, id: id.ID, msg: fmt.Sprintf("%s has %d open sessions, the most one address may have: close one or try again later", client, s.sess.perClient(o.MaxSessions))})
			return
		case full:
			w.Header().Set("Retry-After", "30")
			writeRPCError(w, http.StatusServiceUnavailable, &frameError{code: codeServerBusy, id: id.ID, msg: fmt.Sprintf("the server has %d open sessions, its limit: try again later", o.MaxSessions)})
			return
		}
		h.ServeHTTP(w, r)
		if sid := w.Header().Get("Mcp-Session-Id"); sid != "" {
			s.sess.own(sid, client)
		}
	})
}

// codeServerBusy is the JSON-RPC error of a refused initialize: -32000 to
// -32099 are the codes JSON-RPC leaves to servers.
const codeServerBusy = -32000

// sessions counts the open sessions.
func (s *Server) sessions() int {
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	return n
}

func writeRPCError(w http.ResponseWriter, status int, e *frameError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(e.response(), '\n'))
}

// logResponse records what the access log writes about a request.
type logResponse struct {
	http.ResponseWriter
	status    int
	bytes     int64
	rpc, tool string
}

func (l *logResponse) WriteHeader(code int) {
	if l.status == 0 {
		l.status = code
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *logResponse) Write(p []byte) (int, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	n, err := l.ResponseWriter.Write(p)
	l.bytes += int64(n)
	return n, err
}

// Flush passes the SDK's flushes of event streams on.
func (l *logResponse) Flush() {
	if f, ok := l.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (l *logResponse) Unwrap() http.ResponseWriter { return l.ResponseWriter }

// accessLog writes one line per request: time, client, method, path,
// status, bytes, duration, and the JSON-RPC method and tool of a POST.
func (s *Server) accessLog(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lr := &logResponse{ResponseWriter: w}
		h.ServeHTTP(lr, r)
		if r.URL.Path == healthPath {
			return
		}
		rpc := "-"
		if lr.rpc != "" {
			rpc = lr.rpc
			if lr.tool != "" {
				rpc += " " + lr.tool
			}
		}
		status := lr.status
		if status == 0 {
			status = http.StatusOK
		}
		s.logMu.Lock()
		defer s.logMu.Unlock()
		// Every field a client chose is escaped: a line break in the
		// path (%0a) or the method would forge a line of its own.
		p := diag.Printable
		took := float64(time.Since(start).Microseconds()) / 1000
		fmt.Fprintf(s.opt.Log, "%s %s %s %s %d %dB %.3fms %s\n", start.UTC().Format(time.RFC3339), p(s.clientOf(r)), p(r.Method), p(r.URL.Path), status, lr.bytes, took, p(rpc))
	})
}
