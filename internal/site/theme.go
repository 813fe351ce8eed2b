package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"incidentlib/internal/cases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/l10n"
	"incidentlib/internal/urls"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	texttemplate "text/template"
)

// asset is a static file published under a name that includes a hash of its
// content, so that a CDN may cache it forever.
type asset struct {
	Path string // site path, such as assets/site.1a2b3c4d.css
	SRI  string // Subresource Integrity value
	Data []byte
	Type string // media type
}

// pageKinds are the templates that render whole pages.
var pageKinds = []string{"case", "list", "facet", "home", "root", "search", "prose", "notfound", "apidoc", "prepare"}

// listParts are the templates of the list set (list.html and base.html)
// that render a piece of a page once, kept and shown on many pages: a
// case's card, a topic's statistics and its times case by case, a case as
// a line of a short list without its reason (caseLink.Head), and a
// checklist, which a topic page's "What to check" shows (the files of the
// prepare page carry theirs as data since, see prepareData).
// A piece left out of this list renders with html/template: the
// checklist did, and was a fifth of the pages' render time at 1,000 cases.
var listParts = []string{"card", "stats", "dists", "caselinkhead", "checklist"}

// Theme is the parsed templates, UI strings and static files: everything a
// site needs that does not come from content. The preview server keeps one
// across content edits.
type Theme struct {
	strings l10n.Strings
	tmpl    map[string]*template.Template
	fast    map[string]*htmlexec.Template // by kind, and listParts; absent where a template needs html/template itself
	llms    textTemplate                  // llms.txt
	assets  map[string]asset
	// uncompiled names the templates htmlexec refused, which the standard
	// library runs every time.
	uncompiled []string
}

// Engines is the gauge of the theme's template engines: how many templates
// htmlexec compiled, which it refused (html/template or text/template runs
// each of their pages), and how many executions of compiled templates it
// handed back to the standard library at run time (see htmlexec.Fallbacks).
// On the shipped theme Uncompiled is empty and Fallbacks zero; anything else
// shows up only as a slower build, so a build prints it with -v.
type Engines struct {
	Compiled   int
	Uncompiled []string
	Fallbacks  int64
}

// engines returns the gauge of the theme's engines so far.
func (th *Theme) engines() Engines {
	e := Engines{Uncompiled: th.uncompiled}
	add := func(t *htmlexec.Template) {
		if t != nil {
			e.Compiled++
			e.Fallbacks += t.Fallbacks()
		}
	}
	for _, t := range th.fast {
		add(t)
	}
	add(th.llms.fast)
	return e
}

// LoadTheme parses the templates and strings and minifies and hashes the
// static files. The templates are compiled by htmlexec where it can prove
// it writes what html/template and text/template write, unless the
// environment sets INCIDENTLIB_HTMLEXEC=0: then the standard library
// renders every page, the same bytes more slowly, so that a benchmark can
// measure what htmlexec saves.
func LoadTheme(templates, static fs.FS) (*Theme, error) {
	cfg := themeConfig{compile: htmlexec.Compile, compileText: htmlexec.CompileText}
	if os.Getenv("INCIDENTLIB_HTMLEXEC") == "0" {
		cfg = themeConfig{}
	}
	return loadTheme(templates, static, cfg)
}

// errNoHTMLExec is why no template is compiled under INCIDENTLIB_HTMLEXEC=0.
var errNoHTMLExec = fmt.Errorf("htmlexec switched off (INCIDENTLIB_HTMLEXEC=0): %w", htmlexec.ErrUnsupported)

// themeConfig is what tests change about loading a theme.
type themeConfig struct {
	// keepWhitespace leaves templates as written, to show that compacting
	// them changes nothing a minifier would keep.
	keepWhitespace bool
	// compile is htmlexec.Compile; a test replaces it to prove that a
	// template htmlexec refuses renders through html/template, unchanged.
	compile func(*template.Template, string, template.FuncMap) (*htmlexec.Template, error)
	// compileText is htmlexec.CompileText, or nil to run text/template.
	compileText func(*texttemplate.Template, string, texttemplate.FuncMap) (*htmlexec.Template, error)
}

