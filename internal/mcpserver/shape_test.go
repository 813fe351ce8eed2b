package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// strictKeys are the schema keywords of the strict subset that clients
// backed by Gemini models accept for function declarations: one plain
// type per schema, no unions, no references.
var strictKeys = map[string]bool{"type": true, "description": true, "properties": true, "required": true, "items": true, "enum": true, "minimum": true, "maximum": true, "title": true, "format": true}

var plainTypes = []string{"object", "array", "string", "integer", "number", "boolean"}

// checkStrict walks a schema and reports every union type, keyword
// outside the subset and property without a description.
func checkStrict(t *testing.T, where string, s map[string]any) {
	t.Helper()
	for k := range s {
		if !strictKeys[k] {
			t.Errorf("%s: keyword %q is outside the strict subset", where, k)
		}
	}
	typ, ok := s["type"].(string)
	if !ok || !slices.Contains(plainTypes, typ) {
		t.Errorf("%s: type %v is not one plain type", where, s["type"])
	}
	props, _ := s["properties"].(map[string]any)
	if typ == "object" && len(props) == 0 {
		t.Errorf("%s: an object without properties", where)
	}
	for name, p := range props {
		ps, _ := p.(map[string]any)
		if d, _ := ps["description"].(string); strings.TrimSpace(d) == "" {
			t.Errorf("%s.%s: no description", where, name)
		}
		checkStrict(t, where+"."+name, ps)
	}
	if items, ok := s["items"].(map[string]any); ok {
		checkStrict(t, where+"[]", items)
	} else if typ == "array" {
		t.Errorf("%s: an array without items", where)
	}
}

// TestSchemasStrict checks every tool's input and output schema, as a
// client lists them, against the strict subset. The old schemas had
// {"type": ["null", "array"]} for every filter and 50 output properties
// without a description.
func TestSchemasStrict(t *testing.T) {
	_, cs := sharedServer(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 7 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	for _, tool := range res.Tools {
		for kind, s := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			var m map[string]any
			data, _ := json.Marshal(s)
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m["type"] != "object" {
				t.Errorf("%s %s: type %v", tool.Name, kind, m["type"])
			}
			checkStrict(t, tool.Name+" "+kind, m)
		}
	}
}

// TestSchemaCheckFails shows that the strict check catches what the old
// schemas had.
func TestSchemaCheckFails(t *testing.T) {
	var inner testing.T
	bad := map[string]any{"type": "object", "properties": map[string]any{
		"years": map[string]any{"type": []any{"null", "array"}, "items": map[string]any{"type": "string"}},
	}}
	checkStrict(&inner, "bad", bad)
	if !inner.Failed() {
		t.Error("a union type and a missing description passed")
	}
	var out testing.T
	checkOutput(&out, "list_incidents", []byte(`{"lang":"en","total":1,"cases":null}`))
	if !out.Failed() {
		t.Error("structured content with null for a list passed the output schema")
	}
}

// checkOutput validates structured content against the tool's declared
// output schema, as clients do.
func checkOutput(t testing.TB, tool string, data []byte) {
	t.Helper()
	for _, tl := range (&Server{}).tools() {
		if tl.mcp.Name != tool {
			continue
		}
		rs, err := tl.mcp.OutputSchema.(*jsonschema.Schema).Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		json.Unmarshal(data, &v)
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: structured content does not match the output schema: %v", tool, err)
		}
	}
}

