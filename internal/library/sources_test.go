package library

import "testing"

func TestNormalizeSource(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://example.com/post", "https://example.com/post"},
		{"http://example.com/post", "https://example.com/post"},
		{"https://EXAMPLE.com/post", "https://example.com/post"},
		{"https://www.example.com/post", "https://example.com/post"},
		{"https://example.com/post/", "https://example.com/post"},
		{"https://example.com/", "https://example.com"},
		{"https://example.com:443/post", "https://example.com/post"},
		{"https://example.com:8443/post", "https://example.com:8443/post"},
		{"https://example.com/post#section", "https://example.com/post"},
		{"https://example.com/post?utm_source=x&utm_medium=y", "https://example.com/post"},
		{"https://example.com/post?fbclid=1&id=7&gclid=2", "https://example.com/post?id=7"},
		{"https://example.com/post?b=2&a=1", "https://example.com/post?a=1&b=2"},
		{"https://example.com/Post", "https://example.com/Post"}, // a path keeps its case
		{"https://www.youtube.com/watch?v=QKI-JRs2RIE", "https://youtube.com/watch?v=QKI-JRs2RIE"},
		{"  https://example.com/post  ", "https://example.com/post"},
		{"not a url", "not a url"},
	} {
		if got := NormalizeSource(tt.in); got != tt.want {
			t.Errorf("NormalizeSource(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
