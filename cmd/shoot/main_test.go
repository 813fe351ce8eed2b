package main

import "testing"

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:8080/", "index"},
		{"http://127.0.0.1:8080/en/cases/IL-0495/", "en-cases-IL-0495"},
		{"http://127.0.0.1:8080/ko/index.html", "ko"},
		{"http://127.0.0.1:8080/404.html", "404.html"},
		{"http://x/ko/search/?q=로드", "ko-search"},
		{"file:///tmp/public/ko/cases/IL-0495/index.html", "cases-IL-0495"},
	}
	for _, tt := range tests {
		if got := slug(tt.in); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPageURL(t *testing.T) {
	if got, err := pageURL("http://localhost:8080/en/"); err != nil || got != "http://localhost:8080/en/" {
		t.Errorf("pageURL(http URL) = %q, %v", got, err)
	}
	if got, err := pageURL("."); err != nil || got[:8] != "file:///" || got[len(got)-len("/index.html"):] != "/index.html" {
		t.Errorf(`pageURL(".") = %q, %v; want the file URL of ./index.html`, got, err)
	}
	if _, err := pageURL("no/such/file.html"); err == nil {
		t.Error("pageURL of a missing file gave no error")
	}
}