// TestLenientArguments sends what models send: a year as a number, one
// term without its list, a numeric string as a limit, an argument the tool
// does not take. Each is answered, the unknown argument named in a note.
func TestLenientArguments(t *testing.T) {
	_, cs := sharedServer(t)
	var asNumber, asString listOutput
	callTool(t, cs, "list_incidents", map[string]any{"years": []any{2024}}, &asNumber)
	callTool(t, cs, "list_incidents", map[string]any{"years": []any{"2024"}}, &asString)
	if asNumber.Total == 0 || asNumber.Total != asString.Total {
		t.Errorf("years [2024]: %d cases, [\"2024\"]: %d", asNumber.Total, asString.Total)
	}
	var single listOutput
	callTool(t, cs, "list_incidents", map[string]any{"years": 2024, "components": "ingress"}, &single)
	var both listOutput
	callTool(t, cs, "list_incidents", map[string]any{"years": []any{"2024"}, "components": []any{"ingress"}}, &both)
	if single.Total != both.Total {
		t.Errorf("one term without its list: %d cases, with: %d", single.Total, both.Total)
	}
	var topic topicOutput
	callTool(t, cs, "get_topic", map[string]any{"facet": "years", "term": 2024}, &topic)
	if topic.Term != "2024" || topic.Count != asNumber.Total {
		t.Errorf("get_topic years 2024 (a number): %+v", topic)
	}
	// A misspelled argument name is taken as the one it was meant for, with
	// a note; one that fits no argument is refused with the list.
	var s searchOutput
	text := callTool(t, cs, "search_incidents", map[string]any{"Query": "ingress", "limit": "3", "component": "Ingress controller"}, &s)
	if len(s.Cases) != 3 || len(s.Notes) != 3 || !strings.Contains(text, "Note: The argument Query was taken as query.") ||
		!strings.Contains(text, "Note: The argument component was taken as components.") ||
		!strings.Contains(text, `Note: components: "Ingress controller" was taken as the term "ingress".`) {
		t.Errorf("misspelled arguments: %d cases, notes %q", len(s.Cases), s.Notes)
	}
	for _, it := range s.Cases {
		if !slices.Contains(it.Components, "ingress") {
			t.Errorf("component (singular) was not applied: %s has %v", it.ID, it.Components)
		}
	}
	text = callTool(t, cs, "get_incident", map[string]any{"case_id": "IL-0495", "langauge": "ko"}, &incidentOutput{})
	if !strings.Contains(text, "참고: case_id 인자는 id 인자로 읽었습니다.") || !strings.Contains(text, "참고: langauge 인자는 lang 인자로 읽었습니다.") {
		t.Errorf("renamed arguments in Korean: %s", text[len(text)-300:])
	}
	msg := callErr(t, cs, "get_incident", map[string]any{"id": "IL-0495", "format": "html"})
	if msg != "format is not an argument of get_incident; it takes id, lang." {
		t.Errorf("an argument that fits none: %s", msg)
	}
	// A year (2001) or an organisation without cases has none; a misspelled
	// controlled term is still an error with its suggestion.
	var none listOutput
	text = callTool(t, cs, "list_incidents", map[string]any{"years": []any{"2001"}}, &none)
	if none.Total != 0 || !strings.Contains(text, "0 cases with years=2001") {
		t.Errorf("years 2001: %s", text)
	}
	text = callTool(t, cs, "list_incidents", map[string]any{"orgs": []any{"gitlb"}}, &none)
	if none.Total != 0 || !strings.Contains(text, `No case in the library is from the organisation "gitlb" (did you mean "gitlab"?)`) {
		t.Errorf("orgs gitlb: %s", text)
	}
	topic = topicOutput{}
	text = callTool(t, cs, "get_topic", map[string]any{"facet": "years", "term": "2001"}, &topic)
	if topic.Count != 0 || topic.URL != "" || !strings.Contains(text, "No case in the library has this term.") {
		t.Errorf("get_topic years 2001: %s", text)
	}
	if msg := callErr(t, cs, "list_incidents", map[string]any{"components": []any{"ingres"}}); !strings.Contains(msg, `(did you mean "ingress"?)`) {
		t.Errorf("components ingres: %s", msg)
	}
}

