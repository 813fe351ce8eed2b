package htmlexec

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"

	"incidentlib/internal/repotest"
)

// same executes a template both ways and fails when the outputs differ. It
// returns html/template's error.
func same(t *testing.T, src string, funcs template.FuncMap, data any) error {
	t.Helper()
	set, err := template.New("t").Funcs(funcs).Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	wantErr := set.Execute(&want, data)
	ct, err := Compile(set, "t", funcs)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	var got bytes.Buffer
	gotErr := ct.Execute(&got, data)
	if errors.Is(gotErr, ErrUnsupported) {
		t.Fatalf("%q: unsupported: %v", src, gotErr)
	}
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("%q with %#v: html/template error %v, htmlexec error %v", src, data, wantErr, gotErr)
	}
	if wantErr == nil && got.String() != want.String() {
		t.Fatalf("%q with %#v:\nhtml/template %q\nhtmlexec      %q", src, data, want.String(), got.String())
	}
	return wantErr
}

var contexts = []string{
	`<p>{{.}}</p>`,
	`<p title="{{.}}">x</p>`,
	`<a href="{{.}}">x</a>`,
	`<a href="/search/?q={{.}}&amp;x=1">x</a>`,
	`<title>{{.}}</title>`,
	`<textarea>{{.}}</textarea>`,
	`<img alt='{{.}}' src="x.png">`,
}

func FuzzEscapers(f *testing.F) {
	for _, s := range []string{
		"", "plain", `<script>alert("x")</script>`, "a & b 'c' + d > e", "\x00nul",
		"javascript:alert(1)", "JavaScript:x", "mailto:a@b.c", "HTTPS://x.y/p?q=1&r=2#f",
		"/a b/ü/%41%zz%4", "data:text/html,x", "//host/x:y", "%", "%2", "a%20", "\xff\xfe broken",
		"한국어 검색 – “quotes”", "\ufdd0\uffff", "?q=a+b&c=d;e", "[::1]:80/~x!$*,",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range contexts {
			same(t, c, nil, s)
			if !strings.Contains(c, "title=") && !strings.Contains(c, "alt=") {
				same(t, c, nil, template.HTML(s)) // HTML in an attribute is left to html/template
			}
			same(t, c, nil, template.URL(s))
			same(t, c, nil, &s)
		}
	})
}

type stringer struct{ n int }

func (s stringer) String() string { return fmt.Sprintf("<%d>", s.n) }

type page struct {
	Lang   string
	Title  string
	Count  int
	Items  []item
	Ptr    *item
	Nil    *item
	Any    any
	Map    map[string]string
	Flag   bool
	Body   template.HTML
	Link   template.URL
	S      stringer
	Nested struct{ Deep []string }
	hidden string
}

type item struct {
	Name string
	N    uint8
	Tags []string
}

func (p *page) T(key string) string { return p.Lang + ":" + key }

// CallMethod takes some of page's methods past reflection and declines the
// others, so that tests go both ways.
func (p *page) CallMethod(name, arg string) (any, bool) {
	switch name {
	case "T":
		return p.T(arg), true
	case "IsKo":
		return p.IsKo(), true
	case "Panics":
		return p.Panics(arg), true
	}
	return nil, false
}
func (p page) Upper(s string) string                 { return strings.ToUpper(s) }
func (p *page) Pair() (string, error)                { return "pair", nil }
func (p *page) Panics(s string) string               { panic("no " + s) }
func (p *page) IsKo() bool                           { return p.Lang == "ko" }
func (p *page) Fails() (string, error)               { return "", errors.New("it failed") }
func (i item) Label() string                         { return "[" + i.Name + "]" }
func (i *item) PtrLabel(n int) string                { return fmt.Sprint(i.Name, n) }
func (p *page) Join(sep string, xs ...string) string { return strings.Join(xs, sep) }

func samplePage() *page {
	p := &page{
		Lang: "ko", Title: `Tom & "Jerry" <3`, Count: 3,
		Items: []item{{"a", 1, []string{"x", "y"}}, {"b<", 0, nil}, {"c", 7, []string{"z"}}},
		Ptr:   &item{Name: "ptr"}, Any: 42, Map: map[string]string{"k": "v&"},
		Body: "<b>bold</b>", Link: "javascript:ok()", S: stringer{5}, hidden: "h",
	}
	p.Nested.Deep = []string{"d1", "d2"}
	return p
}

