package l10n

import (
	"strings"
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{Date("en", 2024, time.August, 27), "27 August 2024"},
		{Date("ko", 2024, time.August, 27), "2024년 8월 27일"},
		{month("ko", 2018, time.July), "2018년 7월"},
		{Date("en", 2019, 0, 0), "2019"},
		{Date("ko", 2019, 0, 0), "2019년"},
		{Date("en", 2019, time.April, 0), "April 2019"},
		{Date("ko", 2019, time.April, 0), "2019년 4월"},
		{Duration("en", 56), "56m"},
		{Duration("ko", 56), "56분"},
		{Duration("en", 70), "1h 10m"},
		{Duration("ko", 70), "1시간 10분"},
		{Duration("ko", 120), "2시간"},
		{Duration("en", 1440*2+180), "2d 3h"},
		{Duration("en", 0), "0m"},
		{Cases("en", 1), "1 case"},
		{Cases("en", 4), "4 cases"},
		{Cases("ko", 4), "사례 4건"},
		{Cases("en", 12345), "12,345 cases"},
		{Range("en", 1, 4, 4), "1–4 of 4"},
		{Range("ko", 1, 4, 4), "4건 중 1~4번째"},
		{Range("ko", 11, 20, 1200), "1,200건 중 11~20번째"},
		{Number(1000000), "1,000,000"},
		{Number(-1234), "-1,234"},
		{Number(999), "999"},
		{PageNumber("ko", 2, 5), "5쪽 중 2쪽"},
		{List("en", []string{"a", "b", "c"}), "a, b and c"},
		{List("ko", []string{"가", "나"}), "가, 나"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestParseStrings(t *testing.T) {
	s, err := ParseStrings([]byte(`{"a": {"en": "A", "ko": "가"}}`))
	if err != nil || s.Get("ko", "a") != "가" || s.Get("en", "b") != "[b]" {
		t.Fatalf("got %v %v", s, err)
	}
	_, err = ParseStrings([]byte(`{"a": {"en": "A"}, "b": {"ko": "나", "en": " "}, "c": {"en": "C", "ko": "다", "fr": "C"}}`))
	if err == nil {
		t.Fatal("missing translations accepted")
	}
	for _, want := range []string{`"a" has no ko text`, `"b" has no en text`, `"c" has text for unknown language "fr"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %s", err, want)
		}
	}
}

// TestIntoScript: the "js." keys, and only they, go over the one marker,
// without their prefix; a script without the marker, or with two, is an
// error rather than a page without words.
func TestIntoScript(t *testing.T) {
	s := Strings{
		"js.more":  {"en": "Show more", "ko": "더 보기"},
		"mcp.note": {"en": "Note", "ko": "참고"},
	}
	got, err := s.IntoScript([]byte("var W = /*catalogue*/null; go(W);"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `var W = {"en":{"more":"Show more"},"ko":{"more":"더 보기"}}; go(W);`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, script := range []string{"var W = null;", "/*catalogue*/null /*catalogue*/null"} {
		if _, err := s.IntoScript([]byte(script)); err == nil {
			t.Errorf("%q: no error", script)
		}
	}
}

// TestPrefixed: one part of the catalogue, keyed without its prefix.
func TestPrefixed(t *testing.T) {
	s := Strings{"mcp.a": {"en": "A"}, "mcpx": {"en": "X"}, "b": {"en": "B"}}
	p := s.Prefixed("mcp.")
	if len(p) != 1 || p["a"]["en"] != "A" {
		t.Errorf("Prefixed = %v", p)
	}
}
