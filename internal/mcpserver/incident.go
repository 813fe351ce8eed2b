package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

type casePage struct {
	Lang  string `json:"lang" jsonschema:"en or ko"`
	Title string `json:"title" jsonschema:"the case's title in this language"`
	URL   string `json:"url" jsonschema:"the case's page in this language"`
}

// durations are a case's times from the start of its impact.
type durations struct {
	Detect   *int `json:"minutes_to_detect,omitempty" jsonschema:"minutes from the start of the impact until it was detected; absent when unknown"`
	Mitigate *int `json:"minutes_to_mitigate,omitempty" jsonschema:"minutes until it was mitigated; absent when unknown"`
	Resolve  *int `json:"minutes_to_resolve,omitempty" jsonschema:"minutes until it was over; absent when unknown"`
}

type source struct {
	URL      string `json:"url" jsonschema:"where the case's facts come from"`
	Kind     string `json:"kind,omitempty" jsonschema:"what the source is, such as postmortem or status-page"`
	Archived string `json:"archived,omitempty" jsonschema:"an archived copy of the source"`
}

type relatedCase struct {
	ID     string `json:"id" jsonschema:"the related case's id (its title is in the text's list of related cases)"`
	Reason string `json:"reason" jsonschema:"why it is related, as the case page says it"`
}