func TestFeatures(t *testing.T) {
	funcs := template.FuncMap{
		"add":  func(a, b int) int { return a + b },
		"oops": func() (string, error) { return "", errors.New("oops") },
		"div":  func(a, b int) int { return a / b },
		"pick": func(xs []string, i int) string { return xs[i] },
	}
	p := samplePage()
	for _, src := range []string{
		`{{.Title}} {{.Count}} {{.Flag}} {{.Body}} {{.Any}} {{.S}} {{.Nil}}`,
		`<a href="{{.Link}}" title="{{.Title}}">{{.Link}}</a>`,
		`{{range .Items}}<li>{{.Name}} {{.N}} {{.Label}} {{.PtrLabel 4}}{{range .Tags}}#{{.}}{{else}}none{{end}}</li>{{end}}`,
		`{{range $i, $x := .Items}}{{$i}}={{$x.Name}};{{end}}{{range $x := .Items}}{{$x.Name}}{{end}}`,
		`{{range .Nested.Deep}}{{.}}{{$.Title}}{{end}}`,
		`{{with .Ptr}}{{.Name}}{{else}}no{{end}} {{with .Nil}}yes{{else}}nil{{end}} {{with $x := .Count}}{{$x}}{{end}}`,
		`{{if and .Count .Flag}}a{{else if or .Flag .Title}}b{{else}}c{{end}} {{and 1 0 2}} {{or 0 "" "x"}} {{not .Flag}}`,
		`{{if eq .Lang "ko"}}ko{{end}}{{if ne .Count 3}}x{{end}}{{if lt .Count 4}}lt{{end}}{{if ge .Count 3}}ge{{end}}{{if gt .Count 3}}gt{{end}}{{if le 1 .Count}}le{{end}}{{eq .Count 1 2 3}}`,
		`{{eq (index .Items 0).N 1}} {{eq .Count (index .Items 2).N}}`,
		`{{.T "nav.home"}} {{.Upper "abc"}} {{.Pair}} {{.Join ", " "a" "b" "c"}} {{printf "%s/%d" .Lang .Count}} {{print 1 "a" 2}} {{println "x"}}`,
		`{{len .Items}} {{index .Items 1 | printf "%v"}} {{index .Map "k"}} {{.Map.k}} {{.Map.missing}} {{add .Count 4}} {{add 2 3 | add 1}}`,
		`{{define "sub"}}<b>{{.}}</b>{{$}}{{end}}{{template "sub" .Title}}{{template "sub" "lit"}}{{range .Items}}{{template "sub" .Name}}{{end}}`,
		`{{$x := 1}}{{if .Flag}}{{$x = 2}}{{else}}{{$x = 3}}{{end}}{{$x}}`,
		`{{/* a comment */}}{{- .Title -}}   {{ .Count }}`,
		`{{(index .Items 0).Name}} {{.Ptr.Label}} {{$.Items}}`,
		`{{pick .Nested.Deep 1}}`,
		`{{.T .Lang}} {{.T "a"}}{{.T "b"}} {{if .IsKo}}ko{{end}} {{with .Ptr}}{{.Label}}{{end}} {{$.T "c"}}`,
		`<title>{{.Title}} · {{.Body}}</title>`,
		`<p data-x="{{.Count}}" aria-label="{{.T "x"}}">{{.Lang | printf "%q"}}</p>`,
	} {
		if err := same(t, src, funcs, p); err != nil {
			t.Errorf("%q should run without error: %v", src, err)
		}
	}
	// Errors come out where html/template has them.
	for _, src := range []string{`{{.Fails}}`, `{{.Panics "x"}}`, `{{div 1 0}}`, `{{oops}}`, `{{.Nil.Name}}`, `{{.Missing}}`, `{{.hidden}}`, `{{template "sub" .}}{{define "sub"}}{{.Count.X}}{{end}}`, `{{.Title.X}}`, `{{eq .Items 1}}`} {
		if err := same(t, src, funcs, p); err == nil {
			t.Errorf("%q should fail", src)
		}
	}
	same(t, `{{.}} {{.x}}`, nil, nil)
	same(t, `{{range .}}{{.}}{{end}}`, nil, []int{1, 2})
}

