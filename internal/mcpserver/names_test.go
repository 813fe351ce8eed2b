package mcpserver

import (
	"slices"
	"strings"
	"testing"
)

// TestMisspelledNames sends argument names a model gets wrong: one clear
// candidate is taken with a note in the call's language; none, or two
// equally near, is refused with the tool's arguments.
func TestMisspelledNames(t *testing.T) {
	_, cs := sharedServer(t)
	for _, tt := range []struct {
		tool string
		args map[string]any
		note string // "" when refused
		err  string
	}{
		{"list_incidents", map[string]any{"component": "ingress"}, "The argument component was taken as components.", ""},
		{"list_incidents", map[string]any{"root_cause": "software-bug"}, "The argument root_cause was taken as root_causes.", ""},
		{"list_incidents", map[string]any{"impact_level": "full-outage", "lang": "ko"}, "impact_level 인자는 impact_levels 인자로 읽었습니다.", ""},
		{"list_incidents", map[string]any{"Orgs": "hubspot"}, "The argument Orgs was taken as orgs.", ""},
		{"list_incidents", map[string]any{"organisation": "hubspot"}, "The argument organisation was taken as orgs.", ""},
		{"search_incidents", map[string]any{"q": "dns"}, "The argument q was taken as query.", ""},
		{"search_incidents", map[string]any{"qeury": "dns"}, "The argument qeury was taken as query.", ""},
		{"search_incidents", map[string]any{"query": "로드", "sypmtoms": "high-latency"}, "sypmtoms 인자는 symptoms 인자로 읽었습니다.", ""},
		{"get_topic", map[string]any{"facte": "components", "term": "dns"}, "The argument facte was taken as facet.", ""},
		{"get_incident", map[string]any{"ID": "IL-0495"}, "The argument ID was taken as id.", ""},
		{"get_incident", map[string]any{"id": "IL-0495", "format": "md"}, "", "format is not an argument of get_incident; it takes id, lang."},
		{"search_incidents", map[string]any{"query": "dns", "page": 2}, "", "page is not an argument of search_incidents; it takes query, lang, limit, cursor, counts,"},
		{"search_incidents", map[string]any{"query": "로드", "page": 2}, "", "page 인자는 search_incidents 도구의 인자가 아닙니다. 이 도구의 인자는 query, lang,"},
		// Taken already: the near name cannot be moved onto it.
		{"list_incidents", map[string]any{"component": "dns", "components": "cdn"}, "", `component is not an argument of list_incidents (did you mean "components"?); it takes components,`},
	} {
		if tt.note == "" {
			if msg := callErr(t, cs, tt.tool, tt.args); !strings.Contains(msg, tt.err) {
				t.Errorf("%s %v: %q, want %q", tt.tool, tt.args, msg, tt.err)
			}
			continue
		}
		var out struct{ Notes []string }
		text := callTool(t, cs, tt.tool, tt.args, &out)
		if !slices.Contains(out.Notes, tt.note) || !strings.Contains(text, tt.note) {
			t.Errorf("%s %v: notes %q, want %q", tt.tool, tt.args, out.Notes, tt.note)
		}
	}
	// The renamed argument is applied, not only named.
	var l listOutput
	callTool(t, cs, "list_incidents", map[string]any{"component": "dns", "limit": 20}, &l)
	for _, it := range l.Cases {
		if !slices.Contains(it.Components, "dns") {
			t.Errorf("component dns: %s has %v", it.ID, it.Components)
		}
	}
}

// TestTermNames sends filter values as a model reads them on the pages:
// labels in either language, organisations' names, the glossary's Korean
// form, any case. Each is the term id's answer, with a note naming the id.
func TestTermNames(t *testing.T) {
	_, cs := sharedServer(t)
	for _, tt := range []struct {
		arg, value, id, note string
	}{
		{"orgs", "UK Ministry of Justice", "uk-ministry-of-justice", `orgs: "UK Ministry of Justice" was taken as the term "uk-ministry-of-justice".`},
		{"orgs", "영국 법무부", "uk-ministry-of-justice", `orgs 인자의 "영국 법무부" 값은 용어 "uk-ministry-of-justice"에 맞췄습니다.`},
		{"orgs", "HubSpot", "hubspot", ""},
		{"orgs", "허브스팟", "hubspot", `orgs 인자의 "허브스팟" 값은 용어 "hubspot"에 맞췄습니다.`},
		{"components", "인그레스", "ingress", `components 인자의 "인그레스" 값은 용어 "ingress"에 맞췄습니다.`},
		{"components", "Ingress Controller", "ingress", `components: "Ingress Controller" was taken as the term "ingress".`},
		{"components", "인그레스 컨트롤러", "ingress", ""},
		{"components", "CLOUD_LOAD_BALANCER", "cloud-load-balancer", ""},
		{"root_causes", "Software defect", "software-bug", ""},
		{"root_causes", "software_bug", "software-bug", ""},
		{"impact_levels", "전면 장애", "full-outage", ""},
		{"domains", "Google Cloud", "gcp", ""},
		{"orgs", "Google Cloud", "google-cloud", ""},
	} {
		var byID, byName listOutput
		callTool(t, cs, "list_incidents", map[string]any{tt.arg: tt.id}, &byID)
		args := map[string]any{tt.arg: []any{tt.value}}
		if hasHangul(tt.value) {
			args["lang"] = "ko"
		}
		callTool(t, cs, "list_incidents", args, &byName)
		if byID.Total == 0 || byName.Total != byID.Total {
			t.Errorf("%s %q: %d cases, by id %q %d", tt.arg, tt.value, byName.Total, tt.id, byID.Total)
		}
		if tt.note != "" && !slices.Contains(byName.Notes, tt.note) {
			t.Errorf("%s %q: notes %q, want %q", tt.arg, tt.value, byName.Notes, tt.note)
		}
		if tt.value != tt.id && len(byName.Notes) == 0 && !strings.EqualFold(tt.value, tt.id) {
			t.Errorf("%s %q: taken as %s silently", tt.arg, tt.value, tt.id)
		}
	}
	// get_topic takes the same names: "SEV1" is the severity sev1.
	var topic topicOutput
	callTool(t, cs, "get_topic", map[string]any{"facet": "severities", "term": "SEV1"}, &topic)
	if topic.Term != "sev1" || topic.Count == 0 {
		t.Errorf("get_topic severities SEV1: term %q, %d cases", topic.Term, topic.Count)
	}
	callTool(t, cs, "get_topic", map[string]any{"facet": "orgs", "term": "UK Ministry of Justice", "lang": "ko"}, &topic)
	if topic.Term != "uk-ministry-of-justice" || topic.Label != "영국 법무부" {
		t.Errorf("get_topic orgs by name: %+v", topic)
	}
	// Every hit names its organisation's id and its name.
	var s searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress", "limit": 15}, &s)
	for _, it := range s.Cases {
		if it.OrgSlug == "" || it.Org == "" {
			t.Errorf("%s: org %q, org_slug %q", it.ID, it.Org, it.OrgSlug)
		}
	}
}
