// Package urls owns the URL contract of the published site: the path of
// every page kind and every file a build writes (case and list pages, facet
// indexes and topics, the search page and its index files, the JSON API, the
// Markdown twins, feeds, the sitemap, llms.txt and the fingerprinted assets).
// The facets that name topics in those paths are package cases' table.
//
// Every path is relative to the site root and has no leading slash. A folder
// page ends in a slash and is written to disk as <path>index.html. Packages
// that render pages (site), write files (api, search, build) or serve them
// (serve, mcpserver) ask this package for a path; none of them writes
// "cases/" or "api/v1/" by hand, so that a rename happens here once.
package urls

import (
	"net/url"
	"strconv"
	"strings"
)

// Pages.

// Home is the home page of a language.
func Home(lang string) string { return lang + "/" }

// Case is the page of a case, such as "en/cases/IL-0495/".
func Case(lang, id string) string { return lang + "/cases/" + id + "/" }

// Markdown is the Markdown twin of a case page, beside its index.html.
func Markdown(lang, id string) string { return Case(lang, id) + MarkdownName }

// MarkdownName is the file name of a Markdown twin in its page's folder.
const MarkdownName = "index.md"

// Cases is page n (from 1) of the list of all cases.
func Cases(lang string, page int) string { return paged(lang+"/cases/", page) }

// FacetIndex is the page that lists the terms of a facet.
func FacetIndex(lang, facet string) string { return lang + "/" + facet + "/" }

// Topic is page n (from 1) of the cases of one term of a facet.
func Topic(lang, facet, term string, page int) string {
	return paged(FacetIndex(lang, facet)+term+"/", page)
}

// Search is the search page.
func Search(lang string) string { return lang + "/search/" }

// Prepare is the page that turns the cases of a reader's stack into one
// checklist ("my stack").
func Prepare(lang string) string { return lang + "/prepare/" }

// PrepareData is the file the prepare page loads when a reader chooses a
// part of their stack (folder: the facet's name) or gives a product's
// version (folder: "products"): a script that registers that part's cases
// and checklist, so that it loads from disk too.
func PrepareData(lang, folder, id string) string { return Prepare(lang) + folder + "/" + id + ".js" }

// Param is one parameter of a page's address: a facet's URL name and its
// terms on the search page, a product and its version on the prepare page.
type Param struct {
	Key    string
	Values []string
}

// Query writes parameters as the search and prepare pages read them from
// their address: "?components=ingress,cni&ingress-nginx=1.11.2", values
// joined by commas, in the order given; parameters without a value are
// left out, and no parameter gives "".
func Query(params ...Param) string {
	var b strings.Builder
	for _, p := range params {
		var vals []string
		for _, v := range p.Values {
			if v != "" {
				vals = append(vals, url.QueryEscape(v))
			}
		}
		if len(vals) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.Key) + "=" + strings.Join(vals, ","))
	}
	return b.String()
}

// ReservedSlug reports whether a page folder of that name directly under a
// language's home would take the address of one of the site's own
// sections (the case lists, the search page, the API page, the feed, the
// pages of a list); the facets' folders are reserved too, which package
// cases knows.
func ReservedSlug(slug string) bool {
	switch slug {
	case "cases", "search", "api", "feed", "page", "changes", "prepare":
		return true
	}
	return false
}

// SiblingMarkdown is the link from one case page's Markdown twin to
// another's, relative to the folder of the first.
func SiblingMarkdown(id string) string { return "../" + id + "/" + MarkdownName }

// Prose is a page written in Markdown under content/pages, such as about.
func Prose(lang, slug string) string { return lang + "/" + slug + "/" }

// APIDoc is the page that explains the API and the MCP server.
func APIDoc(lang string) string { return lang + "/api/" }

// Feed is the Atom feed of a language.
func Feed(lang string) string { return lang + "/feed.xml" }

// FeedName is the file name of an Atom feed in its folder.
const FeedName = "feed.xml"

// TopicFeed is the Atom feed of a topic's cases, beside the topic's first
// page.
func TopicFeed(lang, facet, term string) string { return Topic(lang, facet, term, 1) + FeedName }

// Changes is the Atom feed of what changed in the library: cases added,
// updated and withdrawn (APIChanges as JSON).
func Changes(lang string) string { return lang + "/changes.xml" }

