package site

import (
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

// rel returns a link from the page at from to target, both site paths. Links
// are relative so the site works under any path prefix and from disk; in an
// offline build a folder link names its index.html, because a browser opening
// files does not look for it.
func rel(from, target string, offline bool) string {
	fromDir := from
	if i := strings.LastIndexByte(fromDir, '/'); i >= 0 {
		fromDir = fromDir[:i+1]
	} else {
		fromDir = ""
	}
	fs := strings.Split(strings.TrimSuffix(fromDir, "/"), "/")
	if fromDir == "" {
		fs = nil
	}
	ts := strings.Split(target, "/")
	// ts holds the target's folders and, last, its file name ("" for a folder).
	common := 0
	for common < len(fs) && common < len(ts)-1 && fs[common] == ts[common] {
		common++
	}
	var b strings.Builder
	for i := common; i < len(fs); i++ {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(ts[common:], "/"))
	out := b.String()
	if strings.HasSuffix(target, "/") || target == "" {
		if offline {
			out += "index.html"
		} else if out == "" {
			out = "./"
		}
	}
	return out
}