// TestKorean checks that a Hangul query answers in Korean without lang,
// that lang wins over the script, and that errors follow the language.
func TestKorean(t *testing.T) {
	_, cs := sharedServer(t)
	var s searchOutput
	text := callTool(t, cs, "search_incidents", map[string]any{"query": "로드 밸런서"}, &s)
	if s.Lang != "ko" || !strings.Contains(text, "검색 결과는 사례 ") || !strings.Contains(text, "/ko/cases/") || strings.Contains(text, "cases match") {
		t.Errorf("Korean query without lang: %s", text)
	}
	text = callTool(t, cs, "search_incidents", map[string]any{"query": "로드 밸런서", "lang": "en"}, &s)
	if s.Lang != "en" || !strings.Contains(text, "cases match") {
		t.Errorf("Korean query with lang en: %s", text)
	}
	text = callTool(t, cs, "list_incidents", map[string]any{"lang": "ko", "limit": 1, "component": "인그레스"}, &listOutput{})
	for _, want := range []string{"사례 ", "최신순으로", "다음 쪽을 보려면", "참고: component 인자는 components 인자로 읽었습니다.", `참고: components 인자의 "인그레스" 값은 용어 "ingress"에 맞췄습니다.`} {
		if !strings.Contains(text, want) {
			t.Errorf("list in Korean lacks %q: %s", want, text)
		}
	}
	msg := callErr(t, cs, "search_incidents", map[string]any{"query": "로드", "components": []any{"ingres"}})
	if !strings.Contains(msg, "알 수 없는 용어입니다") || !strings.Contains(msg, `혹시 "ingress" 말씀이십니까?`) {
		t.Errorf("Korean error: %s", msg)
	}
	msg = callErr(t, cs, "get_incident", map[string]any{"id": "IL-9999", "lang": "ko"})
	if !strings.Contains(msg, "라이브러리에 IL-9999 사례가 없습니다") {
		t.Errorf("Korean error: %s", msg)
	}
	// English plurals.
	text = callTool(t, cs, "search_incidents", map[string]any{"query": "IngressNightmare"}, &s)
	if s.Total == 1 && !strings.Contains(text, "1 case matches") {
		t.Errorf("one match: %s", text)
	}
}

// TestStrings checks that every key the code asks for is in strings.json,
// in both languages (ParseStrings checks the second part at start), and
// that each key's two languages take the same arguments.
func TestStrings(t *testing.T) {
	var src strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			data, _ := os.ReadFile(f)
			src.Write(data)
		}
	}
	used := regexp.MustCompile(`(?:\.t|\.tn|\.note|\.fail|msgs\.Get\(\w+,) ?\(?"([a-z_.]+)"`).FindAllStringSubmatch(src.String(), -1)
	if len(used) < 30 {
		t.Fatalf("found only %d uses of strings", len(used))
	}
	for _, u := range used {
		key := u[1]
		if _, ok := msgs[key]; !ok {
			if _, ok := msgs[key+".one"]; !ok {
				t.Errorf("key %q is used but not in strings.json", key)
			}
		}
	}
	verbs := regexp.MustCompile(`%\[\d\]s`)
	for key, byLang := range msgs {
		en, ko := verbs.FindAllString(byLang["en"], -1), verbs.FindAllString(byLang["ko"], -1)
		sort.Strings(en)
		sort.Strings(ko)
		if !slices.Equal(slices.Compact(en), slices.Compact(ko)) {
			t.Errorf("%s: English takes %v, Korean %v", key, en, ko)
		}
	}
}

