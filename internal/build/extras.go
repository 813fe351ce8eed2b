package build

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// runningExtras are the extras being written alongside the pages.
type runningExtras struct {
	ctx   context.Context
	stop  context.CancelCauseFunc
	w     *writer
	list  []site.Extra
	took  []time.Duration
	files []atomic.Int64
	done  sync.WaitGroup
	// prepend holds, by path, bytes that go before the bytes an extra
	// writes there: the publisher's own rules for a host file (mergedRoot).
	prepend map[string][]byte
}

// newExtras prepares the extras (nil means StandardExtras) for writing
// into w; none runs before startLibrary or start.
func newExtras(ctx context.Context, stop context.CancelCauseFunc, w *writer, list []site.Extra, prepend map[string][]byte) *runningExtras {
	if list == nil {
		list = StandardExtras()
	}
	return &runningExtras{ctx: ctx, stop: stop, w: w, list: list, took: make([]time.Duration, len(list)), files: make([]atomic.Int64, len(list)), prepend: prepend}
}

// startLibrary starts the extras that need only the library (the search
// index, _headers) as soon as it has loaded, so that they run while the
// site is derived: at 10,000 cases the deriving is a second and a half on
// one core, at 100,000 nearly two minutes.
func (r *runningExtras) startLibrary(lib *cases.Library, topics library.Topics, offline bool) {
	for i, extra := range r.list {
		if extra.Library != nil {
			r.run(i, func(write func(string, []byte) error) error { return extra.Library(lib, topics, offline, write) })
		}
	}
}

// start starts the other extras once the site is derived. They and the
// library ones run while the pages render: on a machine with few cores
// this keeps every core busy until the end instead of finishing on one.
// (Made after the pages, at 10,000 cases the build took 0.3 s longer and
// 30 MB less.)
func (r *runningExtras) start(s *site.Site) {
	for i, extra := range r.list {
		if extra.Library == nil {
			if extra.Stream != nil {
				r.runStreamed(i, func(write func(string, []byte) error, create func(string) (io.WriteCloser, error)) error {
					return extra.Stream(s, write, create)
				})
				continue
			}
			r.run(i, func(write func(string, []byte) error) error { return extra.Write(s, write) })
		}
	}
}

// run runs the extra i on a goroutine of its own; its first error stops
// the build.
func (r *runningExtras) run(i int, do func(write func(string, []byte) error) error) {
	r.runStreamed(i, func(write func(string, []byte) error, _ func(string) (io.WriteCloser, error)) error { return do(write) })
}

// runStreamed is run for an extra that writes some files piece by piece,
// through create (writer.create).
func (r *runningExtras) runStreamed(i int, do func(write func(string, []byte) error, create func(string) (io.WriteCloser, error)) error) {
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		t0 := time.Now()
		write := func(path string, data []byte) error {
			if r.ctx.Err() != nil {
				return context.Cause(r.ctx)
			}
			if before, ok := r.prepend[path]; ok {
				data = append(append(slices.Clip(before), '\n'), data...)
			}
			if err := r.w.write(path, data); err != nil {
				r.stop(err)
				return err
			}
			r.files[i].Add(1)
			return nil
		}
		create := func(path string) (io.WriteCloser, error) {
			if r.ctx.Err() != nil {
				return nil, context.Cause(r.ctx)
			}
			f, err := r.w.create(path)
			if err != nil {
				r.stop(err)
				return nil, err
			}
			return &countedFile{streamFile: f, closed: func() { r.files[i].Add(1) }}, nil
		}
		if err := do(write, create); err != nil && r.ctx.Err() == nil {
			r.stop(fmt.Errorf("%s: %w", r.list[i].Name, err))
		}
		r.took[i] = time.Since(t0)
	}()
}

// wait waits for the extras and adds their times and files to st.
func (r *runningExtras) wait(st *Result) {
	r.done.Wait()
	for i, extra := range r.list {
		st.Stages = append(st.Stages, library.Stage{Name: extra.Name + " (alongside)", Took: r.took[i]})
		st.Kinds[extra.Name+" file"] += int(r.files[i].Load())
	}
}