// Site-wide files.
const (
	NotFound = "404.html"
	Robots   = "robots.txt"
	Sitemap  = "sitemap.xml" // the sitemap, or the index of its parts
	LLMs     = "llms.txt"
	Headers  = "_headers"
	// Redirects holds a host's redirect and rewrite rules (Netlify,
	// Cloudflare Pages), NoJekyll turns Jekyll off on GitHub Pages. They and
	// Headers are the only names of a build that start with "_" or ".":
	// the hosts that read them look for them there.
	Redirects = "_redirects"
	NoJekyll  = ".nojekyll"
)

// NotFoundIn is the 404 page of a language, which hosts serve for a missing
// path under the language's folder (see NotFoundFor).
func NotFoundIn(lang string) string { return lang + "/" + NotFound }

// NotFoundFor lists the 404 pages that may answer a missing path, nearest
// first: a 404.html in the path's folder, then in each folder above it, up
// to the root's. This is how hosts that look for the nearest 404.html
// (Cloudflare Pages, Netlify) find one, and how serve does; a build writes
// the root's (both languages) and one per language (NotFoundIn).
func NotFoundFor(path string) []string {
	var out []string
	dir := path
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i+1]
	} else {
		dir = ""
	}
	for {
		out = append(out, dir+NotFound)
		if dir == "" {
			return out
		}
		i := strings.LastIndexByte(dir[:len(dir)-1], '/')
		dir = dir[:i+1]
	}
}

// SitemapPart is numbered part n (from 1) of a large sitemap.
func SitemapPart(n int) string { return "sitemap-" + strconv.Itoa(n) + ".xml" }

// Asset is a fingerprinted static file, such as "assets/site.1a2b3c4d5e.css".
func Asset(name, hash, ext string) string { return AssetDir + name + "." + hash + ext }

// AssetDir is the folder of the fingerprinted static files.
const AssetDir = "assets/"

// SearchDir is the folder of the search index files; the search script
// reads it relative to the site root.
const SearchDir = "search/"

// SearchFile is a file of the search index, such as "search/meta.json".
func SearchFile(name string) string { return SearchDir + name }

// The JSON API.

// APIVersion is the version segment of every API path.
const APIVersion = "v1"

// APIDir is the folder of the JSON API.
const APIDir = APIRoot + APIVersion + "/"

// APIRoot is the folder of every version of the API.
const APIRoot = "api/"

// apiFile is a file of the API by its path inside APIDir.
func apiFile(p string) string { return APIDir + p }

// API files.
var (
	APICases  = apiFile("cases.json")
	APIVocab  = apiFile("vocab.json")
	APISchema = apiFile("schema/case.json")
	// The JSON Schemas of content/site.json and content/vocab.json, beside
	// the case's.
	APISiteSchema  = apiFile("schema/site.json")
	APIVocabSchema = apiFile("schema/vocab.json")

	// The bulk downloads: every case in one file, as CSV, as JSON Lines,
	// and the case files with the vocabulary and the schemas in a zip.
	APICasesCSV   = apiFile("cases.csv")
	APICasesJSONL = apiFile("cases.jsonl")
	APICasesZip   = apiFile("incidentlib-cases.zip")
	// APIChanges lists the cases added, updated and withdrawn.
	APIChanges = apiFile("changes.json")
	// APISources maps every source address, normalised, to its cases.
	APISources = apiFile("sources.json")
)

// APICase is the JSON of one case, as in the source.
func APICase(id string) string { return apiFile("cases/" + id + ".json") }

// APISimilar is the list of cases related to one case.
func APISimilar(id string) string { return apiFile("cases/" + id + "/similar.json") }

// APITopic is the JSON of one term of a facet.
func APITopic(facet, term string) string { return apiFile("topics/" + facet + "/" + term + ".json") }

func paged(base string, page int) string {
	if page <= 1 {
		return base
	}
	return base + "page/" + strconv.Itoa(page) + "/"
}

// OtherLanguage returns the same page in the other language; a path
// outside both language folders is returned as it is. (A "twin" is only
// ever a case page's Markdown output, index.md beside index.html.)
func OtherLanguage(path, lang string) string {
	other := "ko"
	if lang == "ko" {
		other = "en"
	}
	if len(path) > len(lang) && path[:len(lang)+1] == lang+"/" {
		return other + path[len(lang):]
	}
	return path
}
