package site

import (
	"bytes"
	"html/template"
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

// TestWritePageRandom holds writePage to its plain form, every card holder
// replaced by its card and then every link resolved (writeResolved), on
// pages and whole cards made at random of pieces of marks and holders,
// holders of cards the page has not included.
func TestWritePageRandom(t *testing.T) {
	pieces := []string{`="~/`, `=`, `"`, `~`, `/`, `~/`, `="`, `a`, "\x00", holderMark, string(cardHolder(0)), string(cardHolder(1)),
		string(cardHolder(2)), string(cardHolder(12)), holderMark + "1", holderMark + "x\x00", "\x00\x00"}
	r := rand.New(rand.NewPCG(5, 6))
	holders := 0
	for range 20000 {
		cards := make([]*keptCard, r.IntN(3))
		for i := range cards {
			html := "<" + repotest.Pieces(r, pieces[:8], r.IntN(8)) + ">" // whole, see pageCards
			cards[i] = newKeptCard([]byte(html), html)
		}
		in := repotest.Pieces(r, pieces, r.IntN(16))
		var pairs []string
		for i, k := range cards {
			if strings.Contains(in, string(cardHolder(i))) {
				holders++
			}
			pairs = append(pairs, string(cardHolder(i)), string(k.html))
		}
		plain := strings.NewReplacer(pairs...).Replace(in) // from the left, as a page reads
		var want, got bytes.Buffer
		if err := writeResolved(&want, []byte(plain), "../"); err != nil {
			t.Fatal(err)
		}
		if err := writePage(&got, []byte(in), "../", cards); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			var htmls []template.HTML
			for _, k := range cards {
				htmls = append(htmls, k.html)
			}
			t.Fatalf("page %q with cards %q: wrote %q, want %q", in, htmls, got.String(), want.String())
		}
	}
	if holders < 1000 {
		t.Errorf("only %d holders of cards the pages had", holders)
	}
}

// TestPageCards: a page gets card holders only when every card is whole,
// and its cards' HTML otherwise.
func TestPageCards(t *testing.T) {
	s := &Site{holders: []template.HTML{cardHolder(0), cardHolder(1)}}
	whole, part := newKeptCard([]byte(`<a href="~/x">`), `<a href="~/x">`), newKeptCard([]byte(`"~/x">`), `"~/x">`)
	if got, ks := s.pageCards([]*keptCard{whole, whole}); len(ks) != 2 || got[1] != cardHolder(1) {
		t.Errorf("whole cards: %q, %d kept", got, len(ks))
	}
	for _, cs := range [][]*keptCard{{whole, part}, {whole, whole, whole}} {
		if got, ks := s.pageCards(cs); ks != nil || len(got) != len(cs) || got[0] != whole.html {
			t.Errorf("%d cards, one not whole or more than holders: %q, %d kept", len(cs), got, len(ks))
		}
	}
}

func TestTwin(t *testing.T) {
	if got := urls.Twin("en/cases/IL-1/", "en"); got != "ko/cases/IL-1/" {
		t.Errorf("got %q", got)
	}
	if got := urls.Twin("ko/", "ko"); got != "en/" {
		t.Errorf("got %q", got)
	}
}

// resolveLinks is writeResolved into memory.
func resolveLinks(html []byte, path string) []byte {
	var b bytes.Buffer
	writeResolved(&b, html, upToRoot(path))
	return b.Bytes()
}
