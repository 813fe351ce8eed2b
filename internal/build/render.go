package build

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib/internal/library"
	"incidentlib/internal/site"
)

// writePages renders and writes every job of the site on opt.Workers
// workers, reporting progress, and records the stage from t.
func writePages(ctx context.Context, stop context.CancelCauseFunc, s *site.Site, w *writer, opt Options, st *Result, t time.Time) {
	jobs := casesFirst(s.Jobs())
	var rendered atomic.Int64
	stopProgress := progress(opt.Progress, &rendered, len(jobs))
	render(ctx, stop, s, jobs, w, opt.Workers, st, &rendered)
	stopProgress()
	st.Stages = append(st.Stages, library.Stage{Name: "pages", Took: time.Since(t)},
		library.Stage{Name: "render (workers)", Took: st.renderTime}, library.Stage{Name: "write (workers)", Took: st.writeTime})
}

// casesFirst returns the jobs with the case pages first, each group in its
// order: a case page renders its case's card from its own view (see
// site.RenderCase), so the lists that come after find the cards made.
func casesFirst(jobs []site.Job) []site.Job {
	out := make([]site.Job, 0, len(jobs))
	for _, j := range jobs {
		if j.Kind == site.KindCase {
			out = append(out, j)
		}
	}
	for _, j := range jobs {
		if j.Kind != site.KindCase {
			out = append(out, j)
		}
	}
	return out
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// bigBuffer is the capacity past which a page's buffer is dropped after
// its page rather than kept for the next: a few pages of a large library
// are tens of megabytes (the prepare page, the largest topic pages), and
// their buffers, kept by every worker, were a third of the heap at 10,000
// cases.
const bigBuffer = 4 << 20

// keepSmall returns b for reuse, or a new buffer if b has grown big.
func keepSmall(b *bytes.Buffer) *bytes.Buffer {
	if b.Cap() > bigBuffer {
		return new(bytes.Buffer)
	}
	return b
}

// progress reports the files written so far once a second until stopped.
func progress(report func(done, total int), done *atomic.Int64, total int) (stop func()) {
	if report == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				report(int(done.Load()), total)
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// render renders and writes the jobs with a pool of workers until they are
// done or ctx is; the first error stops every worker through stop.
func render(ctx context.Context, stop context.CancelCauseFunc, s *site.Site, jobs []site.Job, w *writer, workers int, st *Result, done *atomic.Int64) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		wg    sync.WaitGroup
		pages atomic.Int64
		kinds = make([]map[string]int, workers)
	)
	for i := 0; i < workers; i++ {
		kinds[i] = map[string]int{}
		wg.Add(1)
		go func(k map[string]int) {
			defer wg.Done()
			out := bufPool.Get().(*bytes.Buffer)
			defer func() { bufPool.Put(out) }()
			twin := bufPool.Get().(*bytes.Buffer)
			defer func() { bufPool.Put(twin) }()
			var renderTime, writeTime time.Duration
			defer func() {
				mu.Lock()
				st.renderTime += renderTime
				st.writeTime += writeTime
				mu.Unlock()
			}()
			for ctx.Err() == nil {
				n := int(next.Add(1)) - 1
				if n >= len(jobs) {
					return
				}
				j := jobs[n]
				out.Reset()
				twin.Reset()
				t0 := time.Now()
				typ, err := renderJob(s, j, out, twin)
				t1 := time.Now()
				renderTime += t1.Sub(t0)
				if err != nil {
					stop(fmt.Errorf("rendering %s: %w", j.File(), err))
					return
				}
				if err := w.write(j.File(), out.Bytes()); err != nil {
					stop(err)
					return
				}
				if t, ok := j.Twin(); ok {
					if err := w.write(t.File(), twin.Bytes()); err != nil {
						stop(err)
						return
					}
					k[kindName(t)]++
				}
				writeTime += time.Since(t1)
				if typ == "text/html" {
					pages.Add(1)
				}
				done.Add(1)
				k[kindName(j)]++
				out, twin = keepSmall(out), keepSmall(twin)
			}
		}(kinds[i])
	}
	wg.Wait()
	st.Pages = int(pages.Load())
	for _, k := range kinds {
		for name, n := range k {
			st.Kinds[name] += n
		}
	}
}

// renderJob renders a job to out; a case page's Markdown twin, rendered
// from the same view, goes to twin.
func renderJob(s *site.Site, j site.Job, out, twin *bytes.Buffer) (string, error) {
	if j.Kind == site.KindCase {
		return "text/html", s.RenderCase(j, out, twin)
	}
	return s.Render(j, out)
}
