package serve

import (
	"sync"
	"testing"

	"incidentlib"
	"incidentlib/internal/repotest"
)

// TestPageCache: a page is rendered once per model, however many requests
// ask for it at once, and the cache stays within its budget.
func TestPageCache(t *testing.T) {
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: repotest.ContentDir(t)})
	m := r.srv.live.Current()
	j, _ := m.job("en/cases/IL-0495/index.html")
	var wg sync.WaitGroup
	got := make([]*renderedPage, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = m.rendered(j)
		}()
	}
	wg.Wait()
	for _, p := range got {
		if p != got[0] {
			t.Fatal("concurrent requests rendered the page more than once")
		}
	}
	if got[0].err != nil || len(got[0].data) == 0 {
		t.Fatalf("render: %v, %d bytes", got[0].err, len(got[0].data))
	}
	if status, _ := raw(t, r.url+"/en/cases/IL-0495/"); status != 200 || m.rendered(j) != got[0] {
		t.Errorf("a request rendered the page again (status %d)", status)
	}
	m.cache.mu.Lock()
	m.cache.bytes = pageCacheBytes // full: what comes now is not kept
	m.cache.mu.Unlock()
	other, _ := m.job("ko/cases/IL-0495/index.html")
	if m.rendered(other) == m.rendered(other) {
		t.Error("a full cache kept another page")
	}
}