// textTemplate is a text template of the theme, compiled by htmlexec when
// it can be, like the HTML ones.
type textTemplate struct {
	slow *texttemplate.Template
	fast *htmlexec.Template // nil: text/template runs it
}

func loadText(templates fs.FS, name string, funcs texttemplate.FuncMap, cfg themeConfig) (textTemplate, error) {
	t, err := texttemplate.New(name).Funcs(funcs).ParseFS(templates, name)
	if err != nil {
		return textTemplate{}, fmt.Errorf("templates: %w", err)
	}
	tt := textTemplate{slow: t}
	if cfg.compileText != nil {
		tt.fast, err = cfg.compileText(t, name, funcs)
		if err != nil && !errors.Is(err, htmlexec.ErrUnsupported) {
			return textTemplate{}, fmt.Errorf("templates: %w", err)
		}
	}
	return tt, nil
}

// execute writes the template applied to data to b: compiled when it could
// be, with text/template otherwise. Both write the same bytes.
func (t textTemplate) execute(b *bytes.Buffer, data any) error {
	if t.fast != nil {
		start := b.Len()
		err := t.fast.Execute(b, data)
		if !errors.Is(err, htmlexec.ErrUnsupported) {
			return err
		}
		b.Truncate(start)
	}
	return t.slow.Execute(b, data)
}

func loadTheme(templates, static fs.FS, cfg themeConfig) (*Theme, error) {
	if templates == nil || static == nil {
		return nil, fmt.Errorf("no theme: the templates and static files must be given")
	}
	th := &Theme{}
	data, err := fs.ReadFile(templates, "strings.json")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	if th.strings, err = l10n.ParseStrings(data); err != nil {
		return nil, fmt.Errorf("templates/strings.json: %w", err)
	}
	// The static files, the text templates and each page kind's set are
	// independent of each other: they are loaded side by side, and their
	// errors reported in the order they were loaded in one after another.
	var (
		wg        sync.WaitGroup
		assetsErr error
		llmsErr   error
		sets      = make([]kindSet, len(pageKinds))
	)
	wg.Go(func() { th.assets, assetsErr = loadAssets(static, th.strings) })
	wg.Go(func() {
		th.llms, llmsErr = loadText(templates, "llms.txt", llmsFuncs, cfg)
	})
	for i, kind := range pageKinds {
		wg.Go(func() { sets[i] = loadKindSet(templates, kind, pageFuncs(th.strings), cfg) })
	}
	wg.Wait()
	if assetsErr != nil {
		return nil, assetsErr
	}
	if llmsErr != nil {
		return nil, llmsErr
	}
	if th.llms.fast == nil {
		th.uncompiled = append(th.uncompiled, "llms.txt")
	}
	if err := th.takeSets(sets); err != nil {
		return nil, err
	}
	sort.Strings(th.uncompiled)
	return th, nil
}

// kindSet is one page kind's templates as loadKindSet leaves them.
type kindSet struct {
	tmpl       *template.Template
	fast       *htmlexec.Template
	parts      []*htmlexec.Template // the list set's listParts
	parseErr   error
	compileErr error
	partErrs   []error
}

// loadKindSet parses one page kind's set (base.html and KIND.html) and
// compiles it, and for the list kind the pieces of pages, keeping every
// error for takeSets to report in order.
func loadKindSet(templates fs.FS, kind string, funcs template.FuncMap, cfg themeConfig) kindSet {
	var k kindSet
	t, err := template.New(kind).Funcs(funcs).ParseFS(templates, "base.html", kind+".html")
	if err != nil {
		k.parseErr = err
		return k
	}
	if !cfg.keepWhitespace {
		compactTemplates(t)
	}
	k.tmpl = t
	if cfg.compile == nil {
		k.compileErr = errNoHTMLExec
	} else {
		k.fast, k.compileErr = cfg.compile(t, "base", funcs)
	}
	if kind == "list" { // the pieces of pages, after the page: one set
		k.parts, k.partErrs = make([]*htmlexec.Template, len(listParts)), make([]error, len(listParts))
		for i, name := range listParts {
			if cfg.compile == nil {
				k.partErrs[i] = errNoHTMLExec
				continue
			}
			k.parts[i], k.partErrs[i] = cfg.compile(t, name, funcs)
		}
	}
	return k
}

