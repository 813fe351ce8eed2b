package mcpserver

import (
	"encoding/json"
	"fmt"
	"incidentlib/internal/markup"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

type termCount struct {
	ID    string `json:"id" jsonschema:"the term id"`
	Label string `json:"label" jsonschema:"the term's label in the answer's language"`
	Cases int    `json:"cases" jsonschema:"number of the topic's cases with this term"`
}

// topicStats are a topic's statistics. In JSON, each facet of
// cases.StatsFacets has its most common terms under its argument name
// ("root_causes"), before the years: MarshalJSON and UnmarshalJSON write and
// read them, and topicSchema declares them.
type topicStats struct {
	Top           map[string][]termCount `json:"-"` // by facet name
	Years         []termCount            `json:"years" jsonschema:"cases per year, oldest first"`
	MedianDetect  *int                   `json:"median_minutes_to_detect,omitempty" jsonschema:"median minutes to detect; absent when no case knows"`
	MedianResolve *int                   `json:"median_minutes_to_resolve,omitempty" jsonschema:"median minutes to resolve; absent when no case knows"`
	KnownDetect   int                    `json:"known_detect" jsonschema:"cases whose time to detect is known"`
	KnownResolve  int                    `json:"known_resolve" jsonschema:"cases whose time to resolve is known"`
}

type topicOutput struct {
	Facet       string      `json:"facet" jsonschema:"the facet"`
	Argument    string      `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Term        string      `json:"term" jsonschema:"the term id"`
	Lang        string      `json:"lang" jsonschema:"the language of the answer"`
	Label       string      `json:"label" jsonschema:"the term's label"`
	Description string      `json:"description,omitempty" jsonschema:"what the term means"`
	Intro       string      `json:"intro,omitempty" jsonschema:"the topic page's introduction, Markdown"`
	Count       int         `json:"count" jsonschema:"number of cases; 0 when none has the term"`
	URL         string      `json:"url,omitempty" jsonschema:"the topic page; absent when the term has no cases"`
	Stats       *topicStats `json:"stats,omitempty" jsonschema:"statistics of the topic's cases; absent when it has none"`
	Cases       []caseItem  `json:"cases" jsonschema:"the newest cases, as on the first page of the topic"`
	More        int         `json:"more" jsonschema:"cases not listed here; list_incidents with this facet's filter lists them all"`
	Notes       []string    `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

// statsFields is topicStats without its methods.
type statsFields topicStats

func (s topicStats) MarshalJSON() ([]byte, error) {
	rest, err := json.Marshal(statsFields(s))
	if err != nil {
		return nil, err
	}
	b := []byte{'{'}
	for _, f := range cases.StatsFacets() {
		terms := s.Top[f.Name]
		if terms == nil {
			terms = []termCount{}
		}
		v, err := json.Marshal(terms)
		if err != nil {
			return nil, err
		}
		b = append(strconv.AppendQuote(b, f.Arg()), ':')
		b = append(append(b, v...), ',')
	}
	return append(b, rest[1:]...), nil // rest is an object with years in it
}

func (s *topicStats) UnmarshalJSON(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	if err := json.Unmarshal(data, (*statsFields)(s)); err != nil {
		return err
	}
	s.Top = map[string][]termCount{}
	for _, f := range cases.StatsFacets() {
		var terms []termCount
		if raw, ok := top[f.Arg()]; ok {
			if err := json.Unmarshal(raw, &terms); err != nil {
				return err
			}
		}
		s.Top[f.Name] = terms
	}
	return nil
}

// topicSchema is get_topic's output schema: topicOutput's, with a list of
// most common terms in the statistics for each facet of cases.StatsFacets.
func topicSchema() *jsonschema.Schema {
	s := outputSchema[topicOutput]()
	st := s.Properties["stats"]
	var names []string
	for _, f := range cases.StatsFacets() {
		desc := f.Top.En
		desc = strings.ToLower(desc[:1]) + desc[1:]
		st.Properties[f.Arg()] = &jsonschema.Schema{Type: "array", Description: desc, Items: st.Properties["years"].Items.CloneSchemas()}
		names = append(names, f.Arg())
	}
	st.Required = append(names, st.Required...)
	st.PropertyOrder = append(names, st.PropertyOrder...)
	return s
}

func getTopic(m *model, c *call) (string, any, error) {
	facet, err := facetOf(c, c.str("facet"))
	if err != nil {
		return "", nil, err
	}
	term, err := m.resolveTerm(c, facet, c.str("term"), "term")
	if err != nil {
		return "", nil, err
	}
	t := m.model.Topics()[facet].Topic(term)
	if t == nil {
		if err := m.checkTerm(c, facet, term, "term"); err != nil {
			return "", nil, err
		}
		out := topicOutput{Facet: facet, Argument: argName(facet), Term: term, Lang: c.lang, Label: term, Cases: []caseItem{}, Notes: c.notes}
		if vt, ok := m.vocabTerm(facet, term); ok {
			out.Label = vt.Label.Get(c.lang)
			out.Description, _ = vt.Description.In(c.lang)
		}
		text := fmt.Sprintf("# %s (%s: %s)\n\n%s\n", out.Label, cases.FacetByName(facet).Label.Get(c.lang), term, c.t("topic.empty"))
		return text, out, nil
	}
	out := m.topicOutput(t, facet, c.lang)
	out.Notes = c.notes
	return m.topicText(c, out, t), out, nil
}

// topicOutput is what get_topic answers about a topic, as data.
func (m *model) topicOutput(t *library.Topic, facet, lang string) topicOutput {
	counts := func(f *cases.Facet, tcs []library.TermCount) []termCount {
		out := make([]termCount, len(tcs))
		for i, tc := range tcs {
			out[i] = termCount{ID: tc.ID, Label: tc.ID, Cases: tc.Count}
			if t := m.model.Topics()[f.Name].Topic(tc.ID); t != nil && t.Label.Get(lang) != "" {
				out[i].Label = t.Label.Get(lang)
			}
		}
		return out
	}
	out := topicOutput{Facet: facet, Argument: argName(facet), Term: t.ID, Lang: lang, Count: len(t.Cases), URL: m.site.URL(urls.Topic(lang, facet, t.ID, 1))}
	out.Label, _ = t.Label.In(lang)
	if l, ok := m.labels[facet][t.ID]; ok && l[langIndex(lang)] != "" {
		out.Label = l[langIndex(lang)] // an organisation's Korean name
	}
	out.Description, _ = t.Description.In(lang)
	if intro, ok := m.lib.Topics[facet][t.ID]; ok {
		out.Intro, _ = intro.In(lang)
	}
	st := t.Stats()
	out.Stats = &topicStats{
		Top: map[string][]termCount{}, Years: counts(cases.Years, st.Years),
		MedianDetect: st.MedianDetect, MedianResolve: st.MedianResolve, KnownDetect: st.KnownDetect, KnownResolve: st.KnownResolve,
	}
	for _, f := range cases.StatsFacets() {
		out.Stats.Top[f.Name] = counts(f, st.Top[f.Name])
	}
	shown := t.Cases[:min(len(t.Cases), m.lib.Settings.PageSize)]
	out.Cases = make([]caseItem, len(shown))
	for i, c := range shown {
		out.Cases[i] = m.item(c, lang)
	}
	out.More = len(t.Cases) - len(shown)
	return out
}

// topicText is get_topic's answer as Markdown.
func (m *model) topicText(c *call, out topicOutput, t *library.Topic) string {
	str, lang := m.site.Strings(), c.lang
	st := t.Stats()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s: %s)\n\n%s · %s\n", markup.MarkdownLine(out.Label), cases.FacetByName(out.Facet).Label.Get(lang), t.ID, l10n.Cases(lang, out.Count), out.URL)
	if out.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", markup.MarkdownText(out.Description))
	}
	if out.Intro != "" {
		fmt.Fprintf(&b, "\n%s\n", markup.MarkdownText(strings.TrimSpace(out.Intro)))
	}
	fmt.Fprintf(&b, "\n## %s\n\n", str.Get(lang, "stats.title"))
	type group struct {
		title string
		items []termCount
	}
	var groups []group
	for _, f := range cases.StatsFacets() {
		groups = append(groups, group{f.Top.Get(lang), out.Stats.Top[f.Name]})
	}
	for _, g := range append(groups, group{str.Get(lang, "stats.years"), out.Stats.Years}) {
		if len(g.items) == 0 {
			continue
		}
		parts := make([]string, len(g.items))
		for i, it := range g.items {
			parts[i] = fmt.Sprintf("%s (%s)", it.Label, l10n.Count(lang, it.Cases))
		}
		fmt.Fprintf(&b, "- %s: %s\n", g.title, strings.Join(parts, ", "))
	}
	for _, md := range []struct {
		key          string
		median       *int
		known, total int
	}{{"stats.median_detect", st.MedianDetect, st.KnownDetect, st.Total}, {"stats.median_resolve", st.MedianResolve, st.KnownResolve, st.Total}} {
		if md.median != nil {
			fmt.Fprintf(&b, "- %s: %s (%s)\n", str.Get(lang, md.key), l10n.Duration(lang, *md.median),
				fmt.Sprintf(str.Get(lang, "stats.known_of"), l10n.Number(md.known), l10n.Number(md.total)))
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n", str.Get(lang, "nav.cases"))
	writeItems(&b, c, out.Cases)
	if out.More > 0 {
		b.WriteString("\n" + c.t("topic.more", l10n.Count(lang, out.More), fmt.Sprintf("{%q: [%q]}", out.Argument, t.ID)) + "\n")
	}
	return b.String()
}
