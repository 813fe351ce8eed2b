package gencases

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"incidentlib/internal/cases"
	"incidentlib/internal/tokenize"
)

func TestJosa(t *testing.T) {
	tests := []struct{ word, particle, want string }{
		{"서버", "을", "서버를"},
		{"서버", "를", "서버를"},
		{"로드 밸런서", "이", "로드 밸런서가"},
		{"인증서", "은", "인증서는"},
		{"캐시", "가", "캐시가"},
		{"정책", "를", "정책을"},
		{"컨트롤 플레인", "가", "컨트롤 플레인이"},
		{"파드", "과", "파드와"},
		{"설정 변경", "와", "설정 변경과"},
		{"노드", "으로", "노드로"},
		{"네트워크 분할", "으로", "네트워크 분할로"}, // ㄹ takes 로
		{"설정 변경", "로", "설정 변경으로"},
		{"모바일", "은", "모바일은"}, // ㄹ is still a final consonant for 은
		{"레코드", "의", "레코드의"},
		{"리전", "에서", "리전에서"},
		{"3", "으로", "3으로"},   // 삼
		{"1", "으로", "1로"},    // 일
		{"502", "와", "502와"}, // 이
		{"100%", "이", "100%가"},
		{"GFE", "를", "GFE를"},                 // 이
		{"SERVFAIL", "을", "SERVFAIL을"},       // 엘
		{"`OOMKilled`", "이", "`OOMKilled`가"}, // 디, inside backquotes
		{"v1.12.1", "으로", "v1.12.1로"},
		{"(API)", "이", "(API)가"},
		{"", "을", "를"},
	}
	for _, tt := range tests {
		if got := josa(tt.word, tt.particle); got != tt.want {
			t.Errorf("Josa(%q, %q) = %q, want %q", tt.word, tt.particle, got, tt.want)
		}
	}
}

// TestTemplates fills every template with every particle position checked:
// an unknown slot stays in the text as "{…}", and a particle outside the
// known set would be attached unchanged, so both are reported here.
func TestTemplates(t *testing.T) {
	known := map[string]bool{"의": true, "에": true, "에서": true, "에는": true, "에서는": true, "보다": true, "'s": true}
	for p := range particlePairs {
		known[p] = true
	}
	slot := regexp.MustCompile(`\{([^}]*)\}`)
	s := &slots{}
	for _, name := range []string{"org", "comp", "comp2", "sym", "sym2", "rc", "x", "y", "team", "t1", "t2", "t3", "t4", "n", "pct", "date", "region", "dur",
		"lx", "lx2", "prod", "host", "pod", "ns", "bucket", "ver", "ver2", "ip", "code", "commit", "err"} {
		if _, ok := s.get(name); !ok {
			t.Fatalf("slot %s not served by slots.get", name)
		}
	}
	var all []pair
	for _, list := range [][]pair{titles, openings, spreads, recoveries, windows, symptomLines, detections, remediations, actionItems, lessons, fillers, details} {
		all = append(all, list...)
	}
	for _, rc := range rootCauses {
		all = append(all, pair{rc.triggerEn, rc.triggerKo})
	}
	for _, c := range contributings {
		all = append(all, pair{c.lessonEn, c.lessonKo})
	}
	for _, p := range all {
		for side, tpl := range []string{p.en, p.ko} {
			var b strings.Builder
			fill(&b, tpl, &slots{comp: w("cache", "캐시")}, side == 1)
			if strings.ContainsAny(b.String(), "{}") {
				t.Errorf("template %q: unknown slot left in %q", tpl, b.String())
			}
			for _, m := range slot.FindAllStringSubmatch(tpl, -1) {
				if _, particle, ok := strings.Cut(m[1], ":"); ok && !known[particle] {
					t.Errorf("template %q: unknown particle %q", tpl, particle)
				}
			}
		}
		if strings.ContainsFunc(p.en, func(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }) {
			t.Errorf("template %q: Hangul in the English side", p.en)
		}
	}
}

