package serve

import (
	"fmt"
	"net/http"

	"incidentlib/internal/library"
)

// healthPath answers a check that the preview is up, as the MCP server's
// does: cheap, and naming no file. 200 "ok" while the site is made; 200
// "degraded" with the number of problems while a save broke a library that
// had loaded (the pages list the problems until they are fixed); 503 while
// the content has never loaded.
const healthPath = "/healthz"

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	m := s.live.Current()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	switch {
	case m.site != nil:
		fmt.Fprintln(w, "ok")
	case m.loaded:
		fmt.Fprintf(w, "degraded: %d problems\n", max(1, m.problems.Errors()))
	default:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "content has %d problems\n", max(1, m.problems.Errors()))
	}
}

// next is build, and records whether a library has loaded so far.
func (s *Server) next(cur *model, c library.Change) *model {
	m := s.build(cur, c)
	m.loaded = m.site != nil || (cur != nil && cur.loaded)
	return m
}
