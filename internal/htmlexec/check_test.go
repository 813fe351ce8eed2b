package htmlexec

import (
	"bytes"
	"errors"
	"html/template"
	"strings"
	"sync"
	"testing"
)

// TestEscapersAreKnown: the html/template this package is built with
// escapes as htmlexec does, so Compile compiles.
func TestEscapersAreKnown(t *testing.T) {
	if err := checkEscapers(); err != nil {
		t.Fatal(err)
	}
	if len(probes) < 7 || len(probeStrings) < 20 {
		t.Fatalf("the probe corpus shrank: %d contexts, %d strings", len(probes), len(probeStrings))
	}
}

// TestCompileFailsWhenEscapersChange changes htmlexec's knowledge of
// html/template, one change a Go release could make at a time, and checks
// that Compile then refuses every template with ErrUnsupported (so callers
// run html/template) while still reporting unsafe templates.
func TestCompileFailsWhenEscapersChange(t *testing.T) {
	set := template.Must(template.New("t").Parse(`<a href="{{.}}" title="{{.}}">{{.}}</a>`))
	if _, err := Compile(set, "t", nil); err != nil {
		t.Fatalf("unchanged escapers: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func()
		want   string // in the error
	}{
		{"text stops escaping +", func() {
			e := escapers["_html_template_htmlescaper"]
			escapers["_html_template_htmlescaper"] = escaper{e.str, func(w *bytes.Buffer, s string, ct contentType) {
				var b bytes.Buffer
				e.write(&b, s, ct)
				w.Write(bytes.ReplaceAll(b.Bytes(), []byte("&#43;"), []byte("+")))
			}}
		}, `<p>{{.}}</p> with string`},
		{"the URL filter lets data: through", func() {
			f := func(s string, ct contentType) string { return s }
			escapers["_html_template_urlfilter"] = escaper{f, writeStr(f)}
		}, `<a href="{{.}}">x</a> with string "javascript:alert(1)"`},
		{"an escaper htmlexec does not know", func() {
			delete(escapers, "_html_template_urlnormalizer")
		}, `<a href="{{.}}">x</a>: htmlexec: not supported`},
		{"another chain of escapers in a context", func() {
			probes = append([]probe{{`<p>{{.}}</p>`, []string{"_html_template_rcdataescaper"}}}, probes[1:]...)
		}, "html/template escapes <p>{{.}}</p> with [_html_template_htmlescaper], htmlexec expects [_html_template_rcdataescaper]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			savedEscapers, savedProbes := map[string]escaper{}, probes
			for k, v := range escapers {
				savedEscapers[k] = v
			}
			defer func() {
				escapers, probes = savedEscapers, savedProbes
				escapersChecked = sync.OnceValue(checkEscapers)
			}()
			tc.change()
			escapersChecked = sync.OnceValue(checkEscapers)
			ct, err := Compile(set, "t", nil)
			if ct != nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, %v; want ErrUnsupported naming %q", ct, err, tc.want)
			}
			// An unsafe template is still reported as html/template reports it.
			bad := template.Must(template.New("t").Parse(`<a href="{{if .}}x{{end}}`))
			var terr *template.Error
			if _, err := Compile(bad, "t", nil); !errors.As(err, &terr) {
				t.Fatalf("unsafe template: got %v, want html/template's error", err)
			}
		})
	}
	if _, err := Compile(set, "t", nil); err != nil {
		t.Fatalf("escapers restored: %v", err)
	}
}

// The check runs once: compiling more templates does not run it again.
func BenchmarkCheckEscapers(b *testing.B) {
	for b.Loop() {
		if err := checkEscapers(); err != nil {
			b.Fatal(err)
		}
	}
}
