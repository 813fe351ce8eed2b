package urls

import "testing"

func TestFolderRule(t *testing.T) {
	for _, tt := range []struct {
		page, file string
		folder     bool
	}{
		{"", "index.html", true},
		{"en/", "en/index.html", true},
		{"en/cases/IL-0495/", "en/cases/IL-0495/index.html", true},
		{"en/feed.xml", "en/feed.xml", false},
		{"en/cases/IL-0495/index.md", "en/cases/IL-0495/index.md", false},
		{"sitemap.xml", "sitemap.xml", false},
	} {
		if got := IsFolder(tt.page); got != tt.folder {
			t.Errorf("IsFolder(%q) = %v", tt.page, got)
		}
		if got := File(tt.page); got != tt.file {
			t.Errorf("File(%q) = %q, want %q", tt.page, got, tt.file)
		}
		if got := Page(tt.file); got != tt.page {
			t.Errorf("Page(%q) = %q, want %q", tt.file, got, tt.page)
		}
	}
	// A file whose name only ends in index.html is not a folder's.
	if got := Page("en/myindex.html"); got != "en/myindex.html" {
		t.Errorf("Page(en/myindex.html) = %q", got)
	}
}
