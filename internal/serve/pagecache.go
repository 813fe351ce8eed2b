package serve

import (
	"bytes"
	"sync"

	"incidentlib/internal/site"
)

// pageCacheBytes is how much rendered output one model keeps. A page is
// rendered once per model and sent from memory until the next save, so a
// heavy page costs its rendering once, not on every request; requests that
// come while it renders wait for that one rendering. Past the budget,
// pages are rendered for each request as before, so that a crawler
// walking a large library cannot fill the memory.
const pageCacheBytes = 64 << 20

// renderedPage is one job's output, rendered once.
type renderedPage struct {
	once sync.Once
	typ  string
	data []byte
	err  error
}

type pageCache struct {
	mu    sync.Mutex
	pages map[string]*renderedPage
	bytes int
}

// rendered returns the output of j in m, rendering it at most once while
// it is in the cache.
func (m *model) rendered(j site.Job) *renderedPage {
	c := &m.cache
	file := j.File()
	c.mu.Lock()
	if c.pages == nil {
		c.pages = map[string]*renderedPage{}
	}
	p, ok := c.pages[file]
	if !ok {
		p = &renderedPage{}
		c.pages[file] = p
	}
	c.mu.Unlock()
	p.once.Do(func() {
		var out bytes.Buffer
		p.typ, p.err = m.site.Render(j, &out)
		p.data = out.Bytes()
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.bytes+len(p.data) > pageCacheBytes || p.err != nil {
			delete(c.pages, file) // those waiting now get it; later requests render again
			return
		}
		c.bytes += len(p.data)
	})
	return p
}
