// Package api writes the library as data for scripts and AI tools: the static
// JSON API under api/v1/, a Markdown twin of every case page, llms.txt at the
// root, and the JSON Schema of the case format. Everything here is plain
// files; nothing runs on a server.
package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/site"
)

// Version is the API's path segment.
const Version = "v1"

// Write writes every API file through write.
func Write(s *site.Site, write func(path string, data []byte) error) error {
	w := &writer{s: s, lib: s.Library(), write: write, base: s.BaseURL()}
	for _, step := range []func() error{w.caseFiles, w.list, w.vocab, w.topics, w.schema, w.llms} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

type writer struct {
	s     *site.Site
	lib   *cases.Library
	write func(string, []byte) error
	base  string
}

func (w *writer) json(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return w.write(path, b.Bytes())
}

func prefix(p string) string { return "api/" + Version + "/" + p }

// Bilingual is a text in both languages.
type Bilingual struct {
	En string `json:"en"`
	Ko string `json:"ko"`
}

func bi(t cases.Text) Bilingual { return Bilingual{En: t.En, Ko: t.Ko} }

// URLs are a case's pages in both languages.
type URLs struct {
	En string `json:"en"`
	Ko string `json:"ko"`
}

// Summary is a case in cases.json.
type Summary struct {
	ID           string    `json:"id"`
	Org          string    `json:"org"`
	OrgSlug      string    `json:"org_slug"`
	Date         string    `json:"date"`
	Title        Bilingual `json:"title"`
	Severity     string    `json:"severity"`
	RootCause    string    `json:"root_cause"`
	Components   []string  `json:"components"`
	Symptoms     []string  `json:"symptoms"`
	Contributing []string  `json:"contributing"`
	Domain       []string  `json:"domain"`
	UpdatedAt    string    `json:"updated_at"`
	Pages        URLs      `json:"pages"`
	JSON         string    `json:"json"`
}

func (w *writer) summary(c *cases.Case) Summary {
	return Summary{
		ID: c.ID, Org: c.Org, OrgSlug: c.OrgSlug, Date: c.Date.String(), Title: bi(c.Title),
		Severity: c.Severity, RootCause: c.RootCause, Components: nonNil(c.Components), Symptoms: nonNil(c.Symptoms),
		Contributing: nonNil(c.Contributing), Domain: nonNil(c.Domain), UpdatedAt: c.UpdatedAt.Format("2006-01-02T15:04:05Z07:00"),
		Pages: URLs{En: w.base + "en/cases/" + c.ID + "/", Ko: w.base + "ko/cases/" + c.ID + "/"},
		JSON:  w.base + prefix("cases/"+c.ID+".json"),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (w *writer) list() error {
	out := struct {
		Version string    `json:"version"`
		Count   int       `json:"count"`
		Cases   []Summary `json:"cases"`
	}{Version: Version, Count: len(w.lib.Cases)}
	for _, c := range w.lib.Cases {
		out.Cases = append(out.Cases, w.summary(c))
	}
	return w.json(prefix("cases.json"), out)
}

// Similar is one entry of similar.json.
type Similar struct {
	ID     string    `json:"id"`
	Kind   string    `json:"kind"`
	Score  float64   `json:"score"`
	Reason Bilingual `json:"reason"`
	Shared struct {
		SameRootCause bool     `json:"same_root_cause"`
		Components    []string `json:"components"`
		Contributing  []string `json:"contributing"`
		Symptoms      []string `json:"symptoms"`
	} `json:"shared"`
	Title Bilingual `json:"title"`
	Pages URLs      `json:"pages"`
}

func (w *writer) caseFiles() error {
	for _, c := range w.lib.Cases {
		// The case as in the input, byte for byte.
		if err := w.write(prefix("cases/"+c.ID+".json"), []byte(c.Raw)); err != nil {
			return err
		}
		sim := struct {
			ID      string    `json:"id"`
			Similar []Similar `json:"similar"`
		}{ID: c.ID, Similar: []Similar{}}
		for _, g := range w.s.Related(c.ID) {
			for _, l := range g.Links {
				rc := w.lib.ByID[l.ID]
				e := Similar{ID: l.ID, Kind: l.Kind.String(), Score: float64(int(l.Score*1000)) / 1000,
					Reason: Bilingual{En: w.s.Reason("en", l.Kind, l.Reason), Ko: w.s.Reason("ko", l.Kind, l.Reason)},
					Title:  bi(rc.Title), Pages: URLs{En: w.base + "en/cases/" + l.ID + "/", Ko: w.base + "ko/cases/" + l.ID + "/"}}
				e.Shared.SameRootCause = l.SameRootCause
				e.Shared.Components, e.Shared.Contributing, e.Shared.Symptoms = nonNil(l.Components), nonNil(l.Contributing), nonNil(l.Symptoms)
				sim.Similar = append(sim.Similar, e)
			}
		}
		if err := w.json(prefix("cases/"+c.ID+"/similar.json"), sim); err != nil {
			return err
		}
		for _, lang := range cases.Languages {
			if err := w.write(lang+"/cases/"+c.ID+"/index.md", []byte(w.markdown(c, lang))); err != nil {
				return err
			}
		}
	}
	return nil
}

// Term is a vocabulary term in vocab.json.
type Term struct {
	ID          string     `json:"id"`
	En          string     `json:"en"`
	Ko          string     `json:"ko"`
	Description *Bilingual `json:"description,omitempty"`
	Cases       int        `json:"cases"`
	Topic       URLs       `json:"topic"`
	JSON        string     `json:"json"`
}

func (w *writer) vocab() error {
	out := map[string][]Term{}
	for _, field := range cases.VocabFields {
		facet := facetOf(field)
		terms := []Term{}
		for _, t := range w.lib.Vocab.Terms(field) {
			n := 0
			if tp := w.s.Facets()[facet].Topic(t.ID); tp != nil {
				n = len(tp.Cases)
			}
			term := Term{ID: t.ID, En: t.Label.En, Ko: t.Label.Ko, Cases: n,
				Topic: URLs{En: w.base + "en/" + facet + "/" + t.ID + "/", Ko: w.base + "ko/" + facet + "/" + t.ID + "/"},
				JSON:  w.base + prefix("topics/"+facet+"/"+t.ID+".json")}
			if !t.Description.IsZero() {
				d := bi(t.Description)
				term.Description = &d
			}
			terms = append(terms, term)
		}
		out[field] = terms
	}
	return w.json(prefix("vocab.json"), out)
}

func facetOf(field string) string {
	for f, fld := range cases.FacetField {
		if fld == field {
			return f
		}
	}
	return field
}

func (w *writer) topics() error {
	for _, facet := range cases.Facets {
		for _, t := range w.s.Facets()[facet].Topics {
			st := t.Stats()
			out := struct {
				Facet       string         `json:"facet"`
				ID          string         `json:"id"`
				Label       Bilingual      `json:"label"`
				Description *Bilingual     `json:"description,omitempty"`
				Count       int            `json:"count"`
				Pages       URLs           `json:"pages"`
				Stats       map[string]any `json:"stats"`
				Cases       []string       `json:"cases"`
				CasesJSON   string         `json:"cases_json"`
			}{Facet: facet, ID: t.ID, Label: bi(t.Label), Count: len(t.Cases),
				Pages: URLs{En: w.base + "en/" + facet + "/" + t.ID + "/", Ko: w.base + "ko/" + facet + "/" + t.ID + "/"}}
			if !t.Description.IsZero() {
				d := bi(t.Description)
				out.Description = &d
			}
			out.Stats = map[string]any{
				"components": counts(st.Components), "root_causes": counts(st.RootCauses),
				"contributing": counts(st.Contributing), "years": counts(st.Years),
				"median_minutes_to_detect": st.MedianDetect, "median_minutes_to_resolve": st.MedianResolve,
				"known_detect": st.KnownDetect, "known_resolve": st.KnownResolve,
			}
			// Ids only, newest first: a large topic lists thousands of cases,
			// and cases.json already holds each case's summary once.
			out.Cases = make([]string, len(t.Cases))
			for i, c := range t.Cases {
				out.Cases[i] = c.ID
			}
			out.CasesJSON = w.base + prefix("cases.json")
			if err := w.json(prefix("topics/"+facet+"/"+t.ID+".json"), out); err != nil {
				return err
			}
		}
	}
	return nil
}

type count struct {
	ID    string `json:"id"`
	Cases int    `json:"cases"`
}

func counts(tcs []site.TermCount) []count {
	out := []count{}
	for _, tc := range tcs {
		out = append(out, count{tc.ID, tc.Count})
	}
	return out
}

func (w *writer) schema() error {
	return w.write(prefix("schema/case.json"), cases.JSONSchema(cases.CaseSchema, w.base+prefix("schema/case.json"), "incidentlib case"))
}

// llms writes llms.txt: what the site is and where the data is, for tools
// that read a site before crawling it.
func (w *writer) llms() error {
	var b strings.Builder
	site := w.lib.Site
	fmt.Fprintf(&b, "# %s\n\n> %s\n\n", site.Title.En, site.Description.En)
	fmt.Fprintf(&b, "Every case has an English page (%sen/cases/ID/), a Korean page (%sko/cases/ID/), a Markdown twin of each page (index.md beside index.html) and its JSON in the API. Nothing needs a key.\n\n", w.base, w.base)
	b.WriteString("## Data\n\n")
	fmt.Fprintf(&b, "- [All cases, compact](%s): every case with its pages in both languages\n", w.base+prefix("cases.json"))
	fmt.Fprintf(&b, "- [Vocabulary](%s): controlled terms with English and Korean labels\n", w.base+prefix("vocab.json"))
	fmt.Fprintf(&b, "- [Case schema](%s): JSON Schema of one case\n", w.base+prefix("schema/case.json"))
	fmt.Fprintf(&b, "- One case: %s (as in the source); related cases: %s\n", w.base+prefix("cases/{ID}.json"), w.base+prefix("cases/{ID}/similar.json"))
	fmt.Fprintf(&b, "- One topic: %s\n", w.base+prefix("topics/{facet}/{term}.json"))
	if site.MCP.URL != "" {
		fmt.Fprintf(&b, "- MCP server: %s (tools: %s)\n", site.MCP.URL, strings.Join(site.MCP.Tools, ", "))
	}
	b.WriteString("\n## Cases\n\n")
	for _, c := range w.lib.Cases {
		title, _ := c.Title.In("en")
		fmt.Fprintf(&b, "- [%s: %s](%sen/cases/%s/index.md) (%s, %s)\n", c.ID, title, w.base, c.ID, c.Org, c.Date.String())
	}
	return w.write("llms.txt", []byte(b.String()))
}

// markdown writes a case page as Markdown, section for section.
func (w *writer) markdown(c *cases.Case, lang string) string {
	var b strings.Builder
	str := w.s.Strings()
	t := func(key string) string { return str.Get(lang, key) }
	text := func(x cases.Text) string {
		s, written := x.In(lang)
		if written != lang && s != "" {
			s = "(" + t("notranslation") + ") " + s
		}
		return s
	}
	label := func(field, id string) string {
		if term, ok := w.lib.Vocab.Term(field, id); ok {
			return term.Label.Get(lang)
		}
		return id
	}
	labels := func(field string, ids []string) string {
		var out []string
		for _, id := range ids {
			out = append(out, label(field, id))
		}
		if len(out) == 0 {
			return "–"
		}
		return strings.Join(out, ", ")
	}
	unknown := func(s string) string {
		if s == "" || s == "unknown" {
			return t("unknown")
		}
		return s
	}
	dur := func(d *cases.Duration) string {
		if d == nil {
			return t("unknown")
		}
		return l10n.Duration(lang, int(*d))
	}
	fmt.Fprintf(&b, "# %s: %s\n\n", c.ID, text(c.Title))
	fmt.Fprintf(&b, "%s · %s · %s\n\n", c.Org, l10n.Date(lang, c.Date.Year, c.Date.Month, c.Date.Day), labels("domain", c.Domain))
	fmt.Fprintf(&b, "%s\n\n", text(c.Summary))
	sev := t("unknown")
	if c.Severity != "unknown" {
		sev = label("severity", c.Severity)
	}
	for _, row := range [][2]string{
		{t("fact.severity"), sev}, {t("fact.scope"), unknown(c.Impact.Scope)}, {t("fact.users"), unknown(c.Impact.Users)},
		{t("fact.region"), unknown(c.Impact.Region)}, {t("fact.detect"), dur(c.Timeline.DetectedAfter)}, {t("fact.resolve"), dur(c.Timeline.ResolvedAfter)},
	} {
		fmt.Fprintf(&b, "- %s: %s\n", row[0], row[1])
	}
	section := func(title, body string) { fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, body) }
	section(t("case.symptoms"), labels("symptoms", c.Symptoms)+"\n\n"+text(c.SymptomsText))
	section(t("case.root_cause"), label("root_cause", c.RootCause))
	section(t("case.trigger"), text(c.Trigger))
	section(t("case.components"), labels("components", c.Components))
	section(t("case.contributing"), labels("contributing", c.Contributing))
	section(t("case.detection"), text(c.Detection))
	list := func(items []cases.Text, ordered bool) string {
		var lb strings.Builder
		for i, it := range items {
			if ordered {
				fmt.Fprintf(&lb, "%d. %s\n", i+1, text(it))
			} else {
				fmt.Fprintf(&lb, "- %s\n", text(it))
			}
		}
		return lb.String()
	}
	section(t("case.remediation"), list(c.Remediation, true))
	section(t("case.action_items"), list(c.ActionItems, false))
	if c.Lessons != nil {
		section(t("case.lessons"), text(*c.Lessons))
	} else {
		section(t("case.lessons"), t("case.no_lessons"))
	}
	var src strings.Builder
	for _, s := range c.Sources {
		fmt.Fprintf(&src, "- <%s> (%s)", s.URL, t("source."+s.Kind))
		if s.Archived != "" {
			fmt.Fprintf(&src, ", %s: <%s>", t("case.archived"), s.Archived)
		}
		src.WriteString("\n")
	}
	for _, d := range c.Docs {
		fmt.Fprintf(&src, "- <%s>\n", d)
	}
	section(t("case.sources"), src.String())
	var rel strings.Builder
	for _, g := range w.s.Related(c.ID) {
		for _, l := range g.Links {
			rc := w.lib.ByID[l.ID]
			fmt.Fprintf(&rel, "- [%s: %s](../%s/index.md): %s\n", l.ID, text(rc.Title), l.ID, w.s.Reason(lang, l.Kind, l.Reason))
		}
	}
	if rel.Len() == 0 {
		rel.WriteString(t("case.no_related"))
	}
	section(t("case.related"), rel.String())
	reviewed := t("case.not_reviewed")
	if c.Review.ReviewedAt != nil {
		reviewed = c.Review.ReviewedAt.String()
		if c.Review.ReviewedBy != "" {
			reviewed += " · " + c.Review.ReviewedBy
		}
	}
	section(t("case.review"), fmt.Sprintf("- %s: %s\n- %s: %s\n- %s: %s\n- %s: <%s>\n",
		t("case.written_by"), c.Review.WrittenBy, t("case.reviewed"), reviewed,
		t("case.updated"), c.UpdatedAt.Format("2006-01-02"), t("case.canonical"), c.URL))
	section(t("case.ai"), fmt.Sprintf("- %s: %s\n- %s: %s\n",
		t("case.ai_json"), w.base+prefix("cases/"+c.ID+".json"), t("case.ai_similar"), w.base+prefix("cases/"+c.ID+"/similar.json")))
	return b.String()
}
