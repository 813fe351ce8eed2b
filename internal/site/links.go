package site

import (
	"bytes"
	"html/template"
	"incidentlib/internal/urls"
	"io"
	"strconv"
	"strings"
)

// Page and file paths come from package urls, the one owner of the URL
// contract; this file turns them into links that work from any page.

// Links inside a page are written relative to the page, so that the site
// works under any path prefix and from disk. Rendering writes every internal
// link as rootMark followed by the target's site path; resolveLinks then
// replaces the mark with the way up from the page to the site root. Pieces of
// HTML with links in them (case cards, the header) are then the same on every
// page and can be rendered once.
const rootMark = "~/"

// markedLink returns the marked link to a site path. In an offline build a
// folder link names its index.html, because a browser opening files does not
// look for it.
func markedLink(target string, offline bool) string {
	if offline {
		return rootMark + urls.File(target)
	}
	return rootMark + target
}

// upToRoot returns the relative way from the folder of the page at path to
// the site root: "./" at the root, "../../" two folders down.
func upToRoot(path string) string {
	depth := strings.Count(path, "/")
	if depth == 0 {
		return "./"
	}
	return strings.Repeat("../", depth)
}

// rootOf returns how the links of the page of job j reach the site root. A
// host serves 404.html for a missing path at any depth, so relative links
// could not work there: its links start with the absolute path the site is
// served under instead (Options.Root). From disk no host serves it, and
// the bundle keeps relative links.
func (s *Site) rootOf(j Job) string {
	if j.Kind == KindNotFound && !s.opt.Offline {
		return s.root
	}
	return upToRoot(j.Path)
}

var markAttr = []byte(`="` + rootMark)

// nextMark returns where the next root mark at the start of an attribute
// value begins in html, from from on, or -1. Text from cases can never
// produce the pattern: html/template and the Markdown renderer escape its
// quote. It looks for the mark itself, whose '~' is rare in a page, and
// then for the quote before it: '=' and '"' are everywhere.
func nextMark(html []byte, from int) int {
	for {
		i := bytes.Index(html[from:], markAttr[2:])
		if i < 0 {
			return -1
		}
		i += from
		if i >= 2 && html[i-2] == markAttr[0] && html[i-1] == markAttr[1] {
			return i
		}
		from = i + 1
	}
}

// writeResolved replaces the root mark at the start of every attribute value
// with root, the page's way to the site root (upToRoot, or an absolute path
// for the 404 page). It writes to w as it goes, without a copy of the page
// in between.
func writeResolved(w io.Writer, html []byte, root string) error {
	for {
		i := nextMark(html, 0)
		if i < 0 {
			break
		}
		if _, err := w.Write(html[:i]); err != nil {
			return err
		}
		if _, err := io.WriteString(w, root); err != nil {
			return err
		}
		html = html[i+len(rootMark):]
	}
	_, err := w.Write(html)
	return err
}

// holderMark starts what a list's view holds in the place of a card: a NUL,
// which no page holds otherwise (the loader refuses control characters in
// every text, and html/template escapes them), a word, the card's number
// on the page and a NUL again.
const holderMark = "\x00card "

var holderBytes = []byte(holderMark)

// cardHolder is what stands for the i-th card of a page until writePage
// puts the card in its place.
func cardHolder(i int) template.HTML {
	return template.HTML(holderMark + strconv.Itoa(i) + "\x00")
}

// writePage writes a page rendered from a view with card holders to w: its
// links resolved (writeResolved), and each holder replaced by its card,
// whose links are resolved where the card says its marks are. A card's
// bytes are then copied once, and never looked through. Text that only
// looks like a holder, with no card of that number, is written as it is.
func writePage(w io.Writer, html []byte, root string, cards []*keptCard) error {
	if len(cards) == 0 {
		return writeResolved(w, html, root)
	}
	for {
		i := bytes.Index(html, holderBytes)
		if i < 0 {
			break
		}
		n, end := holderNumber(html[i+len(holderMark):])
		if n < 0 || n >= len(cards) {
			if err := writeResolved(w, html[:i+1], root); err != nil {
				return err
			}
			html = html[i+1:]
			continue
		}
		if err := writeResolved(w, html[:i], root); err != nil {
			return err
		}
		if err := writeCard(w, cards[n], root); err != nil {
			return err
		}
		html = html[i+len(holderMark)+end:]
	}
	return writeResolved(w, html, root)
}

// holderNumber reads the number and the closing NUL of a card holder at
// the start of b: the number and how many bytes it took, or -1.
func holderNumber(b []byte) (n, size int) {
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9' && i < 9:
			n = n*10 + int(c-'0')
		case c == 0 && i > 0:
			return n, i + 1
		default:
			return -1, 0
		}
	}
	return -1, 0
}

// writeCard writes a kept card with its marks replaced by root.
func writeCard(w io.Writer, k *keptCard, root string) error {
	html, from := string(k.html), 0
	for _, m := range k.marks {
		if _, err := io.WriteString(w, html[from:m]); err != nil {
			return err
		}
		if _, err := io.WriteString(w, root); err != nil {
			return err
		}
		from = int(m) + len(rootMark)
	}
	_, err := io.WriteString(w, html[from:])
	return err
}