func TestDeterminism(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	a := MapFS(Options{N: n, Seed: 7, Workers: 1})
	b := MapFS(Options{N: n, Seed: 7, Workers: 4})
	if len(a) != len(b) {
		t.Fatalf("%d files with one worker, %d with four", len(a), len(b))
	}
	for name, f := range a {
		if g, ok := b[name]; !ok || !bytes.Equal(f.Data, g.Data) {
			t.Errorf("%s differs between runs", name)
		}
	}
	c := MapFS(Options{N: 300, Seed: 8})
	same := 0
	for name, f := range a {
		if strings.HasPrefix(name, "cases/") && bytes.Equal(f.Data, c[name].Data) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d cases identical under seeds 7 and 8", same)
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	opt := Options{N: 50, Seed: 3}
	if err := WriteDir(dir, opt); err != nil {
		t.Fatal(err)
	}
	m := MapFS(opt)
	for name, f := range m {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(data, f.Data) {
			t.Errorf("%s: on disk differs from MapFS (err %v)", name, err)
		}
	}
	if err := WriteDir(dir, opt); err == nil {
		t.Errorf("WriteDir into a non-empty folder succeeded")
	}
	if err := generate(Options{N: -1}, &mapWriter{fs: fstest.MapFS{}}); err == nil {
		t.Errorf("Generate with N = -1 succeeded")
	}
}

// caseKeys is every object key path of the case format, as in the seed
// cases; lessons.en and lessons.ko are absent when lessons is null.
var caseKeys = []string{
	"action_items", "action_items[].text", "action_items[].text.en", "action_items[].text.ko",
	"components", "contributing", "date", "date_kind", "detection", "detection.en", "detection.ko",
	"docs", "domain", "id", "impact", "impact.region", "impact.scope", "impact.users", "impact_level",
	"lessons", "lessons.en", "lessons.ko", "org", "org_slug", "recurrence_of", "related",
	"remediation", "remediation[].text", "remediation[].text.en", "remediation[].text.ko",
	"review", "review.reviewed_at", "review.reviewed_by", "review.written_by",
	"root_cause", "severity", "sources", "sources[].archived", "sources[].kind", "sources[].url",
	"summary", "summary.en", "summary.ko", "symptoms", "symptoms_text", "symptoms_text.en", "symptoms_text.ko",
	"timeline", "timeline.detected_after", "timeline.detected_at", "timeline.mitigated_after", "timeline.mitigated_at",
	"timeline.resolved_after", "timeline.resolved_at", "timeline.started_at", "title", "title.en", "title.ko",
	"trigger", "trigger.en", "trigger.ko", "updated_at", "url",
}

func keyPaths(v any, prefix string, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out[p] = true
			keyPaths(x, p, out)
		}
	case []any:
		for _, x := range v {
			keyPaths(x, prefix+"[]", out)
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	s := make([]string, 0, len(m))
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// TestSeedKeys checks caseKeys against the hand-written cases, when the
// repository has them, so that the format cannot drift from the real one.
func TestSeedKeys(t *testing.T) {
	files, _ := filepath.Glob("../../content/cases/*.json")
	if len(files) == 0 {
		t.Skip("no hand-written cases in content/cases")
	}
	union := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		keyPaths(v, "", union)
	}
	// The loader takes impact.scope and impact.users either as a plain
	// string or as {en, ko}; the generator writes the plain form, so the
	// two-language form counts as its parent key here.
	for _, k := range []string{"impact.scope", "impact.users"} {
		for _, lang := range []string{".en", ".ko"} {
			if union[k+lang] {
				delete(union, k+lang)
				union[k] = true
			}
		}
	}
	// An action item's kind and status and a case's affected list are
	// optional and written only where a source tells them (affected's
	// members differ with the kind of range), and withdrawn only on a
	// withdrawn case, so the generator leaves them out and they do not
	// count here.
	for k := range union {
		if k == "action_items[].kind" || k == "action_items[].status" || k == "affected" || strings.HasPrefix(k, "affected[]") || k == "withdrawn" || strings.HasPrefix(k, "withdrawn.") {
			delete(union, k)
		}
	}
	if got := sortedKeys(union); !slices.Equal(got, caseKeys) {
		t.Errorf("seed case keys differ from caseKeys:\nseed: %v\nwant: %v", got, caseKeys)
	}
}

type vocabTerm struct {
	ID          string            `json:"id"`
	En          string            `json:"en"`
	Ko          string            `json:"ko"`
	Description map[string]string `json:"description"`
}

// TestLibrary generates a library and checks every file the way the site's
// loader will: format, sizes, vocabulary, links between cases. 2,000
// cases, 500 with -short.
func TestLibrary(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 500
	}
	fsys := MapFS(Options{N: n, Seed: 1})

	var voc map[string][]vocabTerm
	if err := json.Unmarshal(fsys["vocab.json"].Data, &voc); err != nil {
		t.Fatalf("vocab.json: %v", err)
	}
	wantSizes := map[string][2]int{"root_cause": {15, 15}, "components": {38, 42}, "symptoms": {38, 42},
		"contributing": {25, 25}, "domain": {12, 12}, "impact_level": {5, 5}, "severity": {4, 4}}
	terms := map[string]map[string]bool{}
	for field, r := range wantSizes {
		if len(voc[field]) < r[0] || len(voc[field]) > r[1] {
			t.Errorf("vocab %s has %d terms, want %d to %d", field, len(voc[field]), r[0], r[1])
		}
		terms[field] = map[string]bool{}
		for _, term := range voc[field] {
			if terms[field][term.ID] {
				t.Errorf("vocab %s: duplicate id %s", field, term.ID)
			}
			terms[field][term.ID] = true
			if term.En == "" || term.Ko == "" || term.Description["en"] == "" || term.Description["ko"] == "" {
				t.Errorf("vocab %s/%s: empty label or description", field, term.ID)
			}
		}
	}
	if len(voc) != len(wantSizes) {
		t.Errorf("vocab.json has fields %v", voc)
	}
	var siteCfg map[string]any
	if err := json.Unmarshal(fsys["site.json"].Data, &siteCfg); err != nil {
		t.Errorf("site.json: %v", err)
	}
	for _, k := range []string{"title", "description", "base_url", "page_size", "callout", "mcp", "links"} {
		if _, ok := siteCfg[k]; !ok {
			t.Errorf("site.json lacks %s", k)
		}
	}
	facetField := map[string]string{}
	for _, f := range cases.ControlledFacets() {
		facetField[f.Name] = f.Field
	}
	for _, name := range []string{"pages/about.en.md", "pages/about.ko.md"} {
		if _, ok := fsys[name]; !ok {
			t.Errorf("%s missing", name)
		}
	}
	topics := 0
	for name := range fsys {
		if parts := strings.Split(name, "/"); parts[0] == "topics" {
			topics++
			term, lang, _ := strings.Cut(parts[2], ".")
			if !terms[facetField[parts[1]]][term] || (lang != "en.md" && lang != "ko.md") {
				t.Errorf("%s: not a vocabulary term's intro", name)
			}
		}
	}
	if topics == 0 {
		t.Errorf("no topic intros")
	}

	idRE := regexp.MustCompile(`^[A-Z]{2}-[0-9]{4,6}$`)
	durRE := regexp.MustCompile(`^([1-9][0-9]*h)?([1-9][0-9]?m)?$`)
	dateRE := regexp.MustCompile(`^20(1[4-9]|2[0-6])-[01][0-9]-[0-3][0-9]$`)
	var sizes []int
	type seen struct{ org, date string }
	byIndex := map[string]seen{}
	index := map[string]int{}
	for i := range n {
		index[CaseID(i, n)] = i
	}
	counts := map[string]map[string]int{}
	nullLessons := 0
	for i := range n {
		id := CaseID(i, n)
		name := "cases/" + id + ".json"
		f, ok := fsys[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		sizes = append(sizes, len(f.Data))
		if len(f.Data) < minSize || len(f.Data) > maxSize {
			t.Errorf("%s: %d bytes", name, len(f.Data))
		}
		var raw map[string]any
		if err := json.Unmarshal(f.Data, &raw); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		keys := map[string]bool{}
		keyPaths(raw, "", keys)
		// impact.scope and impact.users are texts in both languages, or
		// "unknown": caseKeys names them once, as the seed cases' union does.
		for _, k := range []string{"impact.scope.en", "impact.scope.ko", "impact.users.en", "impact.users.ko"} {
			delete(keys, k)
		}
		want := slices.Clone(caseKeys)
		if raw["lessons"] == nil {
			nullLessons++
			want = slices.DeleteFunc(want, func(k string) bool { return strings.HasPrefix(k, "lessons.") })
		}
		if got := sortedKeys(keys); !slices.Equal(got, want) {
			t.Errorf("%s: keys %v, want %v", name, got, want)
		}
		var c caseJSON
		if err := json.Unmarshal(f.Data, &c); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		errorf := func(format string, args ...any) { t.Errorf(name+": "+format, args...) }
		if c.ID != id || !idRE.MatchString(c.ID) {
			errorf("id %q", c.ID)
		}
		if !dateRE.MatchString(c.Date) || c.DateKind != "incident" {
			errorf("date %q %q", c.Date, c.DateKind)
		}
		if c.URL != "https://benchlet.com/incidentlib/app/cases/"+id || !strings.HasPrefix(c.UpdatedAt, "2026-11-") || !strings.HasSuffix(c.UpdatedAt, "Z") {
			errorf("url %q updated_at %q", c.URL, c.UpdatedAt)
		}
		check := func(field string, ids []string, lo, hi int) {
			if len(ids) < lo || len(ids) > hi {
				errorf("%s has %d terms", field, len(ids))
			}
			if counts[field] == nil {
				counts[field] = map[string]int{}
			}
			for _, x := range ids {
				if !terms[field][x] {
					errorf("%s: unknown term %q", field, x)
				}
				counts[field][x]++
			}
			if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
				errorf("%s repeats a term: %v", field, ids)
			}
		}
		check("symptoms", c.Symptoms, 1, 4)
		check("components", c.Components, 1, 4)
		check("root_cause", []string{c.RootCause}, 1, 1)
		check("contributing", c.Contributing, 0, 3)
		check("domain", c.Domain, 1, 3)
		if c.Severity != "unknown" && !terms["severity"][c.Severity] {
			errorf("severity %q", c.Severity)
		}
		if len(c.Remediation) < 1 || len(c.Remediation) > 4 || len(c.ActionItems) < 2 || len(c.ActionItems) > 10 {
			errorf("%d remediation, %d action items", len(c.Remediation), len(c.ActionItems))
		}
		for _, d := range []*string{c.Timeline.DetectedAfter, c.Timeline.ResolvedAfter} {
			if d != nil && (*d == "" || !durRE.MatchString(*d)) {
				errorf("duration %q", *d)
			}
		}
		texts := []textJSON{c.Title, c.Summary, c.SymptomsText, c.Trigger, c.Detection}
		if c.Lessons != nil {
			texts = append(texts, *c.Lessons)
		}
		for _, it := range append(slices.Clone(c.Remediation), c.ActionItems...) {
			texts = append(texts, it.Text)
		}
		for _, tx := range texts {
			for _, s := range []string{tx.En, tx.Ko} {
				if s == "" || strings.ContainsAny(s, "{}") || strings.Contains(s, "  ") || strings.Contains(s, "\n\n\n") ||
					strings.Contains(strings.ReplaceAll(s, "\n\n", ""), "\n") || strings.TrimSpace(s) != s {
					errorf("badly formed text %q", s)
				}
			}
		}
		if !strings.Contains(c.Summary.Ko, "\n\n") || !strings.Contains(c.Summary.En, "\n\n") {
			errorf("summary has one paragraph")
		}
		if len(c.Sources) == 0 {
			errorf("no sources")
		}
		for _, s := range c.Sources {
			if !strings.HasPrefix(s.URL, "https://") || !slices.Contains([]string{"blog", "official-status", "postmortem"}, s.Kind) ||
				s.Archived == nil || (*s.Archived != "none" && !strings.HasPrefix(*s.Archived, "https://web.archive.org/web/")) {
				errorf("source %+v", s)
			}
		}
		if c.Review.WrittenBy != "session" || (c.Review.ReviewedAt == nil) != (c.Review.ReviewedBy == nil) {
			errorf("review %+v", c.Review)
		}
		if c.Related == nil || c.Docs == nil || c.Contributing == nil {
			errorf("related, docs or contributing is null")
		}
		// Every referenced case exists and came before this one.
		for _, r := range c.Related {
			if j, ok := index[r]; !ok || j >= i {
				errorf("related %s is not an earlier case", r)
			}
		}
		if c.RecurrenceOf != nil {
			j, ok := index[*c.RecurrenceOf]
			if !ok || j >= i {
				errorf("recurrence_of %s is not an earlier case", *c.RecurrenceOf)
			} else if p := byIndex[*c.RecurrenceOf]; p.org != c.Org || p.date >= c.Date {
				errorf("recurrence_of %s: org %q date %s, this case %q %s", *c.RecurrenceOf, p.org, p.date, c.Org, c.Date)
			}
		}
		byIndex[id] = seen{c.Org, c.Date}
	}

	// Skew: the most common component is on many cases, the rarest on few.
	for field, c := range counts {
		if field == "root_cause" || field == "domain" {
			continue
		}
		var v []int
		for _, k := range c {
			v = append(v, k)
		}
		slices.Sort(v)
		if v[len(v)-1] < 10*v[0] {
			t.Errorf("%s: counts %d..%d are not skewed", field, v[0], v[len(v)-1])
		}
	}
	if nullLessons < n/10 || nullLessons > n/5 {
		t.Errorf("%d of %d cases have no lessons, want about 15%%", nullLessons, n)
	}
	slices.Sort(sizes)
	t.Logf("case sizes: min %d, median %d, max %d bytes", sizes[0], sizes[len(sizes)/2], sizes[len(sizes)-1])
}