// takeSets keeps the page kinds' sets, in pageKinds order: a parse error
// or a compile error other than ErrUnsupported fails the theme, and a set
// that could not be compiled is named in th.uncompiled.
func (th *Theme) takeSets(sets []kindSet) error {
	th.tmpl = map[string]*template.Template{}
	for i, kind := range pageKinds {
		if err := sets[i].parseErr; err != nil {
			return fmt.Errorf("templates: %w", err)
		}
		th.tmpl[kind] = sets[i].tmpl
	}
	th.fast = map[string]*htmlexec.Template{}
	for i, kind := range pageKinds {
		ft, err := sets[i].fast, sets[i].compileErr
		if err != nil && !errors.Is(err, htmlexec.ErrUnsupported) {
			return fmt.Errorf("templates: %w", err)
		}
		if err == nil {
			th.fast[kind] = ft
		} else {
			th.uncompiled = append(th.uncompiled, kind+".html")
		}
	}
	list := sets[slices.Index(pageKinds, "list")]
	for i, name := range listParts {
		if ft, err := list.parts[i], list.partErrs[i]; err == nil {
			th.fast[name] = ft
		} else if !errors.Is(err, htmlexec.ErrUnsupported) {
			return fmt.Errorf("templates: %w", err)
		} else {
			th.uncompiled = append(th.uncompiled, name+" (list.html)")
		}
	}
	return nil
}

// execute runs the template name of a page kind's set: compiled when it
// could be, with html/template otherwise. Both write the same bytes.
func (th *Theme) execute(buf *bytes.Buffer, kind, name string, data any) error {
	key := kind
	if name != "base" {
		key = name
	}
	if ft := th.fast[key]; ft != nil {
		start := buf.Len()
		err := ft.Execute(buf, data)
		if !errors.Is(err, htmlexec.ErrUnsupported) {
			return err
		}
		buf.Truncate(start)
	}
	return th.tmpl[kind].ExecuteTemplate(buf, name, data)
}

// pageFuncs are the functions the page templates call: add, and
// untranslated, the mark of a text shown in the language it was written in
// (textLang) because the page's is missing: "not translated yet" in the
// page's language, from the UI strings (notranslation).
func pageFuncs(str l10n.Strings) template.FuncMap {
	return template.FuncMap{
		"add":          func(a, b int) int { return a + b },
		"untranslated": func(textLang string) string { return str.Get(cases.Other(textLang), "notranslation") },
	}
}

func loadAssets(static fs.FS, strs l10n.Strings) (map[string]asset, error) {
	assets := map[string]asset{}
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		if p == searchScript || p == prepareScript {
			if data, err = strs.IntoScript(data); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
		ext := path.Ext(p)
		typ := map[string]string{".css": "text/css", ".js": "application/javascript", ".svg": "image/svg+xml"}[ext]
		if typ != "" {
			data = minifyAsset(typ, data)
		}
		sum := sha256.Sum256(data)
		name := strings.TrimSuffix(path.Base(p), ext)
		assets[p] = asset{
			Path: urls.Asset(name, hex.EncodeToString(sum[:])[:10], ext),
			SRI:  "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
			Data: data,
			Type: typ,
		}
		return nil
	})
	return assets, err
}

// searchScript is the static file that carries the search page's words.
const searchScript = "js/search.js"

// prepareScript is the prepare page's script, which carries its words too.
const prepareScript = "js/prepare.js"
