package build

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
	"incidentlib/internal/snapshot"
	"incidentlib/internal/urls"
)

// runningExtras are the extras being written alongside the pages.
type runningExtras struct {
	list  []snapshot.Extra
	took  []time.Duration
	files []atomic.Int64
	done  sync.WaitGroup
}

// startExtras starts writing the extras (nil means StandardExtras). The
// search index and the API need only the model, so they are made while the
// pages render: on a machine with few cores this keeps every core busy
// until the end instead of finishing on one. (Made after the pages, at
// 10,000 cases the build took 0.3 s longer and 30 MB less.)
func startExtras(ctx context.Context, stop context.CancelCauseFunc, s *snapshot.Snapshot, w *writer, list []snapshot.Extra) *runningExtras {
	if list == nil {
		list = StandardExtras()
	}
	r := &runningExtras{list: list, took: make([]time.Duration, len(list)), files: make([]atomic.Int64, len(list))}
	for i, extra := range list {
		r.done.Add(1)
		go func() {
			defer r.done.Done()
			t0 := time.Now()
			write := func(path string, data []byte) error {
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				if err := w.write(path, data); err != nil {
					stop(err)
					return err
				}
				r.files[i].Add(1)
				return nil
			}
			if err := extra.Write(s, write); err != nil && ctx.Err() == nil {
				stop(fmt.Errorf("%s: %w", extra.Name, err))
			}
			r.took[i] = time.Since(t0)
		}()
	}
	return r
}

// wait waits for the extras and adds their times and files to st.
func (r *runningExtras) wait(st *Result) {
	r.done.Wait()
	for i, extra := range r.list {
		st.Stages = append(st.Stages, snapshot.Stage{Name: extra.Name + " (alongside)", Took: r.took[i]})
		st.Kinds[extra.Name+" file"] += int(r.files[i].Load())
	}
}

// StandardExtras returns what a build of the site writes besides the
// pages, alongside them: the search index, the JSON API with llms.txt, and
// _headers. (The Markdown twins are written with their pages.) The preview
// serves the same files: the command passes them to serve.Options.Extras.
// Each call returns a new slice, which the caller may extend.
func StandardExtras() []snapshot.Extra {
	return []snapshot.Extra{
		{Name: "search index", Write: writeSearch},
		{Name: "api", Write: func(s *snapshot.Snapshot, write func(string, []byte) error) error { return api.Write(s.Site, write) }},
		{Name: "headers", Write: writeHeaders},
	}
}

// writeHeaders writes _headers, the file several static hosts read for
// response headers: the security headers for every file; hashed assets may
// be cached forever, everything under a stable name only briefly so that a
// rebuild shows at once.
func writeHeaders(_ *snapshot.Snapshot, write func(string, []byte) error) error {
	var b strings.Builder
	b.WriteString("# Response headers for static hosts that read _headers. Written by incidentlib.\n")
	b.WriteString("/*\n")
	for _, h := range site.SecurityHeaders {
		b.WriteString("  " + h.Name + ": " + h.Value + "\n")
	}
	b.WriteString("\n")
	b.WriteString("/" + urls.AssetDir + "*\n  Cache-Control: public, max-age=31536000, immutable\n\n")
	for _, p := range []string{"", urls.File(""), urls.NotFound, "en/*", "ko/*", "api/*", urls.SearchDir + "*", urls.Sitemap, urls.Robots, urls.LLMs} {
		b.WriteString("/" + p + "\n  Cache-Control: public, max-age=300, must-revalidate\n\n")
	}
	b.WriteString("/*.md\n  Content-Type: text/markdown; charset=utf-8\n")
	return write(urls.Headers, []byte(b.String()))
}

// writeSearch writes the search index. Only the offline bundle gets the
// script copies of the index files that pages opened from file:// need.
func writeSearch(s *snapshot.Snapshot, write func(string, []byte) error) error {
	docs, labels := s.SearchDocs()
	return search.Build(docs, labels, s.Site.Offline(), write)
}
