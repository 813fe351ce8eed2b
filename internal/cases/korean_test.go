package cases

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestFindParticleGaps covers what counts as a particle written apart and,
// as much, what does not: Korean words after Korean words, determiners,
// nouns that look like particles, and words that run on.
func TestFindParticleGaps(t *testing.T) {
	for _, tt := range []struct {
		in, want string // want is in with every gap closed
	}{
		{"HubSpot 의 트래픽", "HubSpot의 트래픽"},
		{"kubeconfig 가 없어", "kubeconfig가 없어"},
		{"03:30 UTC 였다.", "03:30 UTC였다."},
		{"API 와 MCP", "API와 MCP"},
		{"14:20 UTC에 그리고 02:50 UTC 에", "14:20 UTC에 그리고 02:50 UTC에"},
		{"502 를 냈다", "502를 냈다"},
		{"요청의 33~87% 에 502 나 연결 재설정", "요청의 33~87%에 502나 연결 재설정"},
		{"`kubectl` 을 썼다", "`kubectl`을 썼다"},
		{"(다른 사례 ID) 와 `recurrence_of`", "(다른 사례 ID)와 `recurrence_of`"},
		{"[문서](https://example.org/a) 를 보라", "[문서](https://example.org/a)를 보라"},
		{"“장애” 를 선언", "“장애”를 선언"},
		{`\"no free IP\" 를 기록`, `\"no free IP\"를 기록`},
		{"Traefik 2.x 에도 있는지", "Traefik 2.x에도 있는지"},
		{"hot-podding 이라고 불렀다", "hot-podding이라고 불렀다"},
		{"CoreDNS 다.\n\n다음", "CoreDNS다.\n\n다음"},
		{"클러스터 바깥의 DNS 다", "클러스터 바깥의 DNS다"},
		{"GFE 들이 재시작", "GFE들이 재시작"},
		{"GCP 용 ingress-nginx", "GCP용 ingress-nginx"},
		{"Always 인 DaemonSet 이 돌며", "Always인 DaemonSet이 돌며"},
		{"Ready 이면서 스케줄", "Ready이면서 스케줄"},
		{"café 에서", "café에서"},
		{"사례 형식의 JSON Schema 입니다.", "사례 형식의 JSON Schema입니다."},
		{"API  와 MCP", "API와 MCP"}, // two spaces
		{"API 와", "API와"},          // at the end

		// Not particles, or not after a Latin word, a number or a closing mark.
		{"이 버그는 수 있다", "이 버그는 수 있다"},
		{"파드 가 죽었다", "파드 가 죽었다"}, // Korean before: a word of its own is as likely
		{"API 서버에", "API 서버에"},
		{"DNS 가운데", "DNS 가운데"},
		{"NAT 세 대를", "NAT 세 대를"},
		{"A, B 등이 있다", "A, B 등이 있다"},
		{"v2 한 번", "v2 한 번"},
		{"Pod 한 개", "Pod 한 개"}, // the determiner "one"
		{"v2 하나", "v2 하나"},
		{"cordon 하기 전 수 있다", "cordon하기 전 수 있다"}, // and "수 있다" stays

		// 하다 and 되다 make a verb of the word before them.
		{"cordon 하고 드레인", "cordon하고 드레인"},
		{"OOM kill 됐다", "OOM kill됐다"},
		{"fsync 하지 않은 쓰기", "fsync하지 않은 쓰기"},
		{"v2 로 upgrade 된 노드", "v2로 upgrade된 노드"},
		{"restart 해야 한다", "restart해야 한다"},
		{"`kubectl drain` 했다.", "`kubectl drain`했다."},
		{"“할 수 있게” 됐다", "“할 수 있게” 됐다"}, // a quotation, not a word made a verb
		{`\"있게\" 됐다`, `\"있게\" 됐다`},
		{"VPC 밖에 있다", "VPC 밖에 있다"},
		{"pods 다 죽었다", "pods 다 죽었다"}, // the adverb "all", before a space
		{"API. 이 문제는", "API. 이 문제는"},
		{"API, 이 문제는", "API, 이 문제는"},
		{"1) 이 설정은", "1) 이 설정은"},
		{"목록\n(a) 이 값은", "목록\n(a) 이 값은"},
		{"**HubSpot** 의", "**HubSpot** 의"}, // closing emphasis: left to a person
		{"API 가a", "API 가a"},
		{"API\n의", "API\n의"},
		{"", ""},
		{" 의", " 의"},
	} {
		if got := AttachParticles(tt.in); got != tt.want {
			t.Errorf("AttachParticles(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := AttachParticles(tt.want); again != tt.want {
			t.Errorf("not idempotent on %q: %q", tt.want, again)
		}
	}
}

// TestParticleGapFields checks the gap's parts, which the warning names.
func TestParticleGapFields(t *testing.T) {
	gaps := FindParticleGaps("장애는 03:30 UTC 였다. HubSpot 의 팀")
	if len(gaps) != 2 {
		t.Fatalf("gaps = %+v", gaps)
	}
	if g := gaps[0]; g.Word != "UTC" || g.Particle != "였다" {
		t.Errorf("first gap = %+v", g)
	}
	msg := gapMessage(gaps[1])
	if !strings.Contains(msg, `write "HubSpot의", not "HubSpot 의"`) || !strings.Contains(msg, "go run ./cmd/fixparticles") {
		t.Errorf("warning = %s", msg)
	}
}

// TestFixParticlesJSON checks that the fixer changes the insides of strings
// only, byte for byte, and leaves a file that does not parse alone.
func TestFixParticlesJSON(t *testing.T) {
	src := "{\n  \"title\": {\"en\": \"HubSpot's API\", \"ko\": \"HubSpot 의 API 와 \\\"MCP\\\" 를 봤다\"},\n\t\"list\" :  [ \"x\",\"DNS 다\" ]\n}\n"
	want := "{\n  \"title\": {\"en\": \"HubSpot's API\", \"ko\": \"HubSpot의 API와 \\\"MCP\\\"를 봤다\"},\n\t\"list\" :  [ \"x\",\"DNS다\" ]\n}\n"
	got, n := FixParticlesJSON(src)
	if got != want || n != 4 {
		t.Errorf("FixParticlesJSON = %d\n%s\nwant 4\n%s", n, got, want)
	}
	if again, n := FixParticlesJSON(got); again != got || n != 0 {
		t.Errorf("second run changed %d places", n)
	}
	bad := `{"ko": "API 와"`
	if got, n := FixParticlesJSON(bad); got != bad || n != -1 {
		t.Errorf("a broken file: %q, %d", got, n)
	}
}

// TestParticleWarnings checks the warning in every kind of content file:
// position, field path and the corrected form.
func TestParticleWarnings(t *testing.T) {
	m := fixture(t)
	b, err := os.ReadFile("../../content/cases/IL-0495.json")
	if err != nil {
		t.Fatal(err)
	}
	const attached = `"ko":"HubSpot의 트래픽은`
	if !strings.Contains(string(b), attached) {
		t.Fatalf("IL-0495 has no %s", attached)
	}
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(b), attached, `"ko":"HubSpot 의 트래픽은`, 1))}
	m["pages/about.ko.md"] = &fstest.MapFile{Data: []byte("# 소개\n\n둘째 줄은 API 와 MCP 를 말한다.\n")}
	m["pages/about.en.md"] = &fstest.MapFile{Data: []byte("# About\n")}
	m["topics/components/ingress.ko.md"] = &fstest.MapFile{Data: []byte("ingress-nginx 처럼")}
	m["topics/components/ingress.en.md"] = &fstest.MapFile{Data: []byte("like ingress-nginx")}
	voc := string(m["vocab.json"].Data)
	m["vocab.json"] = &fstest.MapFile{Data: []byte(strings.Replace(voc, `"ko": "인그레스 컨트롤러"`, `"ko": "인그레스 컨트롤러(Ingress) 와"`, 1))}
	// The line of that term in vocab.json, which moves as terms are added.
	vocLine := strings.Count(voc[:strings.Index(voc, `"ko": "인그레스 컨트롤러"`)], "\n") + 1
	_, list := Load(m)
	var got []string
	for _, d := range list.Items {
		if !d.Warning {
			t.Errorf("not a warning: %s", d)
		}
		got = append(got, d.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`cases/IL-0495.json:1:`,
		`: warning: summary.ko: particle written apart from the word before it: write "HubSpot의", not "HubSpot 의"`,
		`pages/about.ko.md:3:10: warning: particle written apart from the word before it: write "API와", not "API 와"`,
		`pages/about.ko.md:3:16: warning: particle written apart from the word before it: write "MCP를", not "MCP 를"`,
		`topics/components/ingress.ko.md:1:14: warning: particle written apart from the word before it: write "ingress-nginx처럼"`,
		fmt.Sprintf(`vocab.json:%d:32: warning: components[0].ko: particle written apart from the word before it: write "컨트롤러(Ingress)와"`, vocLine),
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if len(got) != 5 {
		t.Errorf("want 5 warnings, got %d:\n%s", len(got), all)
	}
}

// TestNoParticleGaps runs the check over the shipped content and the
// interface strings, so that they stay as a Korean editor writes them.
func TestNoParticleGaps(t *testing.T) {
	_, list := Load(os.DirFS("../../content"))
	for _, d := range list.Items {
		if strings.Contains(d.Msg, "particle written apart") {
			t.Error(d.String())
		}
	}
	// The interface: every template and script, and the Korean that Go
	// code writes, comments and tests left out (tests hold gaps on purpose).
	var files []string
	for _, pattern := range []string{"templates/*", "static/js/*.js", "internal/*/*.go", "cmd/*/*.go"} {
		m, err := filepath.Glob(filepath.Join("..", "..", pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files: %v", len(files), files)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, g := range FindParticleGaps(line) {
				t.Errorf("%s:%d: %s", path, i+1, gapMessage(g))
			}
		}
	}
}