func TestUnsupportedIsReported(t *testing.T) {
	set := template.Must(template.New("t").Parse(`{{range .}}{{.}}{{end}}`))
	ct, err := Compile(set, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ct.Execute(&b, []int{1}); err != nil || ct.Fallbacks() != 0 {
		t.Fatalf("range over a slice: %v, %d fallbacks", err, ct.Fallbacks())
	}
	if err := ct.Execute(&b, map[string]int{"a": 1}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("range over a map: got %v, want ErrUnsupported", err)
	}
	if err := ct.Execute(&b, 3); !errors.Is(err, ErrUnsupported) || ct.Fallbacks() != 2 {
		t.Fatalf("range over an int: %v, %d fallbacks counted, want ErrUnsupported and 2", err, ct.Fallbacks())
	}
	if err := ct.Execute(&b, "x"); errors.Is(err, ErrUnsupported) || err == nil || ct.Fallbacks() != 2 {
		t.Fatalf("range over a string: %v, %d fallbacks counted; an error of the template is no fallback", err, ct.Fallbacks())
	}
	set = template.Must(template.New("t").Parse(`{{.X | urlquery}}`))
	if _, err := Compile(set, "t", nil); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("urlquery: got %v, want ErrUnsupported", err)
	}
	set = template.Must(template.New("t").Parse(`<script>var x = {{.}};</script>`))
	if _, err := Compile(set, "t", nil); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("a JavaScript context: got %v, want ErrUnsupported", err)
	}
}

func TestCompileReportsEscapingErrors(t *testing.T) {
	set := template.Must(template.New("t").Parse(`<a href="{{if .}}x{{end}}`))
	_, err := Compile(set, "t", nil)
	var terr *template.Error
	if !errors.As(err, &terr) {
		t.Fatalf("got %v, want html/template's error", err)
	}
}

// TestEscapersRandom runs every context on values made at random of the
// pieces that decide how URLs and text are escaped: schemes, colons and
// slashes in every order, URL punctuation, escapes valid and broken,
// entities' characters and non-ASCII text.
func TestEscapersRandom(t *testing.T) {
	pieces := []string{"http", "HTTPS", "mailto", "javascript", "data", ":", "/", "//", "~/", "?", "#", "&", "=", "+", "%", "%2", "%41", " ", "a", "Z9", "-._~", "!$*,;@[]", "'", `"`, "<", ">", "한", "\xff", "\x00"}
	r := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		in := repotest.Pieces(r, pieces, r.IntN(7))
		for _, c := range contexts {
			same(t, c, nil, in)
		}
	}
}

// keyedPage answers as page does and says that its answers depend on its
// language alone (KeyedCaller); it counts the methods it is asked about.
type keyedPage struct {
	page
	asked *int
}

func (k *keyedPage) CallerKey() uint64 {
	switch k.Lang {
	case "en":
		return 1
	case "ko":
		return 2
	}
	return 0 // keep nothing
}

func (k *keyedPage) CallMethod(name, arg string) (any, bool) {
	*k.asked++
	if name == "Links" {
		return k.Links(), true
	}
	return k.page.CallMethod(name, arg)
}

// Links depends on the language alone, and CallMethod answers it.
func (k *keyedPage) Links() []item { return []item{{Name: "a", N: 1}, {Name: k.Lang, N: 2}} }

// Own depends on more than the language, and CallMethod declines it.
func (k *keyedPage) Own() string { return "own " + k.Title }

