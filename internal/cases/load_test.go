package cases

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/diag"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// fixture is the real site.json and vocab.json with no cases: every test
// adds its own.
func fixture(t testing.TB) fstest.MapFS {
	t.Helper()
	all := repotest.MapFS(t, "content")
	m := fstest.MapFS{"site.json": all["site.json"], "vocab.json": all["vocab.json"]}
	m["cases"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	return m
}

// TestBadInput loads each folder under testdata/bad on top of the fixture
// and compares every reported problem with want.txt.
func TestBadInput(t *testing.T) {
	dirs, err := os.ReadDir("testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			m := fixture(t)
			root := filepath.Join("testdata", "bad", d.Name())
			err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
				if err != nil || e.IsDir() || e.Name() == "want.txt" {
					return err
				}
				b, err := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			_, list := Load(m)
			var lines []string
			for _, it := range list.Items {
				lines = append(lines, it.String())
			}
			got := strings.Join(lines, "\n") + "\n"
			if list.Errors() == 0 {
				t.Errorf("no errors reported; got:\n%s", got)
			}
			golden := filepath.Join(root, "want.txt")
			if repotest.Update() {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// TestContent loads the real content: no errors allowed.
func TestContent(t *testing.T) {
	lib, list := Load(os.DirFS("../../content"))
	for _, d := range list.Items {
		if !d.Warning {
			t.Error(d.String())
		}
	}
	if len(lib.Cases) < 6 {
		t.Errorf("only %d cases", len(lib.Cases))
	}
	for i := 1; i < len(lib.Cases); i++ {
		if lib.Cases[i-1].Date.Before(lib.Cases[i].Date) {
			t.Errorf("cases not newest first at %d", i)
		}
	}
	c := lib.ByID["IL-0495"]
	if c == nil {
		t.Fatal("IL-0495 missing")
	}
	if c.Timeline.DetectedAfter != nil || c.Timeline.ResolvedAfter == nil || *c.Timeline.ResolvedAfter != 56 {
		t.Errorf("timeline = %+v", c.Timeline)
	}
	if c.Lessons == nil || !strings.HasPrefix(c.Lessons.En, "HubSpot concluded") {
		t.Errorf("lessons = %v", c.Lessons)
	}
	if c.Date != (Date{2024, 8, 27}) || c.UpdatedAt.Year() != 2026 {
		t.Errorf("dates = %v %v", c.Date, c.UpdatedAt)
	}
	if lib.ByID["IL-0338"].Lessons != nil {
		t.Error("IL-0338 lessons should be null")
	}
}

// TestWarnings checks that a missing translation is a warning, not an error.
func TestWarnings(t *testing.T) {
	m := fixture(t)
	b, _ := os.ReadFile("../../content/cases/IL-0495.json")
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(b), `"ko":"HubSpot의 트래픽은`, `"ko":"","xx":"`, 1))}
	_, list := Load(m)
	// The replacement above breaks the text object on purpose: an unknown key.
	if list.Errors() == 0 {
		t.Fatal("unknown key inside a text accepted")
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(b), `"ko":"핵심 문제는`, `"ko":"","_":"`, 1))}
	b2 := strings.Replace(string(b), `"ko":"헬스 체크가 잘못 타임아웃되지 않도록 헬스 체크 설정을 바꾼다."`, `"ko":""`, 1)
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(b2)}
	_, list = Load(m)
	if list.Errors() != 0 || list.Warnings() != 1 {
		t.Fatalf("want 1 warning and no error, got %+v", list.Items)
	}
	if got := list.Items[0].String(); !strings.Contains(got, "action_items[0].text.ko: Korean translation missing") || !strings.HasPrefix(got, "cases/IL-0495.json:1:") {
		t.Errorf("warning = %s", got)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]int{"56m": 56, "1h10m": 70, "2h": 120, "1d": 1440, "2d3h": 2*1440 + 180, "0m": 0} {
		got, ok := parseDuration(in)
		if !ok || int(got) != want {
			t.Errorf("parseDuration(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "m", "5", "1m1h", "1h1h", "5s", "1hm", "-5m", "99999999m"} {
		if _, ok := parseDuration(in); ok {
			t.Errorf("parseDuration(%q) accepted", in)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	ids := []string{"ingress", "health-probe", "cdn"}
	if got := DidYouMean("ingres", ids); got != ` (did you mean "ingress"?)` {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("frobnicator", ids); got != "" {
		t.Errorf("got %q", got)
	}
}

// FuzzLoadCase feeds arbitrary bytes as a case file: loading must never
// panic, and a file it accepts must have an id of the checked form.
func FuzzLoadCase(f *testing.F) {
	b, _ := os.ReadFile("../../content/cases/IL-0495.json")
	f.Add(b)
	f.Add([]byte(`{"id": "IL-0001"}`))
	f.Add([]byte(`[`))
	f.Add([]byte(`{"id": "\ud800"}`))
	m := fixture(f)
	idRe := regexp.MustCompile(idPattern)
	f.Fuzz(func(t *testing.T, data []byte) {
		mm := fstest.MapFS{}
		for k, v := range m {
			mm[k] = v
		}
		mm["cases/IL-0495.json"] = &fstest.MapFile{Data: data}
		lib, list := Load(mm)
		if list.Errors() == 0 {
			for _, c := range lib.Cases {
				if !idRe.MatchString(c.ID) {
					t.Fatalf("accepted id %q", c.ID)
				}
			}
		}
	})
}

func TestReservedPageSlug(t *testing.T) {
	m := fixture(t)
	m["pages/cases.en.md"] = &fstest.MapFile{Data: []byte("# Cases\n")}
	m["pages/about.en.md"] = &fstest.MapFile{Data: []byte("# About\n")}
	lib, list := Load(m)
	if err := list.Err(); list.Errors() != 1 || !strings.Contains(err.Error(), `pages/cases.en.md: "cases" is taken`) {
		t.Fatalf("got %+v", list.Items)
	}
	if len(lib.Prose) != 1 || lib.Prose[0].Slug != "about" {
		t.Errorf("pages %+v", lib.Prose)
	}
}

func TestPartialDates(t *testing.T) {
	for in, want := range map[string]Date{"2019": {2019, 0, 0}, "2019-04": {2019, 4, 0}, "2019-04-23": {2019, 4, 23}} {
		got, ok := parseDate(in)
		if !ok || got != want || got.String() != in {
			t.Errorf("parseDate(%q) = %v %v (%s)", in, got, ok, got.String())
		}
	}
	for _, in := range []string{"2019-13", "2019-02-30", "19", "2019-4", "2019-04-1", ""} {
		if _, ok := parseDate(in); ok {
			t.Errorf("parseDate(%q) accepted", in)
		}
	}
	y, m, d := Date{2019, 0, 0}, Date{2019, 4, 0}, Date{2019, 4, 23}
	if !y.Before(m) || !m.Before(d) || d.Before(y) {
		t.Error("a partial date does not sort before the dates inside it")
	}
	if got := y.first().Format("2006-01-02"); got != "2019-01-01" {
		t.Errorf("First = %s", got)
	}
}

// TestReadRaw checks that a case gives back its file byte for byte without
// keeping it, and refuses a file that changed after it was read.
func TestReadRaw(t *testing.T) {
	m := repotest.MapFS(t, "content")
	lib, list := Load(m)
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	c := lib.ByID["IL-0495"]
	raw, err := c.readRaw()
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != string(m["cases/IL-0495.json"].Data) {
		t.Fatal("readRaw differs from the file")
	}
	if c.Title.En == "" || c.Remediation[0].Ko == "" || c.Sources[0].URL == "" {
		t.Fatal("detached case lost its text")
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(raw), "HubSpot", "HubSpoT", 1))}
	if _, err := c.readRaw(); err == nil || !strings.Contains(err.Error(), "changed while the site was built") {
		t.Fatalf("changed file: got %v", err)
	}
}

// TestLoadOffHeap checks that a library whose text is held off the Go heap
// is the same library, that its strings live in the arena, and that Keep
// puts its copies there too.
func TestLoadOffHeap(t *testing.T) {
	fsys := os.DirFS("../../content")
	want, _ := Load(fsys)
	got, list := LoadOffHeap(fsys)
	arena := got.text
	for _, d := range list.Items {
		if !d.Warning {
			t.Error(d.String())
		}
	}
	if len(got.Cases) != len(want.Cases) {
		t.Fatalf("%d cases, want %d", len(got.Cases), len(want.Cases))
	}
	for i := range want.Cases {
		if !reflect.DeepEqual(got.Cases[i], want.Cases[i]) {
			t.Errorf("case %s differs when loaded into an arena", want.Cases[i].ID)
		}
	}
	if arena == nil || arena.Mapped() == 0 {
		t.Fatal("the arena holds nothing: the text went to the heap")
	}
	card := []byte("<li>" + got.Cases[0].Title.Ko + "</li>")
	kept := got.Keep(card)
	card[0] = 'x'
	if kept != "<li>"+got.Cases[0].Title.Ko+"</li>" {
		t.Errorf("Keep = %q: it changed with its source", kept)
	}
	if s := want.Keep([]byte("heap")); s != "heap" || want.text != nil {
		t.Errorf("Keep on a library on the heap: %q, arena %v", s, want.text)
	}
}

// TestImpactForms checks that impact.scope and impact.users take both a
// plain string (English only, as the seeds have them) and {en, ko}, that a
// plain string other than "unknown" is a warning (so check -strict fails on
// English on a Korean page), and that anything else is an error at the
// field.
func TestImpactForms(t *testing.T) {
	b, err := os.ReadFile("../../content/cases/IL-0495.json")
	if err != nil {
		t.Fatal(err)
	}
	given := `"impact":{"scope":{"en":"Logging in, reaching content and using HubSpot tools","ko":"로그인, 콘텐츠 접근, HubSpot 도구 사용"},"users":{"en":"some HubSpot customers","ko":"일부 HubSpot 고객"},"region":"unknown"}`
	if !strings.Contains(string(b), given) {
		t.Fatal("IL-0495 no longer has its impact in both languages")
	}
	plain := `"impact":{"scope":"Logging in, reaching content and using HubSpot tools","users":"some HubSpot customers","region":"unknown"}`
	for _, tc := range []struct {
		impact     string
		scope      Bilingual
		users      Bilingual
		errContain string
	}{
		{given, Bilingual{En: "Logging in, reaching content and using HubSpot tools", Ko: "로그인, 콘텐츠 접근, HubSpot 도구 사용"}, Bilingual{En: "some HubSpot customers", Ko: "일부 HubSpot 고객"}, ""},
		{plain, Bilingual{}, Bilingual{}, `impact.scope: a plain string is English only, and the Korean page shows it marked as not translated: write {"en": "Logging in, reaching content and using HubSpot tools", "ko": "…"}`},
		{plain, Bilingual{}, Bilingual{}, `impact.users: a plain string is English only`},
		{`"impact":{"scope":{"en":"Logins","ko":"로그인"},"users":"unknown","region":"us-east-1"}`, Bilingual{En: "Logins", Ko: "로그인"}, Bilingual{En: "unknown", Ko: "unknown"}, ""},
		{`"impact":{"scope":{"en":"Logins"},"users":"x","region":"US"}`, Bilingual{}, Bilingual{}, "impact.scope.ko: Korean translation missing"}, // a deleted key is an empty one
		{`"impact":{"scope":3,"users":"x","region":"US"}`, Bilingual{}, Bilingual{}, "impact.scope: expected string or object, found number"},
		{`"impact":{"scope":"x","users":"x","region":{"en":"US","ko":"미국"}}`, Bilingual{}, Bilingual{}, "impact.region: expected string, found object"},
	} {
		m := fixture(t)
		m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(b), given, tc.impact, 1))}
		lib, list := Load(m)
		var got strings.Builder
		for _, d := range list.Items {
			got.WriteString(d.String() + "\n")
		}
		if tc.errContain != "" {
			if !strings.Contains(got.String(), tc.errContain) {
				t.Errorf("%s: want error %q, got %s", tc.impact, tc.errContain, got.String())
			}
			if strings.Contains(tc.errContain, "plain string") && (list.Errors() != 0 || list.Warnings() != 2) {
				t.Errorf("%s: want two warnings and no error, got %s", tc.impact, got.String())
			}
			continue
		}
		if len(list.Items) != 0 {
			t.Errorf("%s: %s", tc.impact, got.String())
			continue
		}
		c := lib.ByID["IL-0495"]
		if c.Impact.Scope != tc.scope || c.Impact.Users != tc.users {
			t.Errorf("%s: got %+v", tc.impact, c.Impact)
		}
	}
}

