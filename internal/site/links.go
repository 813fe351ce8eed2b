package site

import (
	"bytes"
	"html/template"
	"incidentlib/internal/urls"
	"io"
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

// folderOf returns the folder of the page at path: "en/cases/" for
// "en/cases/" and for "en/cases/x.html", "" at the site root.
func folderOf(path string) string {
	return path[:strings.LastIndex(path, "/")+1]
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

// hereWay starts a link to the page's own folder that would not read as a
// path written as it is (plainStart).
var hereWay = []byte(`="./`)

// writeResolved replaces the root mark at the start of every attribute value
// with root, the page's way to the site root (upToRoot, or an absolute path
// for the 404 page). Text from cases can never produce the pattern:
// html/template and the Markdown renderer escape its quote. It writes to w
// as it goes, without a copy of the page in between. It looks for the mark
// itself, whose '~' is rare in a page, and then for the quote before it:
// '=' and '"' are everywhere.
//
// root comes from the base URL, which the settings' rule already keeps to
// the characters of a URL; it is escaped all the same, as every value
// written into an attribute is.
func writeResolved(w io.Writer, html []byte, root string) error {
	return writeLinks(w, html, root, "")
}

// writeLinks is writeResolved for a page in the folder here ("en/cases/",
// "" at the site root), whose links root is the way up from: a link into
// here or one of its parents is written from the folder both share, so
// that a topic's link to a case is "../../cases/IL-0999/" rather than
// "../../../en/cases/IL-0999/". The bytes saved are a few on every link,
// and a page has hundreds of links. here is "" for a root that is not the
// relative way up from the page (the 404 page's absolute path), and every
// link is then written from root.
func writeLinks(w io.Writer, html []byte, root, here string) error {
	up := []byte(`="` + template.HTMLEscapeString(root))
	from := 0 // where the search goes on; html[:from] holds no whole pattern
	for {
		i := bytes.Index(html[from:], markAttr[2:])
		if i < 0 {
			break
		}
		i += from
		if i < 2 || html[i-2] != markAttr[0] || html[i-1] != markAttr[1] {
			from = i + 1
			continue
		}
		if _, err := w.Write(html[:i-2]); err != nil {
			return err
		}
		html, from = html[i+len(markAttr)-2:], 0
		way := up
		if here != "" {
			if n, folders := shared(here, html); n > 0 {
				// root is "../" once a folder of here: it loses one for
				// each folder shared.
				way, html = up[:len(up)-3*folders], html[n:]
				if len(way) == 2 && !plainStart(html) {
					way = hereWay
				}
			}
		}
		if _, err := w.Write(way); err != nil {
			return err
		}
	}
	_, err := w.Write(html)
	return err
}

// shared returns the length of the longest run of whole folders ("en/",
// "en/cases/") that the folder here and the link target starting target
// begin with.
func shared(here string, target []byte) (n, folders int) {
	for i := 0; i < len(here) && i < len(target) && here[i] == target[i]; i++ {
		if here[i] == '/' {
			n = i + 1
			folders++
		}
	}
	return n, folders
}

// plainStart says whether the rest of a link, written as it is, reads as a
// path: not empty, not a query or a fragment alone, and with no colon in
// its first folder, which would read as a scheme.
func plainStart(rest []byte) bool {
	for i, c := range rest {
		switch c {
		case '/', '"', '?', '#':
			return i > 0
		case ':':
			return false
		}
	}
	return false
}
