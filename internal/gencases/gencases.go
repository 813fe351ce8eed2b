// Package gencases generates realistic incidentlib libraries of any size for
// tests and benchmarks: a content folder with case files, vocab.json,
// site.json, a few topic introductions and the about page, in exactly the
// formats a hand-written library uses.
//
// The output is a pure function of the number of cases and the seed. Each
// case is computed from its own random stream, so cases can be generated in
// any order and by several workers, and a case that refers to an earlier one
// (related, recurrence_of) recomputes what it needs of it instead of keeping
// the library in memory. Memory use stays flat however many cases are asked
// for.
//
// # What the library looks like
//
// Organisations (300 fictional names on the reserved .example domain) and
// every controlled vocabulary are drawn by rank with a Zipf law (s = 1.1),
// so the first terms of each facet are on a large share of cases and most
// terms on few. Dates run from 2014 to October 2026, denser in recent years,
// in ID order. About one case in eight links one or two earlier cases as
// related and about one in fifty is a recurrence of an earlier case of the
// same organisation. English and Korean prose is assembled from sentence
// templates written in pairs, with Korean particles chosen by the final
// sound of the word they follow (see josa). Case files are compact JSON with
// a trailing newline, between 8,000 and 11,000 bytes each.
package gencases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing/fstest"
)

// Options says what library to generate.
type Options struct {
	// N is the number of cases, 0 to 999,999.
	N int
	// Seed selects the library; the same N and Seed give the same bytes.
	Seed uint64
	// Workers is the number of goroutines generating cases; 0 means
	// GOMAXPROCS. It does not change the output.
	Workers int
}

// writer receives the generated files. Names are slash-separated paths
// relative to the content folder ("cases/IL-0001.json", in the layout
// package cases names; this package cannot import cases, whose tests
// generate libraries with it). WriteFile is called
// from several goroutines at once and must not keep data after it returns.
type writer interface {
	WriteFile(name string, data []byte) error
}

