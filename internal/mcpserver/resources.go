package mcpserver

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
)

// # Resources
//
// Every case is a resource, incidentlib://cases/{ID}: its page's Markdown
// twin in both languages, or in one with ?lang=en or ?lang=ko. A topic is
// incidentlib://topics/{facet}/{term}, what get_topic answers, and the
// vocabulary is incidentlib://vocab, what vocab answers; both take ?lang
// too. Ids, facets and terms are read as the tools read them: in any case,
// a term by its label too. A case resource carries its lastModified (the
// case's updated_at), a topic's its newest case's.

const (
	topicURIPrefix = "incidentlib://topics/"
	vocabURI       = "incidentlib://vocab"
)

func topicURI(facet, term string) string { return topicURIPrefix + facet + "/" + url.PathEscape(term) }

// addResources declares the resource templates and the vocabulary; the
// cases are declared one by one as the library loads (syncResources).
func (s *Server) addResources() {
	for _, rt := range []*mcp.ResourceTemplate{{
		URITemplate: caseURIPrefix + "{id}{?lang}",
		Name:        "case",
		Title:       "One case of the library",
		Description: "A case's page as Markdown: in English and Korean, or in one language with ?lang=en or ?lang=ko. id is a case id such as IL-0495, in any case.",
	}, {
		URITemplate: topicURIPrefix + "{facet}/{term}{?lang}",
		Name:        "topic",
		Title:       "One topic: a term's statistics and newest cases",
		Description: "What get_topic answers for a facet (" + orList(cases.FacetNames()) + ") and a term id or label, such as incidentlib://topics/components/ingress?lang=ko.",
	}, {
		URITemplate: vocabURI + "{?lang}",
		Name:        "vocab-lang",
		Title:       "The vocabularies, in one language",
		Description: "What vocab answers: every facet's terms with ids, labels and numbers of cases; ?lang=ko for Korean headings.",
	}} {
		rt.MIMEType = "text/markdown"
		s.mcp.AddResourceTemplate(rt, s.readResource)
	}
	s.mcp.AddResource(&mcp.Resource{URI: vocabURI, Name: "vocab", Title: "The vocabularies", MIMEType: "text/markdown",
		Description: "Every facet's terms with their ids, English and Korean labels and numbers of cases: the ids the filters take."}, s.readResource)
}

// caseResource is the resource of a case, as resources/list shows it.
func caseResource(c *cases.Case) *mcp.Resource {
	title, _ := c.Title.In("en")
	r := &mcp.Resource{URI: caseURI(c.ID), Name: c.ID, Title: title, MIMEType: "text/markdown",
		Description: "The case's page as Markdown in English and Korean; add ?lang=en or ?lang=ko for one language."}
	if !c.UpdatedAt.IsZero() {
		r.Annotations = &mcp.Annotations{LastModified: c.UpdatedAt.UTC().Format(time.RFC3339)}
	}
	return r
}

// caseLinks are resource links to the cases an answer lists, in its
// language, so that a client can read one without a tool call. They carry
// the id and the address only: the answer's text and structured content
// already hold each title twice, and a list of 20 Korean titles must stay
// under 20 KB.
func caseLinks(data any, lang string) []mcp.Content {
	var items []caseItem
	switch d := data.(type) {
	case searchOutput:
		items = d.Cases
	case listOutput:
		items = d.Cases
	case topicOutput:
		items = d.Cases
	case incidentOutput:
		if d.other != "" {
			return []mcp.Content{&mcp.ResourceLink{URI: caseURI(d.ID) + "?lang=" + d.other, Name: d.ID, MIMEType: "text/markdown"}}
		}
	}
	out := make([]mcp.Content, len(items))
	for i, it := range items {
		out[i] = &mcp.ResourceLink{URI: caseURI(it.ID) + "?lang=" + lang, Name: it.ID, MIMEType: "text/markdown"}
	}
	return out
}

// readResource answers resources/read for every resource of the server.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "incidentlib" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	langs := cases.Languages
	switch l := strings.ToLower(u.Query().Get("lang")); l {
	case "":
	case "en", "ko":
		langs = []string{l}
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "lang " + echo(l) + ` is not a language of the library: use "en" or "ko"`}
	}
	m, err := s.ready(&call{lang: langs[0]})
	if err != nil {
		// Not the client's fault: the content has errors.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	path := strings.Trim(u.EscapedPath(), "/")
	var text []string
	var modified time.Time
	switch u.Host {
	case "cases":
		c := m.lib.ByID[strings.ToUpper(path)]
		if c == nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		modified = c.UpdatedAt
		for _, lang := range langs {
			md, err := m.caseMarkdown(c, lang)
			if err != nil {
				return nil, err
			}
			text = append(text, string(md))
		}
	case "topics", "vocab":
		text, modified, err = m.readAnswer(u.Host, path, langs)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
	default:
		return nil, mcp.ResourceNotFoundError(uri)
	}
	res := &mcp.ReadResourceResult{}
	for _, t := range text {
		rc := &mcp.ResourceContents{URI: uri, MIMEType: "text/markdown", Text: t}
		if !modified.IsZero() {
			rc.Meta = mcp.Meta{"lastModified": modified.UTC().Format(time.RFC3339)}
		}
		res.Contents = append(res.Contents, rc)
	}
	return res, nil
}

// readAnswer is a topic's or the vocabulary's resource: the tool's answer
// in each of langs, and when the newest of its cases changed.
func (m *model) readAnswer(kind, path string, langs []string) ([]string, time.Time, error) {
	var out []string
	var modified time.Time
	for _, lang := range langs {
		c := &call{lang: lang, args: map[string]any{}}
		run := vocab
		if kind == "topics" {
			facet, term, ok := strings.Cut(path, "/")
			term, err := url.PathUnescape(term)
			if !ok || err != nil {
				return nil, modified, mcp.ResourceNotFoundError(path)
			}
			c.args["facet"], c.args["term"], run = facet, term, getTopic
		}
		text, data, err := run(m, c)
		if err != nil {
			return nil, modified, err
		}
		if t, ok := data.(topicOutput); ok {
			if tp := m.model.Topics()[t.Facet].Topic(t.Term); tp != nil {
				for _, c := range tp.Cases {
					if c.UpdatedAt.After(modified) {
						modified = c.UpdatedAt
					}
				}
			}
		}
		out = append(out, text)
	}
	return out, modified, nil
}