// TestOrgNames checks vocab.json's orgs: a case gets its organisation's
// Korean name, a case whose organisation has no entry is a warning, and a
// duplicate entry is an error at its position.
func TestOrgNames(t *testing.T) {
	m := fixture(t)
	b, _ := os.ReadFile("../../content/cases/IL-0495.json")
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: b}
	lib, list := Load(m)
	if len(list.Items) != 0 {
		t.Fatalf("problems: %+v", list.Items)
	}
	if c := lib.ByID["IL-0495"]; c.OrgAlias != "허브스팟" || c.OrgKo != "" || c.OrgName() != (Bilingual{En: "HubSpot", Ko: "HubSpot"}) {
		t.Errorf("OrgAlias = %q, OrgKo = %q, OrgName = %v; want 허브스팟 found by search, HubSpot shown in both languages", c.OrgAlias, c.OrgKo, c.OrgName())
	}
	voc := string(m["vocab.json"].Data)
	entry := `{"id": "hubspot", "en": "HubSpot", "ko": "허브스팟"},`
	if !strings.Contains(voc, entry) {
		t.Fatalf("content/vocab.json has no entry %s", entry)
	}
	m["vocab.json"] = &fstest.MapFile{Data: []byte(strings.Replace(voc, entry, "", 1))}
	lib, list = Load(m)
	if list.Errors() != 0 || list.Warnings() != 1 || !strings.Contains(list.Items[0].String(), `organisation "hubspot" has no entry in vocab.json's orgs`) {
		t.Errorf("want one warning about hubspot, got %+v", list.Items)
	}
	if c := lib.ByID["IL-0495"]; c == nil || c.OrgAlias != "" {
		t.Errorf("a case without an entry: %+v", c)
	}
	m["vocab.json"] = &fstest.MapFile{Data: []byte(strings.Replace(voc, entry, entry+entry, 1))}
	_, list = Load(m)
	if list.Errors() != 1 || !strings.Contains(list.Items[0].String(), `orgs[`) || !strings.Contains(list.Items[0].String(), `duplicate organisation "hubspot"`) {
		t.Errorf("want an error at the duplicate, got %+v", list.Items)
	}
}

