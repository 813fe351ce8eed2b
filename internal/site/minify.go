package site

import (
	"bytes"
	"html/template"
	"regexp"
	"text/template/parse"

	"incidentlib/internal/markup"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"
)

// minifier minifies the static files once, when a theme is loaded. Pages
// are not passed through it: their templates and Markdown are compacted
// instead (see compactTemplates), which costs nothing per page. Its HTML
// minifier is what tests measure that compacting against.
var minifier = func() *minify.M {
	m := minify.New()
	m.Add("text/html", &html.Minifier{
		KeepDocumentTags:    true, // html, head and body stay: validators and readers expect them
		KeepEndTags:         true,
		KeepQuotes:          true,
		KeepSpecialComments: false,
	})
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("image/svg+xml", svg.Minify)
	m.Add("application/javascript", &js.Minifier{})
	m.AddFuncRegexp(regexp.MustCompile("[/+]json$"), json.Minify)
	m.AddFuncRegexp(regexp.MustCompile("[/+]xml$"), xml.Minify)
	return m
}()

func minifyAsset(mediaType string, data []byte) []byte {
	var b bytes.Buffer
	if err := minifier.Minify(mediaType, &b, bytes.NewReader(data)); err != nil {
		return data // an asset the minifier cannot read is published as written
	}
	return b.Bytes()
}

// compactTemplates removes the whitespace of the templates' HTML that no
// browser shows (see markup.Compact), before html/template escapes them.
func compactTemplates(set *template.Template) {
	for _, t := range set.Templates() {
		if t.Tree == nil || t.Tree.Root == nil {
			continue
		}
		raw := ""
		compactNode(t.Tree.Root, &raw)
	}
}

func compactNode(n parse.Node, raw *string) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			compactNode(c, raw)
		}
	case *parse.TextNode:
		n.Text = markup.Compact(n.Text, raw)
	case *parse.IfNode:
		compactNode(n.List, raw)
		compactNode(n.ElseList, raw)
	case *parse.RangeNode:
		compactNode(n.List, raw)
		compactNode(n.ElseList, raw)
	case *parse.WithNode:
		compactNode(n.List, raw)
		compactNode(n.ElseList, raw)
	}
}
