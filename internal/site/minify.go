package site

import (
	"bytes"
	"io"
	"regexp"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/json"
	"github.com/tdewolff/minify/v2/svg"
	"github.com/tdewolff/minify/v2/xml"
)

// minifier is shared by all workers; a *minify.M is safe for concurrent use.
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

// Minify writes a rendered file to w, minified when it is HTML. Other
// rendered files are written compactly already, and static assets were
// minified once when the site was loaded: minifying them again would change
// bytes their integrity hashes were computed from.
func Minify(w io.Writer, mediaType string, data []byte) error {
	if mediaType == "text/html" {
		return minifier.Minify(mediaType, w, bytes.NewReader(data))
	}
	_, err := w.Write(data)
	return err
}

func minifyAsset(mediaType string, data []byte) []byte {
	var b bytes.Buffer
	if err := minifier.Minify(mediaType, &b, bytes.NewReader(data)); err != nil {
		return data // an asset the minifier cannot read is published as written
	}
	return b.Bytes()
}
