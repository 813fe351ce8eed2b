package urls

import (
	"slices"
	"testing"
)

func TestPaths(t *testing.T) {
	tests := []struct{ got, want string }{
		{Home("ko"), "ko/"},
		{Case("en", "IL-0495"), "en/cases/IL-0495/"},
		{Markdown("ko", "IL-0495"), "ko/cases/IL-0495/index.md"},
		{Cases("en", 1), "en/cases/"},
		{Cases("en", 3), "en/cases/page/3/"},
		{FacetIndex("ko", "root-causes"), "ko/root-causes/"},
		{Topic("ko", "components", "dns", 1), "ko/components/dns/"},
		{Topic("ko", "components", "dns", 2), "ko/components/dns/page/2/"},
		{Search("en"), "en/search/"},
		{Prose("en", "about"), "en/about/"},
		{APIDoc("ko"), "ko/api/"},
		{Feed("en"), "en/feed.xml"},
		{SitemapPart(2), "sitemap-2.xml"},
		{Asset("site", "1a2b3c4d5e", ".css"), "assets/site.1a2b3c4d5e.css"},
		{SearchFile("meta.json"), "search/meta.json"},
		{APICases, "api/v1/cases.json"},
		{APICase("IL-0495"), "api/v1/cases/IL-0495.json"},
		{APISimilar("IL-0495"), "api/v1/cases/IL-0495/similar.json"},
		{APITopic("components", "dns"), "api/v1/topics/components/dns.json"},
		{APISchema, "api/v1/schema/case.json"},
		{OtherLanguage("en/cases/IL-0495/", "en"), "ko/cases/IL-0495/"},
		{OtherLanguage("ko/", "ko"), "en/"},
		{OtherLanguage("sitemap.xml", "en"), "sitemap.xml"},
		{OtherLanguage("english/", "en"), "english/"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestNotFoundFor(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"ko/cases/IL-9999/", []string{"ko/cases/IL-9999/404.html", "ko/cases/404.html", "ko/404.html", "404.html"}},
		{"en/nothing.html", []string{"en/404.html", "404.html"}},
		{"missing.html", []string{"404.html"}},
		{"", []string{"404.html"}},
	} {
		if got := NotFoundFor(tt.path); !slices.Equal(got, tt.want) {
			t.Errorf("NotFoundFor(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if got, want := NotFoundIn("ko"), "ko/404.html"; got != want || !slices.Contains(NotFoundFor("ko/x/y"), got) {
		t.Errorf("NotFoundIn(ko) = %q, want %q, found by NotFoundFor", got, want)
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		params []Param
		want   string
	}{
		{nil, ""},
		{[]Param{{"components", []string{"ingress", "cni"}}, {"ingress-nginx", []string{"1.11.2"}}}, "?components=ingress,cni&ingress-nginx=1.11.2"},
		{[]Param{{"components", nil}, {"root-causes", []string{"misconfiguration"}}}, "?root-causes=misconfiguration"},
		{[]Param{{"q", []string{"a b&c"}}}, "?q=a+b%26c"},
	} {
		if got := Query(tc.params...); got != tc.want {
			t.Errorf("Query(%v) = %q, want %q", tc.params, got, tc.want)
		}
	}
}