func BenchmarkGenCase(b *testing.B) {
	var buf bytes.Buffer
	i := 0
	for b.Loop() {
		if err := genCase(&buf, 1, 100000, i%100000); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.SetBytes(int64(buf.Len()))
}

func BenchmarkMapFS1000(b *testing.B) {
	for b.Loop() {
		MapFS(Options{N: 1000, Seed: 1})
	}
}

// TestVocabulary checks that the library's vocabulary grows the way real
// text does (issue 22): over 2,000 cases, between 40,000 and 90,000
// distinct words. A word here is what a plain split gives: the texts of a
// case in both languages split at white space, with the punctuation around
// each piece trimmed and letters lower-cased, so "v1.12.1로" and "서버가"
// are words of their own. The search index's own count of terms is
// logged beside it.
func TestVocabulary(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 2,000 cases")
	}
	const n = 2000
	fsys := MapFS(Options{N: n, Seed: 1})
	words := map[string]int{}
	terms := map[string]bool{}
	for i := range n {
		var c caseJSON
		if err := json.Unmarshal(fsys["cases/"+CaseID(i, n)+".json"].Data, &c); err != nil {
			t.Fatal(err)
		}
		texts := []textJSON{c.Title, c.Summary, c.SymptomsText, c.Trigger, c.Detection}
		if c.Lessons != nil {
			texts = append(texts, *c.Lessons)
		}
		for _, it := range append(slices.Clone(c.Remediation), c.ActionItems...) {
			texts = append(texts, it.Text)
		}
		for _, tx := range texts {
			for _, s := range []string{tx.En, tx.Ko} {
				for _, f := range strings.Fields(s) {
					f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
					if f != "" {
						words[strings.ToLower(f)]++
					}
				}
				for _, term := range tokenize.IndexTerms(s) {
					terms[term] = true
				}
			}
		}
	}
	once := 0
	for _, k := range words {
		if k == 1 {
			once++
		}
	}
	t.Logf("%d cases: %d distinct words (%d used once), %d distinct search terms", n, len(words), once, len(terms))
	// Both languages together, as content/'s fit predicts them at 2,000
	// cases (about 28,000 English and 94,000 Korean words, some shared;
	// TestCalibration holds each language to the fit).
	if len(words) < 80000 || len(words) > 150000 {
		t.Errorf("%d distinct words in %d cases, want 80,000 to 150,000", len(words), n)
	}
	// Most words of real text are rare: a library where every word is
	// common has no tail for the index to pay for.
	if once < len(words)/3 {
		t.Errorf("only %d of %d words are used once", once, len(words))
	}
}