// incidentOutput is a case's data; the text block carries its page.
type incidentOutput struct {
	ID           string        `json:"id" jsonschema:"the case id"`
	Title        string        `json:"title" jsonschema:"the case's title in the answer's language (the first of both)"`
	Summary      string        `json:"summary" jsonschema:"the case's summary in the answer's language (the first of both)"`
	Org          string        `json:"org" jsonschema:"the organisation that had the incident, named as the case's page in the answer's language (the first of both) names it"`
	OrgSlug      string        `json:"org_slug" jsonschema:"the organisation's id, the term id of the orgs filter"`
	Date         string        `json:"date" jsonschema:"date of the incident: YYYY-MM-DD, YYYY-MM or YYYY; empty when unknown"`
	DateText     string        `json:"date_text" jsonschema:"the date as the case's page in the answer's language (the first of both) writes it (11 July 2022, 2022년 7월 11일); empty when unknown"`
	Impact       string        `json:"impact_level" jsonschema:"impact level term id: the worst effect on users; empty when the case gives none"`
	Severity     string        `json:"severity" jsonschema:"the organisation's own severity term id, or unknown"`
	RootCause    string        `json:"root_cause" jsonschema:"root cause term id"`
	Components   []string      `json:"components" jsonschema:"component term ids"`
	Symptoms     []string      `json:"symptoms" jsonschema:"symptom term ids"`
	Contributing []string      `json:"contributing" jsonschema:"contributing factor term ids"`
	Domains      []string      `json:"domains" jsonschema:"domain term ids"`
	Durations    durations     `json:"durations" jsonschema:"how long the impact lasted until it was detected, mitigated and over"`
	Sources      []source      `json:"sources" jsonschema:"the public documents the case is written from"`
	Related      []relatedCase `json:"related" jsonschema:"the related cases its page lists, closest first, with the reason"`
	Pages        []casePage    `json:"pages" jsonschema:"the case's title and page in each language of the answer"`
	Resource     string        `json:"resource" jsonschema:"the case as an MCP resource, both languages"`
	Notes        []string      `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
	// other is the language of the page left out of an answer in both
	// languages that would not fit, given as a resource link instead.
	other string
}

// incidentBudget bounds get_incident's pages and data together, under the
// 20 KB of an answer with room for its notes and the envelope.
const incidentBudget = 18 << 10

// lookup finds a case by an id argument.
func (m *model) lookup(c *call, arg string) (*cases.Case, error) {
	id := strings.ToUpper(strings.TrimSpace(arg))
	if cs := m.lib.ByID[id]; cs != nil {
		return cs, nil
	}
	example := "IL-0495"
	if len(m.lib.Cases) > 0 {
		example = m.lib.Cases[0].ID
	}
	if !cases.IsID(id) {
		return nil, c.fail("err.bad_id", echo(arg), example)
	}
	ids := make([]string, len(m.lib.Cases))
	for i, cs := range m.lib.Cases {
		ids[i] = cs.ID
	}
	return nil, c.fail("err.no_case", id, c.didYouMean(id, ids))
}

func getIncident(m *model, c *call) (string, any, error) {
	langs := []string{c.lang}
	if c.str("lang") == "both" {
		langs = cases.Languages
	}
	cs, err := m.lookup(c, c.str("id"))
	if err != nil {
		return "", nil, err
	}
	out := incidentOutput{ID: cs.ID, Org: cs.OrgName().Get(langs[0]), OrgSlug: cs.OrgSlug, Date: cs.Date.String(), DateText: dateText(langs[0], cs.Date), Impact: cs.ImpactLevel, Severity: cs.Severity, RootCause: cs.RootCause,
		Components: nonNil(cs.Components), Symptoms: nonNil(cs.Symptoms), Contributing: nonNil(cs.Contributing), Domains: nonNil(cs.Domain),
		Pages: []casePage{}, Resource: caseURI(cs.ID)}
	out.Title, _ = cs.Title.In(langs[0])
	out.Summary, _ = cs.Summary.In(langs[0])
	m.caseFacts(&out, cs, langs[0])
	var pages []string
	for _, lang := range langs {
		p := casePage{Lang: lang, URL: m.site.URL(urls.Case(lang, cs.ID))}
		p.Title, _ = cs.Title.In(lang)
		out.Pages = append(out.Pages, p)
		md, err := m.caseMarkdown(cs, lang)
		if err != nil {
			return "", nil, err
		}
		pages = append(pages, string(md)+fmt.Sprintf(msgs.Get(lang, "incident.page"), p.URL)+"\n")
	}
	// Two pages of a long case may not fit in one answer (the pages of a
	// long case are 8 KB each, its data 4 KB): the second is then a
	// resource link, and a note says which.
	data, _ := json.Marshal(out)
	if len(pages) == 2 && len(pages[0])+len(pages[1])+len(data) > incidentBudget {
		pages, out.other = pages[:1], langs[1]
		c.note("note.other_page", caseURI(cs.ID)+"?lang="+langs[1])
	}
	out.Notes = c.notes
	return strings.Join(pages, "\n---\n\n"), out, nil
}

// caseFacts fills the durations, sources and related cases of out.
func (m *model) caseFacts(out *incidentOutput, cs *cases.Case, lang string) {
	minutes := func(d *cases.Duration) *int {
		if d == nil {
			return nil
		}
		n := int(*d)
		return &n
	}
	tl := cs.Timeline
	out.Durations = durations{minutes(tl.DetectedAfter), minutes(tl.MitigatedAfter), minutes(tl.ResolvedAfter)}
	out.Sources = []source{}
	for _, src := range cs.Sources {
		out.Sources = append(out.Sources, source{src.URL, src.Kind, src.Archived})
	}
	out.Related = []relatedCase{}
	for _, g := range m.model.Related(cs.ID) {
		for _, l := range g.Links {
			out.Related = append(out.Related, relatedCase{ID: l.ID, Reason: m.model.Reason(m.site.Strings(), lang, l.Kind, l.Reason)})
		}
	}
}

// caseMarkdown returns the Markdown twin of a case page in lang, as the
// build writes it beside the page, except that the links to related cases
// are the absolute URLs of their twins: the reader of an MCP answer has no
// page for a relative link to start from.
func (m *model) caseMarkdown(c *cases.Case, lang string) ([]byte, error) {
	var b bytes.Buffer
	err := m.site.CaseMarkdown(&b, c, lang, true)
	return b.Bytes(), err
}
