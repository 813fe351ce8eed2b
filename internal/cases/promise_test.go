package cases

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMissingKeyIsMissingTranslation: a deleted "ko" (or "en") key and an
// empty one are the same missing translation, with the same message in
// the file:line:col: field: message format.
func TestMissingKeyIsMissingTranslation(t *testing.T) {
	b, err := os.ReadFile("../../content/cases/IL-0495.json")
	if err != nil {
		t.Fatal(err)
	}
	const ko = `,"ko":"헬스 체크가 잘못 타임아웃되지 않도록 헬스 체크 설정을 바꾼다."`
	if !strings.Contains(string(b), ko) {
		t.Fatal("IL-0495 changed: update the test")
	}
	msg := func(src string) string {
		m := fixture(t)
		m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(src)}
		_, list := Load(m)
		if list.Errors() != 0 || list.Warnings() != 1 {
			t.Fatalf("want 1 warning and no error, got %+v", list.Items)
		}
		d := list.Items[0]
		if d.File != "cases/IL-0495.json" || d.Line < 1 || d.Col < 1 {
			t.Errorf("no position: %s", d)
		}
		return d.Field + ": " + d.Msg
	}
	empty := msg(strings.Replace(string(b), ko, `,"ko":""`, 1))
	deleted := msg(strings.Replace(string(b), ko, ``, 1))
	if empty != deleted || !strings.HasPrefix(empty, "action_items[0].text.ko: Korean translation missing") {
		t.Errorf("empty: %s\ndeleted: %s", empty, deleted)
	}
	const en = `{"en":"Change the health check configuration so health checks do not time out falsely"`
	if !strings.Contains(string(b), en+ko+"}") {
		t.Fatal("IL-0495's first action item changed: update the test")
	}
	if got := msg(strings.Replace(string(b), en+",", `{`, 1)); !strings.HasPrefix(got, "action_items[0].text.en: English translation missing") {
		t.Errorf("deleted en: %s", got)
	}
	// Both left out is no text at all: an error.
	m := fixture(t)
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(b), en+ko+"}", `{}`, 1))}
	if _, list := Load(m); list.Errors() == 0 || !strings.Contains(list.Items[0].String(), "action_items[0].text: expected at least 1 of en, ko") {
		t.Errorf("an empty text object: %+v", list.Items)
	}
}

// TestSourcesPromise: a case without a source and a plain http source are
// warnings (check -strict fails on them), at the field.
func TestSourcesPromise(t *testing.T) {
	b, err := os.ReadFile("../../content/cases/IL-0495.json")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	i := strings.Index(src, `"sources":[`)
	j := strings.Index(src[i:], `}]`)
	if i < 0 || j < 0 {
		t.Fatal("IL-0495 has no sources list: update the test")
	}
	none := src[:i] + `"sources":[]` + src[i+j+2:]
	plain := strings.Replace(src, `"url":"https://`, `"url":"http://`, 1)
	for _, tt := range []struct{ name, src, field, msg string }{
		{"no source", none, "sources", "no source"},
		{"http", plain, "sources[0].url", "is plain http"},
	} {
		m := fixture(t)
		m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(tt.src)}
		_, list := Load(m)
		if list.Errors() != 0 || list.Warnings() != 1 || list.Items[0].Field != tt.field || !strings.Contains(list.Items[0].Msg, tt.msg) {
			t.Errorf("%s: %+v", tt.name, list.Items)
		}
	}
}
