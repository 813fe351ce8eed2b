package htmlexec

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sync"
	"text/template/parse"
)

// The escapers in escape.go are this package's own code, written to match
// html/template's. A Go release may change html/template's: what it escapes,
// or which escapers it puts in a context. So before the first template
// compiles, checkEscapers asks the html/template linked into the program:
// it escapes one probe template per context the escapers serve, checks that
// html/template chose the escapers expected there, and runs a corpus of
// hostile strings through both engines. When anything differs, Compile
// fails with ErrUnsupported for every template and callers render with
// html/template: slower, never different. The check runs once per process.

// probe is one context: a template with one action in it and the escapers
// html/template appends to that action.
type probe struct {
	src   string
	chain []string
}

var probes = []probe{
	{`<p>{{.}}</p>`, []string{"_html_template_htmlescaper"}},
	{`<p title="{{.}}">x</p>`, []string{"_html_template_attrescaper"}},
	{`<img alt='{{.}}' src="x.png">`, []string{"_html_template_attrescaper"}},
	{`<a href="{{.}}">x</a>`, []string{"_html_template_urlfilter", "_html_template_urlnormalizer", "_html_template_attrescaper"}},
	{`<a href='/search/?q={{.}}&amp;x=1'>x</a>`, []string{"_html_template_urlescaper", "_html_template_attrescaper"}},
	{`<title>{{.}}</title>`, []string{"_html_template_rcdataescaper"}},
	{`<textarea>{{.}}</textarea>`, []string{"_html_template_rcdataescaper"}},
}

// probeStrings hold every ASCII byte, invalid UTF-8 and the characters and
// attacks escaping is about.
var probeStrings = func() []string {
	all := make([]byte, 128)
	for i := range all {
		all[i] = byte(i)
	}
	return []string{
		"", "plain", string(all), "\x80\xff\xfe broken", "한국어 – “quotes” \u2028\u2029 \ufdd0\uffff 😀",
		`<script>alert("x")</script>`, `<img src=x onerror=alert(1)>`, `"><svg onload=alert(1)>`,
		`' onmouseover='alert(1)`, `</textarea></title><!-- -->`, "a & b 'c' + d > e &amp; &#60;",
		"javascript:alert(1)", " JavaScript:x", "vbscript:x", "data:text/html,x", "mailto:a@b.c",
		"HTTPS://x.y/p?q=1&r=2#f", "//host/x:y", "/a b/ü/%41%zz%4%", "%2", "a%20", "?q=a+b&c=d;e",
		"[::1]:80/~x!$*,'()", "http:", ":x", "x:y/z",
	}
}()

// escapersChecked returns the result of checkEscapers, computed once.
// Tests that change probes or escapers replace it.
var escapersChecked = sync.OnceValue(checkEscapers)

func checkEscapers() error {
	var want, got bytes.Buffer
	for _, p := range probes {
		set := template.Must(template.New("probe").Parse(p.src))
		if err := set.Execute(io.Discard, ""); err != nil {
			return escapersDiffer("%s does not execute: %v", p.src, err)
		}
		if chain := escaperNames(set.Tree.Root); !slices.Equal(chain, p.chain) {
			return escapersDiffer("html/template escapes %s with %v, htmlexec expects %v", p.src, chain, p.chain)
		}
		ct, err := compile(set, "probe", nil)
		if err != nil {
			return escapersDiffer("%s: %v", p.src, err)
		}
		for _, s := range probeStrings {
			for _, v := range []any{s, template.HTML(s), template.URL(s), &s} {
				want.Reset()
				got.Reset()
				if err := set.Execute(&want, v); err != nil {
					return escapersDiffer("%s with %q: %v", p.src, s, err)
				}
				if err := ct.Execute(&got, v); errors.Is(err, ErrUnsupported) {
					continue // left to html/template at run time as well
				} else if err != nil {
					return escapersDiffer("%s with %q: %v", p.src, s, err)
				}
				if !bytes.Equal(want.Bytes(), got.Bytes()) {
					return escapersDiffer("%s with %T %q: html/template writes %q, htmlexec %q", p.src, v, s, want.Bytes(), got.Bytes())
				}
			}
		}
	}
	return nil
}

func escapersDiffer(format string, args ...any) error {
	return fmt.Errorf("%w: html/template's escapers are not the ones htmlexec knows: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// escaperNames lists the functions html/template appended to the actions of
// a probe: the identifiers that end a pipeline, escapers or not.
func escaperNames(l *parse.ListNode) []string {
	var names []string
	for _, n := range l.Nodes {
		a, ok := n.(*parse.ActionNode)
		if !ok {
			continue
		}
		for _, cmd := range a.Pipe.Cmds {
			if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok && len(cmd.Args) == 1 {
				names = append(names, id.Ident)
			}
		}
	}
	return names
}
