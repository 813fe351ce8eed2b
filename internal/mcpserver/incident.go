package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

type casePage struct {
	Lang  string `json:"lang" jsonschema:"en or ko"`
	Title string `json:"title" jsonschema:"the case's title in this language"`
	URL   string `json:"url" jsonschema:"the case's page in this language"`
}

// incidentOutput is a case's data; the text block carries its page.
type incidentOutput struct {
	ID           string     `json:"id" jsonschema:"the case id"`
	Org          string     `json:"org" jsonschema:"the organisation that had the incident, named as the case's page in the answer's language (the first of both) names it"`
	OrgSlug      string     `json:"org_slug" jsonschema:"the organisation's id, the term id of the orgs filter"`
	Date         string     `json:"date" jsonschema:"date of the incident: YYYY-MM-DD, YYYY-MM or YYYY; empty when unknown"`
	DateText     string     `json:"date_text" jsonschema:"the date as the case's page in the answer's language (the first of both) writes it (11 July 2022, 2022년 7월 11일); empty when unknown"`
	Impact       string     `json:"impact_level" jsonschema:"impact level term id: the worst effect on users; empty when the case gives none"`
	Severity     string     `json:"severity" jsonschema:"the organisation's own severity term id, or unknown"`
	RootCause    string     `json:"root_cause" jsonschema:"root cause term id"`
	Components   []string   `json:"components" jsonschema:"component term ids"`
	Symptoms     []string   `json:"symptoms" jsonschema:"symptom term ids"`
	Contributing []string   `json:"contributing" jsonschema:"contributing factor term ids"`
	Domains      []string   `json:"domains" jsonschema:"domain term ids"`
	Related      []string   `json:"related" jsonschema:"ids of the related cases its page lists, closest first"`
	Pages        []casePage `json:"pages" jsonschema:"the case's title and page in each language of the answer"`
	Resource     string     `json:"resource" jsonschema:"the case as an MCP resource, both languages"`
	Notes        []string   `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

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
		Related: []string{}, Pages: []casePage{}, Resource: caseURI(cs.ID)}
	for _, g := range m.model.Related(cs.ID) {
		for _, l := range g.Links {
			out.Related = append(out.Related, l.ID)
		}
	}
	var b strings.Builder
	for i, lang := range langs {
		p := casePage{Lang: lang, URL: m.site.URL(urls.Case(lang, cs.ID))}
		p.Title, _ = cs.Title.In(lang)
		out.Pages = append(out.Pages, p)
		md, err := m.caseMarkdown(cs, lang)
		if err != nil {
			return "", nil, err
		}
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		b.Write(md)
		b.WriteString(fmt.Sprintf(msgs.Get(lang, "incident.page"), p.URL) + "\n")
	}
	out.Notes = c.notes
	return b.String(), out, nil
}

// readCase answers resources/read for incidentlib://cases/{ID}: the case's
// Markdown twin in both languages.
func (s *Server) readCase(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	m, err := s.ready(&call{lang: "en"}) // a resource has no place for the degraded note
	if err != nil {
		// Not the client's fault: the content has errors.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	id, ok := strings.CutPrefix(uri, caseURIPrefix)
	c := m.lib.ByID[id]
	if !ok || c == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	res := &mcp.ReadResourceResult{}
	for _, lang := range cases.Languages {
		md, err := m.caseMarkdown(c, lang)
		if err != nil {
			return nil, err
		}
		res.Contents = append(res.Contents, &mcp.ResourceContents{URI: uri, MIMEType: "text/markdown", Text: string(md)})
	}
	return res, nil
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
