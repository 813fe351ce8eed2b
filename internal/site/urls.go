package site

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// Paths of pages, relative to the site root, without a leading slash. A
// folder page ends in a slash and is written as <path>index.html.

func casePath(lang, id string) string        { return lang + "/cases/" + id + "/" }
func casesPath(lang string, page int) string { return paged(lang+"/cases/", page) }
func facetPath(lang, facet string) string    { return lang + "/" + facet + "/" }
func topicPath(lang, facet, term string, page int) string {
	return paged(lang+"/"+facet+"/"+term+"/", page)
}
func homePath(lang string) string   { return lang + "/" }
func searchPath(lang string) string { return lang + "/search/" }
func prosePath(lang, slug string) string {
	return lang + "/" + slug + "/"
}
func apiDocPath(lang string) string { return lang + "/api/" }
func feedPath(lang string) string   { return lang + "/feed.xml" }

// SitemapPath is the sitemap, or the sitemap index of a large site, whose
// parts are at sitemapPartPath(1), (2), ….
const SitemapPath = "sitemap.xml"

func sitemapPartPath(part int) string { return "sitemap-" + strconv.Itoa(part) + ".xml" }

// The exported paths below are for packages that name pages of the site
// without rendering them (the API, the MCP server).

// CasePath returns the site path of a case page, such as "en/cases/IL-0495/".
func CasePath(lang, id string) string { return casePath(lang, id) }

// MarkdownPath returns the site path of the Markdown twin of a case page.
func MarkdownPath(lang, id string) string { return casePath(lang, id) + "index.md" }

// TopicPath returns the site path of the first page of a topic.
func TopicPath(lang, facet, term string) string { return topicPath(lang, facet, term, 1) }

// APIDocPath returns the site path of the page that explains the API and
// the MCP server.
func APIDocPath(lang string) string { return apiDocPath(lang) }

func paged(base string, page int) string {
	if page <= 1 {
		return base
	}
	return base + "page/" + strconv.Itoa(page) + "/"
}

// twin returns the same page in the other language.
func twin(path, lang string) string {
	other := "ko"
	if lang == "ko" {
		other = "en"
	}
	if strings.HasPrefix(path, lang+"/") {
		return other + path[len(lang):]
	}
	return path
}

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
	if offline && (target == "" || strings.HasSuffix(target, "/")) {
		return rootMark + target + "index.html"
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

// writeResolved replaces the root mark at the start of every attribute value
// with root, the page's way to the site root (upToRoot, or an absolute path
// for the 404 page). Text from cases can never produce the pattern:
// html/template and the Markdown renderer escape its quote. It writes to w
// as it goes, without a copy of the page in between.
func writeResolved(w io.Writer, html []byte, root string) error {
	up := []byte(`="` + root)
	for {
		i := bytes.Index(html, markAttr)
		if i < 0 {
			break
		}
		if _, err := w.Write(html[:i]); err != nil {
			return err
		}
		if _, err := w.Write(up); err != nil {
			return err
		}
		html = html[i+len(markAttr):]
	}
	_, err := w.Write(html)
	return err
}
