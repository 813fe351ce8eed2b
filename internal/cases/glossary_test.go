package cases

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

var testGlossary = NewGlossary([]GlossaryTerm{
	{En: "Secret (Kubernetes kind)", Ko: "시크릿", Avoid: []string{"Secret"}},
	{En: "Ingress", Ko: "인그레스", Avoid: []string{"Ingress"}, Allow: []string{"GKE Ingress", "Ingress-NGINX"}},
	{En: "eviction", Ko: "축출", Avoid: []string{"내쫓"}, Note: "파드 축출"},
	{En: "incident log", Ko: "장애 기록", Avoid: []string{"장애 로그"}},
})

// TestGlossaryFind: an avoided form is found in Korean text as a word (a
// Latin one at word boundaries, a Korean one anywhere), never in inline code
// or inside a phrase its term allows.
func TestGlossaryFind(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string // the forms found, in order
	}{
		{"Secret을 지웠다", []string{"Secret"}},
		{"시크릿(Secret)을 지웠고 Secret을", []string{"Secret"}}, // a gloss on first use, then the English again
		{"비밀(Secret)", []string{"Secret"}},
		{"시크릿을 지웠다", nil},
		{"`kind: Secret`을 지웠다", nil},
		{"Secrets Manager와 TopSecret", nil},
		{"GKE Ingress가 502를 냈고 Ingress 객체도 바뀌었다", []string{"Ingress"}},
		{"Ingress-NGINX 컨트롤러", nil},
		{"파드를 내쫓았다, 또 내쫓고", []string{"내쫓", "내쫓"}},
		{"장애 로그에 없다", []string{"장애 로그"}},
		{"`Ingress` 와 Secret", []string{"Secret"}},
		{"", nil},
	} {
		var got []string
		for _, h := range testGlossary.Find(tt.in) {
			if tt.in[h.Off:h.Off+len(h.Form)] != h.Form {
				t.Errorf("%q: hit at %d is not %q", tt.in, h.Off, h.Form)
			}
			got = append(got, h.Form)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Find(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGlossaryCheck: an avoided form in a Korean text of the content is a
// warning at its position, naming the form to write; the same words in
// English fields, or the preferred form, pass; check -strict fails on the
// warning, as on any.
func TestGlossaryCheck(t *testing.T) {
	m := contentFS(t)
	m[GlossaryFile] = &fstest.MapFile{Data: []byte(`{"terms": [
  {"en": "eviction", "ko": "축출", "avoid": ["내쫓"], "note": "파드 축출 (Kubernetes docs)"},
  {"en": "Secret (Kubernetes kind)", "ko": "시크릿", "avoid": ["Secret"]}
]}`)}
	edit(t, m, "cases/IL-0495.json", func(c map[string]any) {
		c["trigger"] = map[string]any{"en": "The Secret was rotated and pods were evicted.", "ko": "시크릿을 바꾸자 Secret을 읽던 파드를 내쫓았다."}
	})
	m["pages/about.ko.md"] = &fstest.MapFile{Data: []byte("# 소개\n\n노드에서 파드를 내쫓는다.\n")}
	_, list := Load(m)
	has(t, list, "cases/IL-0495.json", `trigger.ko: glossary: write "시크릿", not "Secret" (Secret (Kubernetes kind))`, true, true)
	has(t, list, "cases/IL-0495.json", `trigger.ko: glossary: write "축출", not "내쫓" (eviction; 파드 축출 (Kubernetes docs))`, true, true)
	has(t, list, "pages/about.ko.md", `glossary: write "축출", not "내쫓"`, true, true)
	for _, d := range list.Items {
		if strings.Contains(d.String(), "glossary") && strings.Contains(d.Field, ".en") {
			t.Errorf("an English text held to the Korean glossary: %s", d)
		}
		if d.File == "pages/about.ko.md" && strings.Contains(d.String(), "glossary") && (d.Line != 3 || d.Col != 10) {
			t.Errorf("position %d:%d, want 3:10", d.Line, d.Col)
		}
	}

	m[GlossaryFile] = &fstest.MapFile{Data: []byte(`{"terms": [{"en": "eviction", "ko": "", "avoid": "내쫓"}]}`)}
	_, list = Load(m)
	has(t, list, GlossaryFile, "terms[0].ko", false, true)
	has(t, list, GlossaryFile, "terms[0].avoid", false, true)
}

// TestGlossarySynonyms: the other Hangul forms of each term a text writes,
// in either form, and none for a term written in Latin letters only or
// not written at all.
func TestGlossarySynonyms(t *testing.T) {
	g := NewGlossary([]GlossaryTerm{
		{En: "eviction", Ko: "축출", Avoid: []string{"내쫓", "퇴거"}},
		{En: "load balancer", Ko: "로드 밸런서", Avoid: []string{"로드밸런서", "부하 분산기"}},
		{En: "Secret", Ko: "시크릿", Avoid: []string{"Secret"}},
		{En: "alert", Ko: "알림", Avoid: []string{"경보"}},
	})
	for _, c := range []struct {
		texts []string
		want  []string
	}{
		{[]string{"파드를 축출했다"}, []string{"내쫓", "퇴거"}},
		{[]string{"워크로드를 내쫓았다"}, []string{"축출", "퇴거"}},
		{[]string{"로드 밸런서가 멈췄다", "파드가 축출됐다"}, []string{"내쫓", "퇴거", "로드밸런서", "부하 분산기"}},
		{[]string{"로드밸런서와 로드 밸런서"}, []string{"부하 분산기"}},
		{[]string{"Secret을 읽었다", "시크릿을 지웠다"}, nil},
		{[]string{"경보가 울렸다"}, []string{"알림"}},
		{[]string{"아무 용어도 없다"}, nil},
	} {
		if got := g.Synonyms(c.texts...); !slices.Equal(got, c.want) {
			t.Errorf("%q: synonyms %q, want %q", c.texts, got, c.want)
		}
	}
	if got := (*Glossary)(nil).Synonyms("축출"); got != nil {
		t.Errorf("no glossary: %q", got)
	}
}