// generate writes a whole library to w: the shared files first, then the
// cases, generated and written by opt.Workers goroutines.
func generate(opt Options, w writer) error {
	if opt.N < 0 || opt.N > 999999 {
		return fmt.Errorf("gencases: N must be between 0 and 999999, not %d", opt.N)
	}
	files, err := libraryFiles()
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := w.WriteFile(f.name, f.data); err != nil {
			return err
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	for range min(workers, max(opt.N, 1)) {
		wg.Go(func() {
			var buf bytes.Buffer
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= opt.N {
					return
				}
				err := genCase(&buf, opt.Seed, opt.N, i)
				if err == nil {
					err = w.WriteFile("cases/"+CaseID(i, opt.N)+".json", buf.Bytes())
				}
				if err != nil {
					errOnce.Do(func() { first = err })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return first
}

// WriteDir generates a library into dir, which must not exist yet or be
// empty, so that cases of an earlier, larger library cannot linger among the
// new ones.
func WriteDir(dir string, opt Options) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("gencases: %s is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return generate(opt, &dirWriter{root: dir})
}

// MapFS generates a library in memory, for tests that build a site without
// touching the disk. Errors cannot happen with valid options; invalid ones
// panic, as they are a mistake in the calling test.
func MapFS(opt Options) fstest.MapFS {
	m := &mapWriter{fs: fstest.MapFS{}}
	if err := generate(opt, m); err != nil {
		panic(err)
	}
	return m.fs
}

// dirWriter writes files below root, creating each folder once.
type dirWriter struct {
	root string
	dirs sync.Map // folder path → struct{}
}

func (d *dirWriter) WriteFile(name string, data []byte) error {
	full := filepath.Join(d.root, filepath.FromSlash(name))
	dir := filepath.Dir(full)
	if _, ok := d.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		d.dirs.Store(dir, struct{}{})
	}
	return os.WriteFile(full, data, 0o644)
}

// mapWriter collects files in an fstest.MapFS.
type mapWriter struct {
	mu sync.Mutex
	fs fstest.MapFS
}

func (m *mapWriter) WriteFile(name string, data []byte) error {
	f := &fstest.MapFile{Data: bytes.Clone(data), Mode: 0o644}
	m.mu.Lock()
	m.fs[name] = f
	m.mu.Unlock()
	return nil
}

type file struct {
	name string
	data []byte
}

// The JSON shapes of vocab.json and site.json.
type (
	termJSON struct {
		ID          string    `json:"id"`
		En          string    `json:"en"`
		Ko          string    `json:"ko"`
		Description *textJSON `json:"description,omitempty"`
	}
	vocabJSON struct {
		RootCause    []termJSON `json:"root_cause"`
		Components   []termJSON `json:"components"`
		Symptoms     []termJSON `json:"symptoms"`
		Contributing []termJSON `json:"contributing"`
		Domain       []termJSON `json:"domain"`
		ImpactLevel  []termJSON `json:"impact_level"`
		Severity     []termJSON `json:"severity"`
	}
	siteJSON struct {
		Title       textJSON `json:"title"`
		Description textJSON `json:"description"`
		BaseURL     string   `json:"base_url"`
		PageSize    int      `json:"page_size"`
		Callout     struct {
			Title textJSON `json:"title"`
			Text  textJSON `json:"text"`
		} `json:"callout"`
		MCP struct {
			URL   string   `json:"url"`
			Tools []string `json:"tools"`
			Note  textJSON `json:"note"`
		} `json:"mcp"`
		Links []struct{} `json:"links"`
	}
)

func term(id, en, ko, dEn, dKo string) termJSON {
	return termJSON{id, en, ko, &textJSON{dEn, dKo}}
}

// vocab builds vocab.json. Descriptions are written from each term's own
// phrases, so that they differ from term to term.
func vocab() vocabJSON {
	var v vocabJSON
	for _, t := range rootCauses {
		v.RootCause = append(v.RootCause, term(t.id, t.en, t.ko,
			"Cases whose underlying cause was "+t.shortEn+".",
			"근본 원인이 "+t.shortKo+"인 사례."))
	}
	for _, t := range components {
		v.Components = append(v.Components, term(t.id, t.en, t.ko,
			"Cases in which the "+t.noun+" failed or sat in the path of the failure.",
			josa(t.ko, "이")+" 고장 났거나 장애 경로에 있었던 사례."))
	}
	for _, t := range symptoms {
		v.Symptoms = append(v.Symptoms, term(t.id, t.en, t.ko,
			"Cases in which "+t.clauseEn+".",
			"이 증상이 나타난 사례에서는 "+t.clauseKo+"."))
	}
	for _, t := range contributings {
		v.Contributing = append(v.Contributing, term(t.id, t.en, t.ko,
			"Cases made worse or longer by this factor: "+t.en+".",
			josa(t.ko, "이")+" 장애를 키우거나 길게 만든 사례."))
	}
	for _, t := range domains {
		v.Domain = append(v.Domain, term(t.id, t.en, t.ko,
			"Incidents in "+t.en+".",
			t.ko+" 분야의 장애."))
	}
	sevText := []textJSON{
		{"Most or all users lost a core function.", "사용자 대부분 또는 전부가 핵심 기능을 쓰지 못했다."},
		{"A core function was degraded or many users were affected.", "핵심 기능이 저하됐거나 많은 사용자가 영향을 받았다."},
		{"A secondary function failed or few users were affected.", "부가 기능이 실패했거나 일부 사용자만 영향을 받았다."},
		{"Little visible impact on users.", "사용자에게 드러난 영향이 거의 없었다."},
	}
	for _, t := range impactLevels {
		v.ImpactLevel = append(v.ImpactLevel, term(t.id, t.en, t.ko,
			"Cases whose worst effect on users was this: "+t.en+".",
			"사용자에게 준 가장 큰 영향이 "+t.ko+"인 사례."))
	}
	for k, t := range severities {
		v.Severity = append(v.Severity, term(t.id, t.en, t.ko, sevText[k].En, sevText[k].Ko))
	}
	return v
}

func site() siteJSON {
	var s siteJSON
	s.Title = textJSON{"incidentlib", "incidentlib"}
	s.Description = textJSON{
		"A generated library of incident post-mortems for testing and benchmarks, in English and Korean.",
		"시험과 벤치마크를 위해 생성한 장애 사후 분석 사례집. 영어와 한국어로 읽을 수 있다.",
	}
	s.BaseURL = "https://benchlet.com/incidentlib/"
	s.PageSize = 20
	s.Callout.Title = textJSON{"Check your cluster for this", "내 클러스터도 점검해 보기"}
	s.Callout.Text = textJSON{
		"Most incidents here were set off by an ordinary change. Look for the same components and contributing factors in your own systems.",
		"여기 있는 장애 대부분은 평범한 변경에서 시작됐다. 같은 구성 요소와 기여 요인이 내 시스템에도 있는지 살펴보자.",
	}
	s.MCP.URL = "https://incidentlib-mcp.benchlet.com/mcp"
	s.MCP.Tools = []string{"search_incidents", "get_incident", "list_incidents", "get_topic", "vocab"}
	s.MCP.Note = textJSON{
		"AI assistants can search and read the same cases through this MCP server.",
		"AI 도구는 이 MCP 서버로 같은 사례를 검색하고 읽을 수 있다.",
	}
	s.Links = []struct{}{}
	return s
}

// libraryFiles returns every file except the cases.
func libraryFiles() ([]file, error) {
	v := vocab()
	var files []file
	for _, x := range []struct {
		name string
		v    any
	}{{"vocab.json", v}, {"site.json", site()}} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(x.v); err != nil {
			return nil, err
		}
		files = append(files, file{x.name, buf.Bytes()})
	}
	// Introductions for the three most common terms of each facet: the
	// topics with the most cases are the ones an editor writes up first.
	// Severities have none, orgs and years no vocabulary. (The generator
	// writes content as an editor does, field by field; it cannot ask
	// package cases, whose tests generate libraries with it.)
	for _, f := range []struct {
		Name  string
		terms []termJSON
	}{{"components", v.Components}, {"symptoms", v.Symptoms}, {"root-causes", v.RootCause}, {"contributing", v.Contributing}, {"domains", v.Domain}} {
		for _, t := range f.terms[:3] {
			en := fmt.Sprintf("%s\n\nThis page gathers every case in the library tagged **%s**. "+
				"The statistics below show which components and contributing factors come up most often with it, "+
				"and how long such incidents took to detect and resolve.\n", t.Description.En, t.En)
			ko := fmt.Sprintf("%s\n\n이 페이지는 **%s** 태그가 붙은 사례를 모두 모았다. "+
				"아래 통계에서 함께 자주 나오는 구성 요소와 기여 요인, 감지와 복구에 걸린 시간을 볼 수 있다.\n", t.Description.Ko, t.Ko)
			base := path.Join("topics", f.Name, t.ID)
			files = append(files, file{base + ".en.md", []byte(en)}, file{base + ".ko.md", []byte(ko)})
		}
	}
	files = append(files,
		file{"pages/about.en.md", []byte("# About this library\n\n" +
			"This library was generated by `cmd/gencases` to test and benchmark incidentlib. " +
			"Its organisations are fictional and its cases did not happen, but they follow the real case format: " +
			"controlled terms from `vocab.json`, text in English and Korean, and sources with archived copies.\n\n" +
			"Term frequencies are skewed on purpose, so that a few topics hold many cases and most hold a few.\n")},
		file{"pages/about.ko.md", []byte("# 이 사례집에 대해\n\n" +
			"이 사례집은 incidentlib을 시험하고 벤치마크하려고 `cmd/gencases`로 생성했다. " +
			"등장하는 조직은 가상이고 사례도 실제로 일어난 일이 아니지만, 형식은 실제 사례와 같다. " +
			"`vocab.json`의 분류별 용어 목록, 영어와 한국어 본문, 보관본이 딸린 출처를 갖췄다.\n\n" +
			"용어의 빈도는 일부러 치우치게 만들었다. 몇몇 주제에는 사례가 많이 몰리고, 대부분의 주제에는 사례가 적다.\n")},
	)
	return files, nil
}
