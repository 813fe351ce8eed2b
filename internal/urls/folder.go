package urls

import "strings"

// The folder-page rule: a page path that ends in a slash (the root's is "")
// is a folder, written to disk and served as the folder's IndexFile. Every
// package that turns a page path into a file or back (the site's jobs and
// offline links, the preview, the test servers and link checkers, the
// screenshot tool) asks these functions, so the rule is stated once.

// IndexFile is the name of a folder page's file.
const IndexFile = "index.html"

// IsFolder reports whether the page path p is a folder page: the root ("")
// or a path ending in a slash.
func IsFolder(p string) bool { return p == "" || strings.HasSuffix(p, "/") }

// File returns the file the page path p is written to: <p>index.html for a
// folder page, p itself otherwise.
func File(p string) string {
	if IsFolder(p) {
		return p + IndexFile
	}
	return p
}

// Page returns the page path of a written file, the inverse of File: the
// folder of an index.html ("en/cases/IL-0495/index.html" is
// "en/cases/IL-0495/", "index.html" is ""), the file's own path otherwise.
func Page(file string) string {
	if file == IndexFile || strings.HasSuffix(file, "/"+IndexFile) {
		return strings.TrimSuffix(file, IndexFile)
	}
	return file
}