// StandardExtras returns what a build of the site writes besides the
// pages, alongside them: the search index, the JSON API with llms.txt, and
// the files static hosts read (_headers, _redirects, .nojekyll). (The Markdown twins are written with their pages.) The preview
// serves the same files: the command passes them to serve.Options.Extras.
// Each call returns a new slice, which the caller may extend.
func StandardExtras() []site.Extra {
	return []site.Extra{
		{Name: "search index", Library: writeSearch},
		{Name: "api", Write: writeAPI, Stream: streamAPI},
		{Name: "host", Library: writeHostFiles},
	}
}

// writeHostFiles writes the files static hosts read besides the site:
//
//   - _headers (Netlify, Cloudflare Pages): the security headers for every
//     file; hashed assets may be cached forever, everything under a stable
//     name only briefly so that a rebuild shows at once.
//   - _redirects (the same hosts): a rule per language that answers a
//     missing path under it with that language's 404 page, status 404.
//     Netlify serves only the root's 404.html otherwise; Cloudflare Pages
//     finds the nearest 404.html by itself and skips these rules.
//   - .nojekyll: GitHub Pages publishes a branch through Jekyll, which
//     drops files whose names start with "_" or "."; this empty file turns
//     it off (the site's own names avoid both, see search.fileKey).
//
// Both rule files name paths from the root of the host, where these hosts
// serve a site.
func writeHostFiles(_ *cases.Library, _ library.Topics, _ bool, write func(string, []byte) error) error {
	var b strings.Builder
	b.WriteString("# Response headers for static hosts that read _headers. Written by incidentlib.\n")
	b.WriteString("/*\n")
	for _, h := range site.SecurityHeaders {
		b.WriteString("  " + h.Name + ": " + h.Value + "\n")
	}
	b.WriteString("\n")
	b.WriteString("/" + urls.AssetDir + "*\n  Cache-Control: public, max-age=31536000, immutable\n\n")
	for _, p := range []string{"", urls.File(""), urls.NotFound, urls.Home("en") + "*", urls.Home("ko") + "*", urls.APIRoot + "*", urls.SearchDir + "*", urls.Sitemap, urls.Robots, urls.LLMs} {
		b.WriteString("/" + p + "\n  Cache-Control: public, max-age=300, must-revalidate\n\n")
	}
	b.WriteString("/*.md\n  Content-Type: text/markdown; charset=utf-8\n")
	if err := write(urls.Headers, []byte(b.String())); err != nil {
		return err
	}
	if err := write(urls.Redirects, redirects()); err != nil {
		return err
	}
	return write(urls.NoJekyll, nil)
}

// redirects is the build's _redirects: the 404 rules of each language.
// Rules that are not forced apply only where no file answers, so they
// never hide a page.
func redirects() []byte {
	var b strings.Builder
	b.WriteString("# 404 pages for static hosts that read _redirects. Written by incidentlib.\n")
	for _, lang := range cases.Languages {
		fmt.Fprintf(&b, "/%s*  /%s  404\n", urls.Home(lang), urls.NotFoundIn(lang))
	}
	return []byte(b.String())
}

// writeSearch writes the search index. Only the offline bundle gets the
// script copies of the index files that pages opened from file:// need.
func writeSearch(lib *cases.Library, topics library.Topics, offline bool, write func(string, []byte) error) error {
	return search.Build(search.Docs(lib), topics.SearchLabels(), offline, write)
}

// writeAPI writes the JSON API, and llms.txt from the theme beside it.
func writeAPI(s *site.Site, write func(string, []byte) error) error {
	return streamAPI(s, write, nil)
}

// streamAPI is writeAPI with the bulk downloads written through create
// as they are made (nil: gathered whole for write).
func streamAPI(s *site.Site, write func(string, []byte) error, create func(string) (io.WriteCloser, error)) error {
	if err := api.WriteStreamed(s.Library(), s.Strings(), s.BaseURL(), write, create); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := s.LLMs(&b); err != nil {
		return fmt.Errorf("%s: %w", urls.LLMs, err)
	}
	return write(urls.LLMs, b.Bytes())
}
