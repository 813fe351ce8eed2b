package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	model "incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
	"incidentlib/internal/webtest"
)

// TestPreparePage opens the prepare page of a site built from the
// fixture of #42 (testdata/prepare) with a shared address, over HTTP and
// from the offline bundle on disk, in both languages: the address's choice
// is restored in the form, the cases listed are those the model says apply
// (a chosen component, unless the case names the product only for other
// versions), and every line of the merged checklist links only them.
func TestPreparePage(t *testing.T) {
	webtest.Heavy(t, "builds a site and drives a browser")
	bin := binary(t)
	fsys := repotest.PrepareContent(t)
	content := filepath.Join(t.TempDir(), "content")
	repotest.WriteFS(t, fsys, content)
	root, err := webtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	public, off := filepath.Join(t.TempDir(), "public"), filepath.Join(t.TempDir(), "offline")
	for _, args := range [][]string{{"build", "-content", content, "-out", public}, {"build", "-offline", "-content", content, "-out", off}} {
		if out, err := run(root, bin, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	lib, list := model.Load(fsys)
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	const product, version = "ingress-nginx", "1.11.2"
	part := "ingress"
	var want []string
	for _, c := range lib.Cases {
		// A case that names the product applies only when one of its
		// ranges holds the version.
		has, named, match := slices.Contains(model.Components.Terms(c), part), false, false
		for _, a := range c.Affected {
			if a.Product == product {
				named = true
				match = match || a.Matches(version)
			}
		}
		if has && (!named || match) {
			want = append(want, c.ID)
		}
	}
	// The fixture must exercise both sides of the version.
	if !slices.Contains(want, "IL-0081") || slices.Contains(want, "IL-0054") {
		t.Fatalf("the fixture does not exercise the version: %v", want)
	}
	query := urls.Query(urls.Param{Key: model.Components.Name, Values: []string{part}}, urls.Param{Key: product, Values: []string{version}})
	base := webtest.Serve(t, public)
	tab := webtest.Browser(t)
	for _, lang := range model.Languages {
		for _, u := range []string{
			base + "/" + urls.Prepare(lang) + query,
			webtest.FileURL(t, filepath.Join(off, filepath.FromSlash(urls.File(urls.Prepare(lang))))) + query,
		} {
			tab.Open(t, u)
			ctx, cancel := context.WithTimeout(tab.Ctx, webtest.PageTimeout)
			type pageState struct {
				Checked  []string `json:"checked"`
				Version  string   `json:"version"`
				Cases    []string `json:"cases"`
				Linked   []string `json:"linked"`
				Lines    int      `json:"lines"`
				Texts    int      `json:"texts"`
				Pills    int      `json:"pills"`
				Search   string   `json:"search"`
				AllShown bool     `json:"allShown"`
			}
			err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#stack-result`)))
			var state pageState
			if err == nil {
				state, err = chromedp.Run(ctx, chromedp.Evaluate[pageState](`({
					checked: [...document.querySelectorAll("#stack input[type=checkbox]:checked")].map(b => b.value),
					version: document.querySelector("#stack input[name='`+product+`']").value,
					cases: [...document.querySelectorAll("#stack-cases a[data-case]")].map(a => a.dataset.case),
					linked: [...new Set([...document.querySelectorAll("#stack-checklist a[data-case]")].map(a => a.dataset.case))],
					lines: document.querySelectorAll("#stack-checklist li").length,
					texts: [...document.querySelectorAll("#stack-checklist li")].filter(li => li.querySelector(".check-text p") && li.querySelector(".from a[data-case][href][title]")).length,
					pills: document.querySelectorAll("#stack-checklist .from small.pill[class*='status-']").length,
					search: location.search,
					allShown: !document.getElementById("prepare-all").hidden,
				})`))
			}
			cancel()
			if err != nil {
				t.Fatalf("%s: %v (problems: %v)", u, err, tab.Problems())
			}
			if p := tab.Problems(); len(p) > 0 {
				t.Errorf("%s: %v", u, p)
			}
			if !slices.Equal(state.Checked, []string{part}) || state.Version != version {
				t.Errorf("%s: restored %v and version %q, want [%s] and %s", u, state.Checked, state.Version, part, version)
			}
			if !slices.Equal(state.Cases, want) {
				t.Errorf("%s: lists %v\nwant %v", u, state.Cases, want)
			}
			if state.Lines == 0 || state.AllShown {
				t.Errorf("%s: %d checklist lines, every part's list shown: %v", u, state.Lines, state.AllShown)
			}
			// Each line has its text and links its cases; the actions' say
			// how far they got (the fixture's ingress cases have some).
			if state.Texts != state.Lines || state.Pills == 0 {
				t.Errorf("%s: %d of %d lines have their text and a case's link; %d statuses shown", u, state.Texts, state.Lines, state.Pills)
			}
			for _, id := range state.Linked {
				if !slices.Contains(want, id) {
					t.Errorf("%s: the checklist links %s, which does not apply", u, id)
				}
			}
			if !strings.Contains(state.Search, "ingress-nginx=1.11.2") {
				t.Errorf("%s: the address lost the choice: %q", u, state.Search)
			}
		}
	}
}

// TestPrepareNewest opens the prepare page of a generated library whose
// largest component has more cases than its file holds, with that part
// chosen: the page lists the file's cases, and its status line says that
// only the newest are checked, linking the part's topic page.
func TestPrepareNewest(t *testing.T) {
	webtest.Heavy(t, "builds a site and drives a browser")
	bin := binary(t)
	content, public := filepath.Join(t.TempDir(), "content"), filepath.Join(t.TempDir(), "public")
	if err := gencases.WriteDir(content, gencases.Options{N: 600, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	root, err := webtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run(root, bin, "build", "-content", content, "-out", public); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	lib, list := model.Load(os.DirFS(content))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	count := map[string]int{}
	part := ""
	for _, c := range lib.Cases {
		for _, id := range c.Components {
			if count[id]++; count[id] > count[part] {
				part = id
			}
		}
	}
	const held = 200 // site.prepareCases
	if count[part] <= held {
		t.Fatalf("the largest component, %s, has %d cases: not more than a file holds", part, count[part])
	}
	tab := webtest.Browser(t)
	lang := "en"
	tab.Open(t, webtest.Serve(t, public)+"/"+urls.Prepare(lang)+urls.Query(urls.Param{Key: model.Components.Name, Values: []string{part}}))
	ctx, cancel := context.WithTimeout(tab.Ctx, webtest.PageTimeout)
	defer cancel()
	type pageState struct {
		Cases  int    `json:"cases"`
		Status string `json:"status"`
		Link   string `json:"link"`
	}
	err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#stack-result`)))
	var state pageState
	if err == nil {
		state, err = chromedp.Run(ctx, chromedp.Evaluate[pageState](`({
			cases: document.querySelectorAll("#stack-cases a[data-case]").length,
			status: document.getElementById("stack-status").textContent,
			link: (document.querySelector("#stack-status a") || {}).pathname || "",
		})`))
	}
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, tab.Problems())
	}
	if p := tab.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
	if state.Cases != held || !strings.Contains(state.Status, fmt.Sprintf("newest %d of %d", held, count[part])) || !strings.HasSuffix(state.Link, "/"+urls.Topic(lang, model.Components.Name, part, 1)) {
		t.Errorf("%d cases listed, status %q linking %q; want %d, the newest of %d, linking the topic %s", state.Cases, state.Status, state.Link, held, count[part], part)
	}
}