// TestUnknownDate checks a case whose source gives no date: "date": null
// loads without a problem, the date is unknown rather than a made-up year,
// the case is under no year topic, and newest-first lists end with it.
func TestUnknownDate(t *testing.T) {
	m := fixture(t)
	for _, id := range []string{"IL-0495", "IL-0202"} {
		b, err := os.ReadFile("../../content/cases/" + id + ".json")
		if err != nil {
			t.Fatal(err)
		}
		m["cases/"+id+".json"] = &fstest.MapFile{Data: b}
	}
	b := string(m["cases/IL-0495.json"].Data)
	if !strings.Contains(b, `"date":"2024-08-27"`) {
		t.Fatal(`IL-0495 no longer has "date":"2024-08-27"`)
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(b, `"date":"2024-08-27"`, `"date":null`, 1))}
	lib, list := Load(m)
	for _, d := range list.Items {
		t.Errorf("unexpected problem: %s", d)
	}
	c := lib.ByID["IL-0495"]
	if c == nil {
		t.Fatal("IL-0495 not loaded")
	}
	if c.Date.Known() || c.Date.String() != "" {
		t.Errorf("date = %+v %q, want unknown", c.Date, c.Date.String())
	}
	c.EachTerm(func(f *Facet, id string) {
		if f == Years {
			t.Errorf("a case with no date is under the year %q", id)
		}
	})
	if ids := []string{lib.Cases[0].ID, lib.Cases[1].ID}; ids[0] != "IL-0202" || ids[1] != "IL-0495" {
		t.Errorf("newest first = %v, want the undated case last", ids)
	}
}

