package e2e

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/gencases"
	"incidentlib/internal/webtest"
)

// Byte budgets of the search page on a generated library of 1,000 cases
// served with gzip (issue 13). They are deterministic: the same library,
// index and queries give the same bytes on every machine.
const (
	budgetFirst   = 40 << 10 // first query, from opening the page
	budgetFurther = 30 << 10 // each further query
	keyByKeyRatio = 1.5      // typing key by key over typing at once
)

func TestSearchByteBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a library of 1,000 cases")
	}
	dir := t.TempDir()
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	if err := gencases.WriteDir(content, gencases.Options{N: 1000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, diags, err := build.Run(context.Background(), build.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatalf("build: %v\n%v", err, diags)
	}
	srv := httptest.NewServer(webtest.Gzip(webtest.Handler(out)))
	defer srv.Close()
	ctx, stop, err := webtest.StartBrowser(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, c := range []struct{ lang, q, next string }{
		{"en", "load balancer", "expired certificate"},
		{"ko", "로드 밸런서가", "인증서 만료"},
		{"ko", "인증서", "로드 밸런서"},
	} {
		page := srv.URL + "/" + c.lang + "/search/"
		once, err := webtest.MeasureSearch(ctx, page, c.q, c.next, false)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := webtest.MeasureSearch(ctx, page, c.q, c.next, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %q: first %d B (key by key %d B), settled %d B, further %q %d B", c.lang, c.q, once.First, keys.First, once.Settled, c.next, once.Further)
		if once.First > budgetFirst {
			t.Errorf("%s %q: the first query costs %d bytes, over the budget of %d", c.lang, c.q, once.First, budgetFirst)
		}
		if once.Further > budgetFurther {
			t.Errorf("%s %q: the further query %q costs %d bytes, over the budget of %d", c.lang, c.q, c.next, once.Further, budgetFurther)
		}
		if float64(keys.First) > keyByKeyRatio*float64(once.First) {
			t.Errorf("%s %q: typed key by key it costs %d bytes, over %.1f× the %d of typing it at once", c.lang, c.q, keys.First, keyByKeyRatio, once.First)
		}
		if once.Settled >= 2*once.First {
			t.Errorf("%s %q: the settled page costs %d bytes, not under twice the first query's %d", c.lang, c.q, once.Settled, once.First)
		}
	}
}
