package site

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

func TestLinks(t *testing.T) {
	tests := []struct {
		from, to string
		offline  bool
		want     string
	}{
		{"en/cases/IL-0495/", "en/cases/IL-0338/", false, "../../../en/cases/IL-0338/"},
		{"en/cases/IL-0495/", "en/cases/IL-0338/", true, "../../../en/cases/IL-0338/index.html"},
		{"en/", "en/cases/", false, "../en/cases/"},
		{"", "en/", false, "./en/"},
		{"", "", false, "./"},
		{"", "", true, "./index.html"},
		{"en/", "", true, "../index.html"},
		{"en/cases/page/2/", "en/cases/", false, "../../../../en/cases/"},
		{"en/feed.xml", "en/cases/X/", false, "../en/cases/X/"},
		{"404.html", "en/", false, "./en/"},
		{"en/cases/IL-0495/", "assets/site.abc.css", true, "../../../assets/site.abc.css"},
	}
	for _, tt := range tests {
		html := []byte(`<a href="` + markedLink(tt.to, tt.offline) + `">`)
		got := string(resolveLinks(html, tt.from))
		if want := `<a href="` + tt.want + `">`; got != want {
			t.Errorf("link from %q to %q (offline %v) = %s, want %s", tt.from, tt.to, tt.offline, got, want)
		}
	}
	// The mark in text or in a foreign URL is left alone.
	in := `<p>x="~/y</p><a href="https://h.example/~/z">`
	if got := string(resolveLinks([]byte(`<p>x=&#34;~/y</p><a href="https://h.example/~/z">`), "en/")); got != `<p>x=&#34;~/y</p><a href="https://h.example/~/z">` {
		t.Errorf("resolveLinks changed %q into %q", in, got)
	}
}

// TestWriteResolvedRandom holds writeResolved to a plain replacement of
// every marked attribute value, on pages made at random of the pieces that
// could confuse a search for the mark.
func TestWriteResolvedRandom(t *testing.T) {
	pieces := []string{`="~/`, `=`, `"`, `~`, `/`, `~/`, `="`, `a`, `==""~~//`, `<a href="`, `x`}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		in := repotest.Pieces(r, pieces, r.IntN(16))
		want := strings.ReplaceAll(in, `="~/`, `="../../`)
		if got := string(resolveLinks([]byte(in), "a/b/")); got != want {
			t.Fatalf("resolved %q into %q, want %q", in, got, want)
		}
	}
}

func TestOtherLanguage(t *testing.T) {
	if got := urls.OtherLanguage("en/cases/IL-1/", "en"); got != "ko/cases/IL-1/" {
		t.Errorf("got %q", got)
	}
	if got := urls.OtherLanguage("ko/", "ko"); got != "en/" {
		t.Errorf("got %q", got)
	}
}

// resolveLinks is writeResolved into memory.
func resolveLinks(html []byte, path string) []byte {
	var b bytes.Buffer
	writeResolved(&b, html, upToRoot(path))
	return b.Bytes()
}

// TestKindNames: every kind of job has a name of its own, so that a
// build's summary never counts two kinds under one name.
func TestKindNames(t *testing.T) {
	seen := map[string]Kind{}
	for k := KindCase; k <= KindTwin; k++ {
		name := k.String()
		if name == "" || strings.HasPrefix(name, "kind ") {
			t.Errorf("kind %d has no name", k)
		}
		if o, ok := seen[name]; ok {
			t.Errorf("kinds %d and %d are both %q", o, k, name)
		}
		seen[name] = k
	}
	if KindTwin.String() != "Markdown twin" || KindCase.String() != "case page" {
		t.Errorf("KindTwin %q, KindCase %q", KindTwin, KindCase)
	}
}