// TestOrgNameKo checks name_ko in vocab.json's orgs: a description such as
// "Unnamed company" reads in Korean on Korean pages, a name does not.
func TestOrgNameKo(t *testing.T) {
	lib, list := Load(os.DirFS("../../content"))
	if list.Errors() != 0 {
		t.Fatalf("%+v", list.Items)
	}
	want := map[string]Bilingual{
		"unnamed-company":        {En: "Unnamed company", Ko: "이름을 밝히지 않은 회사"},
		"bc-government":          {En: "BC Government", Ko: "BC 주정부"},
		"uk-ministry-of-justice": {En: "UK Ministry of Justice", Ko: "영국 법무부"},
		"dfds":                   {En: "DFDS", Ko: "DFDS"},
		"zalando":                {En: "Zalando", Ko: "Zalando"},
	}
	seen := map[string]bool{}
	for _, c := range lib.Cases {
		if w, ok := want[c.OrgSlug]; ok {
			seen[c.OrgSlug] = true
			if c.OrgName() != w {
				t.Errorf("%s: OrgName = %v, want %v", c.ID, c.OrgName(), w)
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("cases of only %v", seen)
	}
	m := fixture(t)
	voc := string(m["vocab.json"].Data)
	m["vocab.json"] = &fstest.MapFile{Data: []byte(strings.Replace(voc, `"name_ko": "BC 주정부"`, `"name_ko": ""`, 1))}
	if _, list := Load(m); list.Errors() != 1 || !strings.Contains(list.Items[0].String(), "name_ko") {
		t.Errorf("an empty name_ko: %+v", list.Items)
	}
}

// TestLoadReusesNoText loads a folder of generated cases, whose files are
// read one after another into the same buffer on each worker, and each case
// again on its own into memory of its own: the cases are the same. A case
// that kept a string in the buffer would hold the bytes of a file read
// after it.
func TestLoadReusesNoText(t *testing.T) {
	dir := t.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	fsys := ContentFS(dir)
	for _, load := range []func(fs.FS) (*Library, diag.List){Load, LoadOffHeap} {
		lib, list := load(fsys)
		if list.Errors() > 0 || len(lib.Cases) != 60 {
			t.Fatalf("%d cases: %v", len(lib.Cases), list.Err())
		}
		folder := openFolder(fsys, CasesDir)
		for _, c := range lib.Cases {
			alone := loadCase(fsys, c.File, folder, &lib.Vocab, nil, new(caseReader))
			if alone.c == nil || !reflect.DeepEqual(c, alone.c) {
				t.Fatalf("%s differs from the case loaded alone", c.File)
			}
		}
		folder.close()
	}
}
