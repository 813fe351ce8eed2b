package cases

import (
	"strings"
	"testing"
)

// TestTimeline: the durations come in order, the moments come after the
// start, and a duration that its two moments contradict by more than 10%
// is named with both; a moment is read with its zone, or marked as having
// none.
func TestTimeline(t *testing.T) {
	load := func(timeline map[string]any) (*Library, []string) {
		t.Helper()
		m := contentFS(t)
		edit(t, m, "cases/IL-0495.json", func(c map[string]any) { c["timeline"] = timeline })
		lib, list := Load(m)
		var out []string
		for _, d := range list.Items {
			if d.File == "cases/IL-0495.json" {
				out = append(out, d.String())
			}
		}
		return lib, out
	}
	tl := func(kv ...any) map[string]any {
		m := map[string]any{"detected_after": nil, "resolved_after": nil}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name     string
		timeline map[string]any
		want     string // a problem's text; "" for none
		warning  bool
	}{
		{"agree", tl("started_at", "2024-08-27T14:20Z", "resolved_at", "2024-08-27T15:16Z", "resolved_after", "56m", "detected_after", "3m", "detected_at", "2024-08-27T14:23Z"), "", false},
		{"agree within 10%", tl("started_at", "2024-08-27T14:20", "resolved_at", "2024-08-27T15:20", "resolved_after", "56m"), "", false},
		{"an hour apart", tl("started_at", "2024-08-27T14:20Z", "resolved_at", "2024-08-27T16:16Z", "resolved_after", "56m"),
			"timeline.resolved_after: 56m, but started_at 2024-08-27T14:20Z to resolved_at 2024-08-27T16:16Z is 1h56m: the two disagree by more than 10%", true},
		{"across zones", tl("started_at", "2024-08-27T14:20Z", "mitigated_at", "2024-08-27T23:40+09:00", "mitigated_after", "20m", "resolved_after", "56m"), "", false},
		{"across days", tl("started_at", "2024-08-27T15:31", "resolved_at", "2024-08-28T10:29", "resolved_after", "5h3m"),
			"timeline.resolved_after: 5h3m, but started_at 2024-08-27T15:31 to resolved_at 2024-08-28T10:29 is 18h58m", true},
		{"before the start", tl("started_at", "2024-08-27T14:20Z", "detected_at", "2024-08-27T14:10Z"),
			`timeline.detected_at: "2024-08-27T14:10Z" is before started_at "2024-08-27T14:20Z"`, false},
		{"zone and none", tl("started_at", "2024-08-27T14:20Z", "detected_at", "2024-08-27T14:30"),
			"one names a time zone and the other does not", true},
		{"no such time", tl("started_at", "2024-08-27T25:20Z"), `timeline.started_at: "2024-08-27T25:20Z" is not a real time`, false},
		{"not a moment", tl("started_at", "14:20 UTC"), `timeline.started_at: "14:20 UTC" is not a moment like 2024-08-27T14:20Z`, false},
		{"mitigated after the end", tl("mitigated_after", "1h", "resolved_after", "56m"),
			"timeline.mitigated_after: mitigated after 1h but resolved after 56m: an impact is over no sooner than it was mitigated", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := load(tc.timeline)
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("problems: %q", got)
				}
				return
			}
			kind := "error"
			if tc.warning {
				kind = "warning"
			}
			for _, g := range got {
				if strings.Contains(g, tc.want) && strings.Contains(g, "warning:") == tc.warning {
					return
				}
			}
			t.Errorf("no %s with %q in %q", kind, tc.want, got)
		})
	}

	lib, got := load(tl("started_at", "2024-08-27T14:20+09:00", "mitigated_after", "20m", "resolved_after", "56m"))
	if len(got) > 0 {
		t.Fatalf("problems: %q", got)
	}
	c := lib.ByID["IL-0495"].Timeline
	if c.MitigatedAfter == nil || *c.MitigatedAfter != 20 || c.StartedAt == nil || !c.StartedAt.Zoned || c.StartedAt.Time.UTC().Hour() != 5 || c.StartedAt.Text != "2024-08-27T14:20+09:00" {
		t.Errorf("read as %+v, started at %+v", c, c.StartedAt)
	}
}

// TestImpactLevelAndArchive: impact_level is a term of its vocabulary,
// severity may be left out (then it is "unknown"), and an archived copy may
// be "none", which pages show as no copy.
func TestImpactLevelAndArchive(t *testing.T) {
	m := contentFS(t)
	edit(t, m, "cases/IL-0495.json", func(c map[string]any) {
		c["impact_level"] = "partial-outage"
		delete(c, "severity")
		c["sources"].([]any)[0].(map[string]any)["archived"] = "none"
	})
	lib, list := Load(m)
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	c := lib.ByID["IL-0495"]
	if c.ImpactLevel != "partial-outage" || c.Severity != "unknown" || c.Sources[0].Archived != "" {
		t.Errorf("impact %q, severity %q, archived %q", c.ImpactLevel, c.Severity, c.Sources[0].Archived)
	}
	edit(t, m, "cases/IL-0495.json", func(c map[string]any) {
		c["impact_level"] = "partial-outtage"
		c["sources"].([]any)[0].(map[string]any)["archived"] = "nope"
	})
	_, list = Load(m)
	has(t, list, "cases/IL-0495.json", `impact_level: unknown term "partial-outtage"`, false, true)
	has(t, list, "cases/IL-0495.json", `(did you mean "partial-outage"?)`, false, true)
	has(t, list, "cases/IL-0495.json", `sources[0].archived: "nope" is not "none" (no archived copy is known) or an http or https URL`, false, true)
}
