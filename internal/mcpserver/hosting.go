package mcpserver

import (
	"compress/gzip"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Hosting behind a proxy (#40): the client's address from a trusted
// proxy's X-Forwarded-For (HTTPOptions.TrustProxy) for the access log and
// the per-address session cap; keep-alive comments on event streams, so
// that a proxy's read timeout (nginx's is 60 s) does not cut a quiet
// session; gzip for answers large enough to gain from it.

// clientOf is the address a request comes from, as the access log and the
// session caps count it.
func (s *Server) clientOf(r *http.Request) string { return s.opt.HTTP.TrustProxy.Client(r) }

// defaultKeepAlive is the time between keep-alive comments on an event
// stream: well under the 60 s after which proxies commonly drop a quiet
// connection.
const defaultKeepAlive = 25 * time.Second

// keepAlive sends a comment line (": keep-alive") on every event stream
// the handler keeps open, each HTTPOptions.KeepAlive of quiet. Events are
// written whole, one Write each (as the SDK writes them), so a comment
// never lands inside one.
func (s *Server) keepAlive(h http.Handler) http.Handler {
	every := s.opt.HTTP.KeepAlive
	if every < 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			h.ServeHTTP(w, r)
			return
		}
		kw := &keepAliveWriter{ResponseWriter: w, stop: make(chan struct{}), every: every}
		defer kw.close()
		h.ServeHTTP(kw, r)
	})
}

type keepAliveWriter struct {
	http.ResponseWriter
	mu      sync.Mutex
	every   time.Duration
	started bool
	last    time.Time
	stop    chan struct{}
	done    sync.WaitGroup
}

// begin starts the comments once the answer is known to be an event
// stream. Called with mu held.
func (k *keepAliveWriter) begin() {
	if k.started || !strings.HasPrefix(k.Header().Get("Content-Type"), "text/event-stream") {
		return
	}
	k.started, k.last = true, time.Now()
	k.done.Add(1)
	go func() {
		defer k.done.Done()
		t := time.NewTicker(k.every / 5)
		defer t.Stop()
		for {
			select {
			case <-k.stop:
				return
			case <-t.C:
			}
			k.mu.Lock()
			if time.Since(k.last) >= k.every {
				_, err := k.ResponseWriter.Write([]byte(": keep-alive\n\n"))
				if err == nil {
					err = http.NewResponseController(k.ResponseWriter).Flush()
				}
				k.last = time.Now()
				if err != nil {
					k.mu.Unlock()
					return
				}
			}
			k.mu.Unlock()
		}
	}()
}

func (k *keepAliveWriter) WriteHeader(code int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK {
		k.begin()
	}
}

func (k *keepAliveWriter) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.begin()
	k.last = time.Now()
	return k.ResponseWriter.Write(p)
}

func (k *keepAliveWriter) Flush() {
	k.mu.Lock()
	defer k.mu.Unlock()
	http.NewResponseController(k.ResponseWriter).Flush()
}

func (k *keepAliveWriter) Unwrap() http.ResponseWriter { return k.ResponseWriter }

func (k *keepAliveWriter) close() {
	close(k.stop)
	k.done.Wait()
}

// gzipMin is the smallest answer worth compressing: below it the gzip
// header and the CPU cost more than the bytes saved.
const gzipMin = 1024

// compress gzips the answer to a POST when the client accepts gzip and
// the answer's first write (a whole JSON body or a whole event: the SDK
// writes each in one) is gzipMin bytes or more. Event streams of GET stay
// as they are, to be read as they come.
func compress(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method != http.MethodPost || !acceptsGzip(r) {
			h.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		h.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				q := strings.ReplaceAll(params, " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

// gzipWriter holds the status until the first write decides whether the
// answer is compressed.
type gzipWriter struct {
	http.ResponseWriter
	status  int
	decided bool
	gz      *gzip.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.decided {
		return
	}
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified {
		g.decide(false)
		g.ResponseWriter.WriteHeader(code)
		return
	}
	g.status = code
}

func (g *gzipWriter) decide(zip bool) {
	g.decided = true
	status := g.status
	if status == 0 {
		status = http.StatusOK
	}
	if zip && g.Header().Get("Content-Encoding") == "" {
		h := g.Header()
		if g.gz = getGzip(); g.gz != nil {
			h.Set("Content-Encoding", "gzip")
			h.Del("Content-Length")
			g.gz.Reset(g.ResponseWriter)
		}
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *gzipWriter) Write(p []byte) (int, error) {
	if !g.decided {
		g.decide(len(p) >= gzipMin)
	}
	if g.gz == nil {
		return g.ResponseWriter.Write(p)
	}
	return g.gz.Write(p)
}

// Flush sends what is compressed so far: an event reaches the client whole.
func (g *gzipWriter) Flush() {
	if !g.decided {
		g.decide(false)
	}
	if g.gz != nil {
		g.gz.Flush()
	}
	http.NewResponseController(g.ResponseWriter).Flush()
}

func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

func (g *gzipWriter) close() {
	if !g.decided {
		if g.status == 0 {
			return // nothing was written: net/http answers 200 itself
		}
		g.decide(false)
	}
	if g.gz != nil {
		g.gz.Close()
		putGzip(g.gz)
		g.gz = nil
	}
}

// Gzip writers are kept for reuse, and only a few at once: each holds
// about a megabyte of tables, which a new writer per answer would
// allocate again (under make bench-mcp that doubled a call's CPU), and 200
// answers compressed at once would hold 200 MB. An answer that finds none
// free goes out as it is.
var (
	gzipFree    = make(chan *gzip.Writer, gzipWriters)
	gzipCreated atomic.Int32
)

// gzipWriters is the most gzip writers at once: compressing is CPU work,
// so more than the cores can run gain nothing.
var gzipWriters = 2 * runtime.GOMAXPROCS(0)

func getGzip() *gzip.Writer {
	select {
	case w := <-gzipFree:
		return w
	default:
	}
	if gzipCreated.Add(1) > int32(gzipWriters) {
		gzipCreated.Add(-1)
		return nil
	}
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}

func putGzip(w *gzip.Writer) {
	select {
	case gzipFree <- w:
	default:
		gzipCreated.Add(-1)
	}
}
