package mcpserver

import (
	"fmt"
	"strings"

	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// sourceMatch is a case that cites the document asked about.
type sourceMatch struct {
	ID        string `json:"id" jsonschema:"the case id"`
	Title     string `json:"title" jsonschema:"the case's title in the answer's language"`
	URL       string `json:"url" jsonschema:"the case's page in the answer's language"`
	Withdrawn bool   `json:"withdrawn,omitempty" jsonschema:"true for a case that was withdrawn: its page says why"`
}

type sourceOutput struct {
	Lang       string        `json:"lang" jsonschema:"the language of the answer's text"`
	Normalized string        `json:"normalized" jsonschema:"the address as the library compares addresses: https, host in lower case without www., no trailing slash, no fragment, no tracking parameters"`
	Cases      []sourceMatch `json:"cases" jsonschema:"the cases that cite the document; empty when the library does not have it"`
	Version    string        `json:"library_version" jsonschema:"the library's version the answer comes from"`
	Notes      []string      `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

// sourceTool is the tool that answers "is this post-mortem in the
// library?": the cases whose sources are the document at an address,
// however the address is spelt (library.NormalizeSource), as
// api/v1/sources.json maps them.
func sourceTool() tool {
	return tool{
		mcp: declare("find_by_source", "Find cases by their source",
			"Tell whether a post-mortem, status page or talk is in the library: give its address and get the cases written from it. "+
				"Addresses match however they are spelt: http or https, www. or not, a trailing slash, a #fragment and tracking parameters (utm_*, fbclid, …) do not matter.",
			outputSchema[sourceOutput]()),
		params: []param{
			{name: "url", kind: kString, required: true, desc: "the address of the document, such as https://example.com/blog/outage-postmortem"},
			{name: "lang", kind: kLang, desc: "language of the answer: en (default) or ko"},
		},
		run: func(m *model, c *call) (string, any, error) {
			addr := strings.TrimSpace(c.str("url"))
			out := sourceOutput{Lang: c.lang, Normalized: library.NormalizeSource(addr), Cases: []sourceMatch{}, Version: m.model.Version}
			var b strings.Builder
			ids := m.model.BySource(addr)
			if len(ids) == 0 {
				b.WriteString(c.t("source.none", echo(addr)) + "\n")
			} else {
				b.WriteString(c.t("source.found", echo(addr)) + "\n\n")
			}
			for _, id := range ids {
				cs := m.lib.ByID[id]
				if cs == nil {
					continue
				}
				sm := sourceMatch{ID: id, URL: m.site.URL(urls.Case(c.lang, id)), Withdrawn: cs.Withdrawn != nil}
				sm.Title, _ = cs.Title.In(c.lang)
				out.Cases = append(out.Cases, sm)
				line := fmt.Sprintf("- %s: %s (%s)", id, sm.Title, sm.URL)
				if sm.Withdrawn {
					line += " " + c.t("source.withdrawn")
				}
				b.WriteString(line + "\n")
			}
			out.Notes = c.notes
			return b.String(), out, nil
		},
	}
}
