package site

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/urls"
)

// updatedAt finds a case file's updated_at, whatever time it holds.
var updatedAt = regexp.MustCompile(`"updated_at":"[^"]*"`)

// TestDateKind checks that a case dated by the post that told it says so on
// its page, on its card and in the lists of related cases, in both
// languages, and that the feed dates the entry by when the case was changed,
// never by the case's own date.
func TestDateKind(t *testing.T) {
	fsys := contentFS(t)
	const name = "cases/IL-0495.json"
	// The newest change, so that the case is among the feed's entries
	// however many cases the library holds.
	orig := updatedAt.ReplaceAllLiteralString(string(fsys[name].Data), `"updated_at":"2099-01-01T00:00:00Z"`)
	if !strings.Contains(orig, "2099-01-01") {
		t.Fatal("IL-0495's updated_at moved: update the test")
	}
	edited := strings.NewReplacer(`"date":"2024-08-27"`, `"date":"2019-07"`, `"date_kind":"incident"`, `"date_kind":"published"`).Replace(orig)
	if strings.Count(edited, "2019-07") != 1 || !strings.Contains(edited, `"date_kind":"published"`) {
		t.Fatal("IL-0495's date fields moved: update the test")
	}
	for _, tt := range []struct {
		kind string
		data string
		want map[string][]string // language → visible text the case page must hold
		card map[string]string   // language → text after the year on a card
	}{
		{"incident", orig,
			map[string][]string{"en": {"HubSpot · 2024-08-27", "Incident date 27 August 2024"}, "ko": {"HubSpot · 2024년 8월 27일", "발생일 2024년 8월 27일"}},
			map[string]string{"en": "27 August 2024", "ko": "2024년 8월 27일"}},
		{"published", edited,
			map[string][]string{"en": {"HubSpot · Published July 2019 ", "Published July 2019 Impact level"}, "ko": {"HubSpot · 공개일 2019년 7월 ", "공개일 2019년 7월 영향 수준"}},
			map[string]string{"en": "Published July 2019", "ko": "공개일 2019년 7월"}},
	} {
		m := fstest.MapFS{}
		for k, v := range fsys {
			m[k] = v
		}
		m[name] = &fstest.MapFile{Data: []byte(tt.data)}
		lib := loadContent(t, m)
		s := newSite(t, lib, false)
		c := lib.ByID["IL-0495"]
		for lang, wants := range tt.want {
			page := visible(render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}))
			for _, w := range wants {
				if !strings.Contains(page, w) {
					t.Errorf("%s, %s case page lacks %q", tt.kind, lang, w)
				}
			}
			if pub := "HubSpot · " + s.strings.Get(lang, "datekind.published"); tt.kind == "incident" && strings.Contains(page, pub) {
				t.Errorf("incident, %s case page calls its date a publication date: %q", lang, pub)
			}
			card, err := cards{s}.cardHTML(lang, c)
			if err != nil {
				t.Fatal(err)
			}
			got := visible(string(card))
			if !strings.Contains(got, "HubSpot · "+tt.card[lang]) {
				t.Errorf("%s, %s card: want %q after the organisation, got %q", tt.kind, lang, tt.card[lang], got)
			}
			if pub := s.strings.Get(lang, "datekind.published"); tt.kind == "incident" && strings.Contains(got, pub) {
				t.Errorf("incident, %s card says %q", lang, pub)
			}
			feed := render(t, s, Job{Kind: KindFeed, Lang: lang, Path: urls.Feed(lang)})
			if strings.Contains(feed, "<published>") || strings.Contains(feed, "2019-07-01") || strings.Contains(feed, "2024-08-27T") {
				t.Errorf("%s, %s feed dates an entry by the case's own date:\n%s", tt.kind, lang, feed)
			}
			if !strings.Contains(feed, "<updated>"+c.UpdatedAt.Format("2006-01-02T15:04:05Z07:00")+"</updated>") {
				t.Errorf("%s, %s feed lacks the entry's updated_at", tt.kind, lang)
			}
		}
	}
}
