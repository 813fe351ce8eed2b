package serve

import (
	"fmt"
	"net/http"
	"time"
)

// DefaultRequestTimeout is how long a request may take unless
// Options.RequestTimeout says otherwise: far more than any page of a
// library written by people takes to render (the heaviest case of
// content/ renders in milliseconds, a page of 2,000 cases' worst Markdown
// in a few seconds), and short enough that a page made slow on purpose
// does not hold a browser tab for minutes.
const DefaultRequestTimeout = 30 * time.Second

// stopGrace is how long answers in flight may take to be sent once the
// preview stops (Ctrl-C, SIGTERM); requests still waiting for a page end
// at once.
const stopGrace = time.Second

// bounded runs work, which makes what the request at start is answered
// from, and waits for it until the request's deadline, the client leaving
// or the server stopping. It reports whether work finished; when it did
// not, the request has been answered (503) or its client is gone, and
// work goes on in the background: a page is rendered once per model, so
// what it makes is kept for the next request.
func (s *Server) bounded(w http.ResponseWriter, r *http.Request, start time.Time, work func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		work()
	}()
	timer := time.NewTimer(time.Until(start.Add(s.opt.RequestTimeout)))
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-r.Context().Done():
		return false // nobody to answer
	case <-s.stopping:
		unavailable(w, "incidentlib serve is stopping")
	case <-timer.C:
		unavailable(w, fmt.Sprintf("incidentlib serve: this file took longer than %v to make (-request-timeout); it is still being made: reload in a while", s.opt.RequestTimeout))
	}
	return false
}

// unavailable answers 503 with a message, to be asked again. The answer
// gets a second of its own: the request's write deadline may be now.
func unavailable(w http.ResponseWriter, msg string) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Second))
	w.Header().Set("Retry-After", "5")
	http.Error(w, msg, http.StatusServiceUnavailable)
}
