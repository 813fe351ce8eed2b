package cases

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// edited returns the shipped content with IL-0495 changed by the
// replacements (old, new, old, new, …), each of which must apply.
func edited(t *testing.T, repl ...string) fstest.MapFS {
	t.Helper()
	m := contentFS(t)
	src := string(m["cases/IL-0495.json"].Data)
	for i := 0; i < len(repl); i += 2 {
		if !strings.Contains(src, repl[i]) {
			t.Fatalf("IL-0495 no longer holds %s: update the test", repl[i])
		}
		src = strings.Replace(src, repl[i], repl[i+1], 1)
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(src)}
	return m
}

// has fails the test unless the report holds a problem of file whose
// text holds want, with a position when positioned is true.
func has(t *testing.T, list diag.List, file, want string, warning, positioned bool) {
	t.Helper()
	for _, d := range list.Items {
		if d.File == file && strings.Contains(d.String(), want) && d.Warning == warning && (!positioned || d.Line > 0) {
			return
		}
	}
	var all []string
	for _, d := range list.Items {
		all = append(all, d.String())
	}
	t.Errorf("no %s of %s with %q (positioned %v):\n%s", map[bool]string{true: "warning", false: "error"}[warning], file, want, positioned, strings.Join(all, "\n"))
}

// TestCheckPromisesBuild: what build cannot do, check refuses first, with
// positions; nothing in the content folder is left out without a word.
func TestCheckPromisesBuild(t *testing.T) {
	defer func(c func() time.Time) { clock = c }(clock)
	clock = func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }
	long := strings.Repeat("a", 300)

	_, list := Load(edited(t, `"org_slug":"hubspot"`, `"org_slug":"`+long+`"`))
	has(t, list, "cases/IL-0495.json", "org_slug: 300 characters long: at most 100 may be", false, true)

	m := contentFS(t)
	m["vocab.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(m["vocab.json"].Data), `"id": "`, `"id": "`+long, 1))}
	_, list = Load(m)
	has(t, list, "vocab.json", "root_cause[0].id: 312 characters long: at most 100 may be", false, true)

	_, list = Load(edited(t, `"date":"2024-08-27"`, `"date":"0000-01-01"`))
	has(t, list, "cases/IL-0495.json", `date: "0000-01-01": years start at 0001`, false, true)
	_, list = Load(edited(t, `"date":"2024-08-27"`, `"date":"2026-12-03"`, `"reviewed_at":null`, `"reviewed_at":"2027-01-01"`))
	if list.Errors() > 0 {
		t.Errorf("a date in the future is an error: %v", list.Err())
	}
	has(t, list, "cases/IL-0495.json", `date: "2026-12-03" is in the future (today is 2026-12-02 in the latest time zone)`, true, true)
	has(t, list, "cases/IL-0495.json", `review.reviewed_at: "2027-01-01" is in the future`, true, true)
	for _, now := range []string{"2026-12", "2026-12-02", "2026"} { // 2026-12-02 has begun in UTC+14
		_, list = Load(edited(t, `"date":"2024-08-27"`, `"date":"`+now+`"`))
		if len(list.Items) > 0 {
			t.Errorf("%s is not in the future: %v", now, list.Items)
		}
	}

	_, list = Load(edited(t, `"detected_after":null`, `"detected_after":"1h"`, `"detected_at":"2024-08-27T14:20Z"`, `"detected_at":null`))
	has(t, list, "cases/IL-0495.json", "timeline.detected_after: detected after 1h but resolved after 56m", false, true)
	_, list = Load(edited(t, `"detected_after":null`, `"detected_after":"56m"`, `"detected_at":"2024-08-27T14:20Z"`, `"detected_at":null`))
	if len(list.Items) > 0 {
		t.Errorf("detected when resolved: %v", list.Items)
	}

	_, list = Load(edited(t, `"title":{"en":"HubSpot's internal load balancers on Kubernetes were falsely marked unhealthy and the rest collapsed under the traffic"`, `"title":{"en":"\u200b"`,
		`"ko":"쿠버네티스에서 도는 내부 로드 밸런서 일부가 헬스 체크 실패로 한꺼번에 내려가고 남은 인스턴스가 연결 폭증으로 무너졌다"`, `"ko":"\u200b\u3164\ufeff "`,
		`"org":"HubSpot"`, `"org":"\u200d"`))
	has(t, list, "cases/IL-0495.json", "title: text is empty in both languages", false, true)
	has(t, list, "cases/IL-0495.json", "org: must not be empty", false, true)

	m = contentFS(t)
	for _, name := range []string{"cases/.IL-0001.json", "pages/.draft.en.md", "topics/.old/x.en.md", "topics/components/.ingress.en.md", "case/IL-0002.json", "topic/x.md", "extra.json", ".hidden", ".git/HEAD"} {
		m[name] = &fstest.MapFile{Data: []byte("{}")}
	}
	_, list = Load(m)
	for _, name := range []string{"cases/.IL-0001.json", "pages/.draft.en.md", "topics/.old", "topics/components/.ingress.en.md"} {
		has(t, list, name, "not read: the name starts with a dot", true, false)
	}
	for _, name := range []string{"case", "topic", "extra.json", ".hidden"} {
		has(t, list, name, "not read: the content folder holds site.json, vocab.json, cases/, pages/ and topics/", true, false)
	}
	has(t, list, "case", `(did you mean "cases"?)`, true, false)
	for _, d := range list.Items {
		if strings.HasPrefix(d.File, ".git") || d.File == "topics/.old/x.en.md" {
			t.Errorf("reported: %s", d)
		}
	}
}

// TestCROnlyPositions: in a file whose lines end with a carriage return
// alone, positions count its lines.
func TestCROnlyPositions(t *testing.T) {
	doc := jsonpos.Parse("{\r\"a\": 1,\r\"b\": x\r}")
	if len(doc.Problems) == 0 {
		t.Fatal("no problem found")
	}
	if line, col := doc.Pos(doc.Problems[0].Off); line != 3 || col != 6 {
		t.Errorf("position %d:%d, want 3:6", line, col)
	}
	d := diag.Diag{File: "f", Line: 3, Col: 6, Msg: "x"}
	if ex := d.Excerpt("{\r\"a\": 1,\r\"b\": x\r}"); !strings.HasPrefix(ex, "\"b\": x\n     ^") {
		t.Errorf("excerpt %q", ex)
	}
	if line, _ := jsonpos.Parse("{\r\n\"b\": x\r\n}").Pos(8); line != 2 {
		t.Errorf("CRLF: line %d, want 2", line)
	}
}
