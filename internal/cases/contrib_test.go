package cases

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestContributorMessages loads IL-0495 with one mistake at a time and
// reads the message a contributor gets: where, and what to write instead.
func TestContributorMessages(t *testing.T) {
	defer func(f func() time.Time) { clock = f }(clock)
	clock = func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }
	b, err := os.ReadFile("../../content/cases/IL-0495.json")
	if err != nil {
		t.Fatal(err)
	}
	// The updated_at the test moves is the one contentFS gives every case.
	src := string(pastUpdate.ReplaceAll(b, []byte(`${1}"2026-11-14T12:34:13.999947Z"`)))
	for _, tt := range []struct {
		from, to string
		want     string // the whole message after the file name and position
		warning  bool
	}{
		{`"severity":"unknown"`, `"severity":"SEV1"`, `severity: unknown term "SEV1" (did you mean "sev1"?)`, false},
		{`"severity":"unknown"`, `"severity":"sev9"`, `severity: unknown term "sev9" (did you mean "sev1"?)`, false},
		{`"symptoms":["readiness-probe-failures"`, `"symptoms":["ingress"`, `symptoms[0]: unknown term "ingress": "ingress" is a components term, not a symptoms one`, false},
		{`"domain":["kubernetes","networking"]`, `"domain":["kubernetes","frobnicate"]`, `domain[1]: unknown term "frobnicate" (the domain terms are "kubernetes", "networking", "gcp", "aws", "azure", "databases", "storage", "security")`, false},
		{`"components":["ingress","health-probe"]`, `"components":["ingress","frobnicator"]`, `components[1]: unknown term "frobnicator"`, false},
		{`"related":[]`, `"related":["IL-1234"]`, `related[0]: no case with id "IL-1234"`, false},
		{`"related":[]`, `"related":["IL-0496"]`, `related[0]: no case with id "IL-0496"`, false}, // not the case itself
		{`"related":[]`, `"related":["IL-0150"]`, `related[0]: no case with id "IL-0150" (did you mean "IL-0110"?)`, false},
		{`"related":[]`, `"related":["IL-0101"]`, `related[0]: no case with id "IL-0101" (did you mean "IL-0011"?)`, false},
		{`"recurrence_of":null`, `"recurrence_of":"IL-9999"`, `recurrence_of: no case with id "IL-9999"`, false},
		{`"date":"2024-08-27"`, `"date":"2031-08-27"`, `date: "2031-08-27" is in the future (today is 2026-12-01 in the latest time zone): ` + futureFix, true},
		{`"date":"2024-08-27"`, `"date":"2027"`, `date: "2027" is in the future (today is 2026-12-01 in the latest time zone): ` + futureFix, true},
		{`"updated_at":"2026-11-14T12:34:13.999947Z"`, `"updated_at":"2062-11-14T12:34:13Z"`, `updated_at: "2062-11-14T12:34:13Z" is in the future (today is 2026-12-01 in the latest time zone): ` + futureFix, true},
		{`"reviewed_at":null`, `"reviewed_at":"2027-01-01"`, `review.reviewed_at: "2027-01-01" is in the future (today is 2026-12-01 in the latest time zone): ` + futureFix, true},
		{`"org_slug":"hubspot"`, `"org_slug":"hubspott"`, `org_slug: organisation "hubspott" has no entry in vocab.json's orgs, so search will not find it by its Korean name (did you mean "hubspot"?)`, true},
		{`"org_slug":"hubspot"`, `"org_slug":"acme"`, `org_slug: organisation "acme" has no entry in vocab.json's orgs, so search will not find it by its Korean name: add {"id": "acme", "en": "HubSpot", "ko": "…"} to vocab.json's orgs, with its name as Korean engineers spell it`, true},
	} {
		if !strings.Contains(src, tt.from) {
			t.Fatalf("IL-0495 no longer holds %s", tt.from)
		}
		m := fixture(t)
		for _, id := range []string{"IL-0110", "IL-0011"} {
			other, err := os.ReadFile("../../content/cases/" + id + ".json")
			if err != nil {
				t.Fatal(err)
			}
			m["cases/"+id+".json"] = &fstest.MapFile{Data: other}
		}
		edited := strings.Replace(src, tt.from, tt.to, 1)
		m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(edited)}
		_, list := Load(m)
		found := false
		for _, d := range list.Items {
			if d.File != "cases/IL-0495.json" || d.Line == 0 {
				continue
			}
			msg := d.Field + ": " + d.Msg
			if msg == tt.want && d.Warning == tt.warning {
				found = true
				// The position is the value's: the column of its opening quote or first byte.
				if off := strings.Index(edited, tt.to) + strings.LastIndex(tt.to, lastValue(tt.to)); d.Line != 1 || d.Col != 1+len([]rune(edited[:off])) {
					t.Errorf("%s: at %d:%d, want 1:%d", tt.to, d.Line, d.Col, 1+len([]rune(edited[:off])))
				}
			}
		}
		if !found {
			var got []string
			for _, d := range list.Items {
				got = append(got, d.String())
			}
			t.Errorf("%s: no %s %q in\n%s", tt.to, map[bool]string{true: "warning", false: "error"}[tt.warning], tt.want, strings.Join(got, "\n"))
		}
	}
}

// lastValue returns the JSON string that ends s, a member or an array with
// its last element: the value a message points at.
func lastValue(s string) string {
	s = strings.TrimSuffix(s, "]")
	i := strings.LastIndex(strings.TrimSuffix(s, `"`), `"`)
	return s[i:]
}

func TestSwappedAndCloseID(t *testing.T) {
	ids := []string{"IL-0011", "IL-0110", "IL-0495"}
	for _, tt := range []struct{ in, want string }{
		{"IL-0101", ` (did you mean "IL-0011"?)`},
		{"IL-0111", ` (did you mean "IL-0011"?)`},
		{"IL-1234", ""},
		{"IL-0496", ""}, // only the case itself is that close
	} {
		if got := newSuggester(ids).closeID(tt.in, "IL-0495"); got != tt.want {
			t.Errorf("CloseID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
