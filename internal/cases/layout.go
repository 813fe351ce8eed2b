package cases

import "strings"

// The content folder's layout, owned here: every package that names a
// file or folder of the content (the loader, the watcher of the preview and
// the MCP server, `incidentlib new`, the generator of test libraries) uses
// these names.
const (
	SiteFile  = "site.json"  // the site's title, base URL and languages
	VocabFile = "vocab.json" // the controlled terms of the facets
	CasesDir  = "cases"      // one <id>.json per case
	pagesDir  = "pages"      // prose pages, <slug>.<lang>.md
	topicsDir = "topics"     // topic introductions, <facet>/<term>.<lang>.md
	// RootDir holds files a build copies as they are to the root of its
	// output (package build): what a host wants there and the site does
	// not make, such as CNAME or .well-known/. The loader does not read it.
	RootDir = "root"
)

// ContentEntries are the names the loader reads at the top of the content
// folder, in the order messages list them.
var ContentEntries = []string{SiteFile, VocabFile, CasesDir, pagesDir, topicsDir}

// CaseFile is the path of the file of the case id in the content folder,
// such as "cases/IL-0495.json".
func CaseFile(id string) string { return CasesDir + "/" + id + ".json" }

// InCases reports whether the content path p (slash-separated, relative
// to the content folder) is inside the cases folder: a save there can be
// read again on its own (Reload); anything else the loader reads means
// reading it all.
func InCases(p string) bool { return strings.HasPrefix(p, CasesDir+"/") }

// Reads reports whether the loader reads the content path p: site.json,
// vocab.json, or what is under cases/, pages/ and topics/.
func Reads(p string) bool {
	top, _, _ := strings.Cut(p, "/")
	switch top {
	case SiteFile, VocabFile, CasesDir, pagesDir, topicsDir:
		return true
	}
	return false
}
