package site

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"testing/fstest"
)

// TestAppendFeed holds appendFeed to what encoding/xml writes: on every
// feed of the library, with a case whose title, summary and organisation
// hold every character XML escapes or cannot hold, and on feeds made of
// such text alone.
func TestAppendFeed(t *testing.T) {
	const hostile = `<b>"it's" & 'more'</b>` + "\t\r\x01\x1f é 한국어 \u2028 \uFFFD \uFFFE \U0001F600 \xff\xc3("
	m := contentFS(t)
	b := string(m["cases/IL-0495.json"].Data)
	for _, field := range []string{`"en":"HubSpot's internal load balancers on Kubernetes`, `"en":"HubSpot concluded`, `"ko":"HubSpot`} {
		if !strings.Contains(b, field) {
			t.Fatalf("IL-0495 no longer has %s", field)
		}
		// The loader refuses control characters other than tabs and line
		// breaks; the rest goes in.
		esc := strings.NewReplacer(`"`, `\"`, "\t", `\t`, "\r", "", "\x01", "", "\x1f", "", "\xff", "", "\xc3(", "").Replace(hostile) + `\n`
		b = strings.Replace(b, field, field[:6]+esc+" "+field[6:], 1)
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(b)}
	s := newSite(t, loadContent(t, m), false)
	f := feeds{s}
	n, cached := 0, 0
	for _, j := range s.Jobs() {
		var a *atomFeed
		switch j.Kind {
		case KindFeed:
			a = f.mainAtom(j)
		case KindTopicFeed:
			a = f.topicAtom(j)
		case KindChanges:
			a = f.changesAtom(j)
		default:
			continue
		}
		n++
		if len(a.cached) > 0 {
			// Compare the cached entries with encoding/xml's of them.
			cached++
			b := *a
			b.cached, b.listed = nil, nil
			for _, c := range a.listed {
				b.Entries = append(b.Entries, f.feedEntry(c, j.Lang, c.UpdatedAt))
			}
			compareFeed(t, j.Path, &b)
			if got, want := appendFeed(nil, a), appendFeed(nil, &b); !bytes.Equal(got, want) {
				t.Errorf("%s: the cached entries differ from the entries", j.Path)
			}
			continue
		}
		compareFeed(t, j.Path, a)
	}
	if n < 4 || cached == 0 || cached == n {
		t.Fatalf("%d feeds, %d of cached entries: want feeds of both kinds", n, cached)
	}
	// Text that no case can hold (invalid UTF-8, control characters) in
	// every field, and the fields left empty.
	e := atomEntry{Title: atomText{Type: "text", Lang: hostile, Body: hostile}, ID: hostile, Updated: hostile,
		Links:   []atomLink{{Href: hostile}, {Href: hostile, Rel: hostile, Type: hostile, Lang: hostile}},
		Summary: atomText{Body: hostile}, Author: &atomAuth{Name: hostile}, Category: []atomCat{{Term: hostile}, {Term: hostile, Label: hostile}}}
	compareFeed(t, "hostile", &atomFeed{Lang: hostile, Title: hostile, ID: hostile, Updated: hostile, Links: e.Links, Author: atomAuth{Name: hostile}, Entries: []atomEntry{e, {}}})
	compareFeed(t, "empty", &atomFeed{})
}

func compareFeed(t *testing.T, name string, f *atomFeed) {
	t.Helper()
	var want bytes.Buffer
	want.WriteString(xml.Header)
	enc := xml.NewEncoder(&want)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got := appendFeed(nil, f); !bytes.Equal(got, want.Bytes()) {
		i := 0
		for i < len(got) && i < len(want.Bytes()) && got[i] == want.Bytes()[i] {
			i++
		}
		t.Errorf("%s: appendFeed differs from encoding/xml at byte %d:\n got %q\nwant %q", name, i, got[max(0, i-60):min(len(got), i+60)], want.Bytes()[max(0, i-60):min(want.Len(), i+60)])
	}
}
