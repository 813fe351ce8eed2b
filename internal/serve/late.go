package serve

import (
	"context"
	"sync"
	"time"

	"incidentlib/internal/site"
)

// An edit to a case's story changes what related cases are computed from,
// and computing them takes seconds at 10,000 cases. The preview does not
// make the page wait for them: the model of the edit keeps the related
// cases from before it (library.Options.LateRelated), is swapped in and
// reloads the page, and relate then computes them in the background and
// swaps in the exact model: under a new version, which reloads open pages
// again, when they changed, and under the same version (no reload) when
// they did not. A newer edit makes the work moot and ends it.

// relateAfter is the quiet time after a save before related cases are
// computed: a burst of saves computes them once, for the last.
const relateAfter = 300 * time.Millisecond

// relating lets one computation of related cases run at a time: it cannot
// be stopped halfway, and two would only slow the next save's rebuild.
var relating sync.Mutex

// relate makes m's related cases exact and swaps the result in while m is
// still current.
func (s *Server) relate(m *model) {
	select {
	case <-m.next:
		return
	case <-time.After(relateAfter):
	}
	relating.Lock()
	defer relating.Unlock()
	select {
	case <-m.next: // a newer save came while another computation ran
		return
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-m.next: // a newer model: this one's related cases no longer matter
			cancel()
		case <-ctx.Done():
		}
	}()
	t := time.Now()
	lib, changed, err := m.lib.Relate(ctx)
	if err != nil || lib == m.lib {
		return
	}
	took := time.Since(t)
	what := "related cases computed, unchanged"
	if changed {
		what = "related cases computed"
	}
	s.live.Replace(m, func(cur *model) *model {
		next := &model{next: make(chan struct{}), extraList: s.opt.Extras, lib: lib, theme: cur.theme, version: cur.version,
			timings: []timing{{"related", took}}}
		if changed {
			next.version++
		}
		t := time.Now()
		st, err := site.New(lib, site.Options{Theme: cur.theme, BaseURL: s.opt.BaseURL, Root: "/"})
		if err != nil {
			return nil // the model before had the same theme and content: cannot happen
		}
		next.site = st
		next.index = nextIndex(cur, next)
		next.timings = append(next.timings, timing{"site", time.Since(t)})
		return next
	}, what)
}
