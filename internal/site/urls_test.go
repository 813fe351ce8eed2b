package site

import "testing"

func TestRel(t *testing.T) {
	tests := []struct {
		from, to string
		offline  bool
		want     string
	}{
		{"en/cases/IL-0495/", "en/cases/IL-0338/", false, "../IL-0338/"},
		{"en/cases/IL-0495/", "en/cases/IL-0338/", true, "../IL-0338/index.html"},
		{"en/cases/IL-0495/", "ko/cases/IL-0495/", false, "../../../ko/cases/IL-0495/"},
		{"en/cases/IL-0495/", "en/cases/IL-0495/", false, "./"},
		{"en/cases/IL-0495/", "en/cases/IL-0495/", true, "index.html"},
		{"en/", "en/cases/", false, "cases/"},
		{"", "en/", false, "en/"},
		{"", "", false, "./"},
		{"", "", true, "index.html"},
		{"en/", "", true, "../index.html"},
		{"en/cases/page/2/", "en/cases/", false, "../../"},
		{"en/feed.xml", "en/cases/X/", false, "cases/X/"},
		{"en/cases/IL-0495/", "assets/site.abc.css", true, "../../../assets/site.abc.css"},
		{"404.html", "en/", false, "en/"},
	}
	for _, tt := range tests {
		if got := rel(tt.from, tt.to, tt.offline); got != tt.want {
			t.Errorf("rel(%q, %q, %v) = %q, want %q", tt.from, tt.to, tt.offline, got, tt.want)
		}
	}
}

func TestTwin(t *testing.T) {
	if got := twin("en/cases/IL-1/", "en"); got != "ko/cases/IL-1/" {
		t.Errorf("got %q", got)
	}
	if got := twin("ko/", "ko"); got != "en/" {
		t.Errorf("got %q", got)
	}
}