// TestAnswerSizes calls every tool with the arguments that give its
// largest answer on the repository's content (every case, topic and facet,
// the largest limits) and keeps each answer, text and structured content
// together, under 20 KB, and the structured content free of the text.
func TestAnswerSizes(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	const budget = 20 << 10
	largest := map[string]int{}
	size := func(tool string, args map[string]any) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %s", tool, args, err, resultText(res))
		}
		data, _ := json.Marshal(res)
		if len(data) > largest[tool] {
			largest[tool] = len(data)
		}
		if len(data) > budget {
			t.Errorf("%s %v: %d bytes, over %d", tool, args, len(data), budget)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		if text := resultText(res); len(text) > 200 && strings.Contains(string(sc), text[:200]) {
			t.Errorf("%s %v: the structured content repeats the text", tool, args)
		}
	}
	for _, c := range m.lib.Cases {
		size("get_incident", map[string]any{"id": c.ID})
		size("get_incident", map[string]any{"id": c.ID, "lang": "ko"})
		size("get_incident", map[string]any{"id": c.ID, "lang": "both"})
	}
	for _, facet := range cases.FacetNames() {
		for _, tp := range m.model.Topics()[facet].Topics {
			size("get_topic", map[string]any{"facet": facet, "term": tp.ID, "lang": "ko"})
			size("get_topic", map[string]any{"facet": facet, "term": tp.ID, "lang": "en"})
		}
		size("vocab", map[string]any{"facet": facet})
	}
	size("vocab", nil)
	size("vocab", map[string]any{"lang": "ko"})
	size("list_incidents", map[string]any{"limit": listMax, "lang": "ko"})
	size("search_incidents", map[string]any{"query": "kubernetes", "limit": searchMax, "lang": "ko"})
	// Counts, and why each hit matched a long query, in both languages.
	long := "kubernetes ingress load balancer health check node dns etcd certificate upgrade timeout outage error latency memory disk network pod cluster"
	for _, lang := range cases.Languages {
		size("search_incidents", map[string]any{"query": "kubernetes", "limit": searchMax, "lang": lang, "counts": true})
		size("search_incidents", map[string]any{"query": long, "limit": searchMax, "lang": lang, "counts": true})
		size("search_incidents", map[string]any{"query": "쿠버네티스 인그레스 로드 밸런서 헬스 체크 노드 인증서 업그레이드 타임아웃 장애 오류 지연 메모리 디스크 네트워크 파드 클러스터", "limit": searchMax, "lang": lang, "counts": true})
		size("list_incidents", map[string]any{"limit": listMax, "lang": lang, "cursor": "IL-0601@2019.1.1"})
	}
	t.Logf("largest answers: %v", largest)
}

// TestGolden keeps one answer of each tool in each language in
// testdata/golden; go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	_, cs := sharedServer(t)
	calls := []struct {
		name, tool string
		args       map[string]any
	}{
		{"search", "search_incidents", map[string]any{"query": "load balancer health check", "limit": 3, "components": []any{"health-probe"}}},
		{"search-none", "search_incidents", map[string]any{"query": "IngressNightmare", "years": 2019}},
		{"incident", "get_incident", map[string]any{"id": "IL-0495"}},
		{"list", "list_incidents", map[string]any{"years": []any{2024}, "limit": 2, "page": 3}},
		{"topic", "get_topic", map[string]any{"facet": "root_causes", "term": "capacity-limit"}},
		{"vocab", "vocab", map[string]any{"facet": "severities"}},
		{"error", "get_topic", map[string]any{"facet": "components", "term": "ingres"}},
	}
	for _, c := range calls {
		for _, lang := range cases.Languages {
			args := map[string]any{"lang": lang}
			for k, v := range c.args {
				args[k] = v
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
			if !res.IsError {
				checkOutput(t, c.tool, sc)
			}
			got := fmt.Sprintf("%s %s\n\n--- text\n%s\n--- structured content\n%s\n", c.tool, mustJSON(c.args), resultText(res), sc)
			file := filepath.Join("testdata", "golden", c.name+"."+lang+".txt")
			if repotest.Update() {
				os.MkdirAll(filepath.Dir(file), 0o755)
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if string(want) != got {
				t.Errorf("%s differs from the answer (go test -run TestGolden -update rewrites it):\n%s", file, got)
			}
		}
	}
}

func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// TestCallTimeout runs a tool that does not finish: the call answers with
// the timeout error in the caller's language once its time is up.
func TestCallTimeout(t *testing.T) {
	srv, err := New(Options{Content: repotest.ContentFolder(t), CallTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	slow := tool{mcp: &mcp.Tool{Name: "slow"}, params: []param{{name: "lang", kind: kLang}}, run: func(*model, *call) (string, any, error) {
		<-release
		return "late", nil, nil
	}}
	res, err := srv.handler(slow)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "slow", Arguments: json.RawMessage(`{"lang":"ko"}`)}})
	if err != nil || !res.IsError || resultText(res) != "호출 시간이 제한(0.05초)을 넘어 중단했습니다. 범위를 좁혀 다시 호출하십시오." {
		t.Errorf("slow call: %v %+v %s", err, res, resultText(res))
	}
}
