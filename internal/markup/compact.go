package markup

import "bytes"

// Compact removes the whitespace of HTML source that a browser does not
// show: a run of white space with a line break in it goes when it touches a
// tag that is not inline (as between </li> and <li>, or after <p>), where a
// line starts or ends anyway, and becomes one line break anywhere else,
// where it may separate words.
// Nothing changes inside pre, textarea, script and style. It is the
// minifying of this generator, done once on templates and rendered
// Markdown instead of on every page: pages come out as small as a minifier
// makes them, give or take a few bytes, without the cost of one.
//
// raw carries "inside a raw element" across the pieces of one document,
// such as the text nodes of a template in order.
func Compact(src []byte, raw *string) []byte {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); {
		c := src[i]
		if *raw != "" {
			if c == '<' && hasTagAt(src, i, "/"+*raw) {
				*raw = ""
			}
			out = append(out, c)
			i++
			continue
		}
		if c == '<' {
			for _, t := range rawElements {
				if hasTagAt(src, i, t) {
					*raw = t
					break
				}
			}
		}
		if !isSpace(c) {
			out = append(out, c)
			i++
			continue
		}
		j := i
		for j < len(src) && isSpace(src[j]) {
			j++
		}
		run := src[i:j]
		switch {
		case bytes.IndexByte(run, '\n') < 0:
			out = append(out, run...) // spaces within a line are the author's
		case i > 0 && src[i-1] == '>' && !inline(tagBefore(src, i)),
			j < len(src) && src[j] == '<' && !inline(tagAfter(src, j)):
			// next to a block tag: a line starts or ends there, nothing to show
		default:
			out = append(out, '\n')
		}
		i = j
	}
	return out
}

var rawElements = []string{"pre", "textarea", "script", "style"}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// hasTagAt reports whether src[i:] starts the tag <name followed by the end
// of the name.
func hasTagAt(src []byte, i int, name string) bool {
	if i+1+len(name) > len(src) || !bytes.EqualFold(src[i+1:i+1+len(name)], []byte(name)) {
		return false
	}
	if k := i + 1 + len(name); k < len(src) {
		c := src[k]
		return c == '>' || c == '/' || isSpace(c)
	}
	return true
}

// tagBefore is the name of the tag that ends at src[i-1] ('>').
func tagBefore(src []byte, i int) string {
	lt := bytes.LastIndexByte(src[:i], '<')
	if lt < 0 {
		return "" // the tag began in an earlier piece: treat it as inline
	}
	return tagName(src[lt+1 : i])
}

// tagAfter is the name of the tag that starts at src[j] ('<').
func tagAfter(src []byte, j int) string { return tagName(src[j+1:]) }

func tagName(b []byte) string {
	if len(b) > 0 && b[0] == '/' {
		b = b[1:]
	}
	n := 0
	for n < len(b) && (b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z' || b[n] >= '0' && b[n] <= '9') {
		n++
	}
	return string(bytes.ToLower(b[:n]))
}

// inline reports whether whitespace next to the element can show, as a
// space between words; unknown names count as inline, which keeps the
// whitespace.
func inline(name string) bool { return !blockElements[name] }

var blockElements = map[string]bool{}

func init() {
	for _, n := range []string{
		"html", "head", "body", "title", "meta", "link", "base", "header", "footer", "main", "nav",
		"section", "article", "aside", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
		"ul", "ol", "li", "dl", "dt", "dd", "figure", "figcaption", "blockquote", "table",
		"thead", "tbody", "tfoot", "tr", "td", "th", "caption", "form", "fieldset", "legend",
		"details", "summary", "address", "noscript", "template", "rect", "g", "path",
	} {
		blockElements[n] = true
	}
}