// TestKeptCalls checks that the output of a method a KeyedCaller answers
// is kept per key and written again without asking, in every context and
// from every receiver a template reaches, and that nothing else is kept:
// not a method it declines, nor anything for key 0.
func TestKeptCalls(t *testing.T) {
	src := `<p title="{{.T "a"}}">{{.T "b&"}} {{$.T "c"}} {{.IsKo}} {{.Own}} {{.T .Lang}}</p>` +
		`{{range .Items}}{{$.T "d"}}{{end}}{{with $p := .}}<a href="{{$p.T "/e?"}}">{{$p.T "e"}}</a>{{end}}`
	pages := []keptPage{ // with how many times CallMethod is asked
		{"en", "one", 9}, // 6 kept calls (the ranged one once: then it is kept), IsKo, Own and .T .Lang
		{"ko", "one", 9},
		{"en", "two", 2}, // Own and .T .Lang: the rest is kept
		{"ko", "three", 2},
		{"", "four", 10}, // key 0: nothing kept
		{"", "four", 10},
		{"en", "five", 2},
	}
	checkKept(t, src, []item{{Name: "x"}, {Name: "y"}}, pages)
}

// TestKeptBlocks checks that a range or with over a method a KeyedCaller
// answers keeps its output per key and per value of the names of $ it
// reads, and that a block reading anything else from outside is run every
// time.
func TestKeptBlocks(t *testing.T) {
	src := `{{range .Links}}<a href="{{.Name}}"{{if eq .Name $.Title}} class="on"{{end}}>{{.N}}</a>{{end}}|` +
		`{{with .Links}}{{len .}} {{$.Count}}{{end}}|{{range .Links}}{{len $.Items}}{{end}}|{{range .Links}}{{$.T "x"}}{{end}}`
	pages := []keptPage{ // with how many times CallMethod is asked
		// Each kept block asks twice when it misses (once to know that
		// the Caller answers, once running); the block reading $.Items
		// and the one calling $.T "x" are not kept, and ask for Links
		// each time.
		{"en", "a", 7},
		{"en", "b", 4}, // another $.Title: the first block misses
		{"en", "a", 2},
		{"ko", "a", 7},
		{"", "a", 6}, // key 0: nothing kept, not even $.T "x"
		{"ko", "b", 4},
	}
	checkKept(t, src, []item{{Name: "x"}}, pages)
}

// keptPage is a page a kept-output test renders, and how many times
// CallMethod is asked while htmlexec renders it.
type keptPage struct {
	lang, title string
	asks        int
}

// checkKept renders each page of the template src with html/template and
// with htmlexec, in order, and checks that both write the same and how
// often htmlexec asked.
func checkKept(t *testing.T, src string, items []item, pages []keptPage) {
	t.Helper()
	set := template.Must(template.New("t").Parse(src))
	ct, err := Compile(set, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	asked := new(int)
	for _, p := range pages {
		data := &keyedPage{page: page{Lang: p.lang, Title: p.title, Items: items}, asked: asked}
		var want, got bytes.Buffer
		if err := set.Execute(&want, data); err != nil {
			t.Fatal(err)
		}
		*asked = 0
		if err := ct.Execute(&got, data); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s/%s:\nhtml/template %q\nhtmlexec      %q", p.lang, p.title, want.String(), got.String())
		}
		if *asked != p.asks {
			t.Errorf("%s/%s: CallMethod asked %d times, want %d", p.lang, p.title, *asked, p.asks)
		}
	}
}

// TestKeptBlockDeclines checks that a block whose names of $ take a new
// value on every page stops keeping, and still writes what html/template
// writes.
func TestKeptBlockDeclines(t *testing.T) {
	set := template.Must(template.New("t").Parse(`{{range .Links}}{{.Name}}{{$.Title}};{{end}}`))
	ct, err := Compile(set, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for i := range keptBlockOuts + 10 {
		data := &keyedPage{page: page{Lang: "en", Title: fmt.Sprint(i)}, asked: &asked}
		var want, got bytes.Buffer
		if err := set.Execute(&want, data); err != nil {
			t.Fatal(err)
		}
		asked = 0
		if err := ct.Execute(&got, data); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("page %d: html/template %q, htmlexec %q", i, want.String(), got.String())
		}
		// A kept block that misses asks twice; a declined one once.
		if i > keptBlockOuts && asked != 1 {
			t.Fatalf("page %d: CallMethod asked %d times, want 1: the block should be declined", i, asked)
		}
	}
}
