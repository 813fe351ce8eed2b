package mcpserver

import (
	"context"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
)

// # Prompts
//
// Three prompts start the work the library is for, in English or Korean
// (lang): review_cluster ("review my cluster for <component>"),
// similar_incidents ("find incidents like this one": a case id or a
// description of an outage) and summarise_topic (a facet's term). Each is
// one user message that names the tools to call with their arguments,
// worked out from the library: a component or term given by its label is
// turned into its id, as the tools' filters do. Arguments complete
// (complete.go).

// prompt is a prompt of the server and what answers it.
type prompt struct {
	mcp *mcp.Prompt
	run func(m *model, c *call, args map[string]string) (string, error)
}

var langArg = &mcp.PromptArgument{Name: "lang", Title: "Language", Description: "en (default) or ko: the language of the prompt and of the answers it asks for"}

func (s *Server) addPrompts() {
	for _, p := range []prompt{{
		mcp: &mcp.Prompt{Name: "review_cluster", Title: "Review my cluster for a component",
			Description: "Ask for a review of one's own cluster against the library's incidents that involve a component (ingress, DNS, etcd, …): what went wrong elsewhere and what to check.",
			Arguments: []*mcp.PromptArgument{{Name: "component", Title: "Component", Required: true,
				Description: "a component term id or label, such as ingress, cloud-load-balancer or 인그레스 컨트롤러"}, langArg}},
		run: reviewCluster,
	}, {
		mcp: &mcp.Prompt{Name: "similar_incidents", Title: "Find incidents like this one",
			Description: "Find the library's incidents most like a case of the library or an outage one describes, and what their fixes and lessons were.",
			Arguments: []*mcp.PromptArgument{{Name: "incident", Title: "Incident", Required: true,
				Description: "a case id such as IL-0495, or a description of the outage: symptoms, components, errors"}, langArg}},
		run: similarIncidents,
	}, {
		mcp: &mcp.Prompt{Name: "summarise_topic", Title: "Summarise a topic",
			Description: "Summarise what the library's cases of one term have in common: causes, contributing factors, time to detect and resolve, lessons.",
			Arguments: []*mcp.PromptArgument{
				{Name: "facet", Title: "Facet", Required: true, Description: "one of " + strings.Join(cases.FacetNames(), ", ")},
				{Name: "term", Title: "Term", Required: true, Description: "a term id or label of that facet, such as ingress, software-bug or 2024"},
				langArg}},
		run: summariseTopic,
	}} {
		s.mcp.AddPrompt(p.mcp, s.promptHandler(p))
	}
}

// promptHandler answers prompts/get for p: a bad argument is an invalid
// params error in the prompt's language.
func (s *Server) promptHandler(p prompt) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		c := &call{tool: p.mcp.Name, lang: "en", args: map[string]any{}}
		switch l := strings.ToLower(strings.TrimSpace(args["lang"])); l {
		case "en", "ko":
			c.lang = l
		case "":
			if hasHangul(args["incident"] + args["component"] + args["term"]) {
				c.lang = "ko"
			}
		default:
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: c.t("err.lang", echo(l))}
		}
		for _, a := range p.mcp.Arguments {
			if a.Required && strings.TrimSpace(args[a.Name]) == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: c.t("err.prompt_required", a.Name, p.mcp.Name)}
			}
		}
		m, err := s.ready(c)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		text, err := p.run(m, c, args)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return &mcp.GetPromptResult{Description: p.mcp.Title, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
	}
}

// term reads a prompt's term of facet as the tools do, with its label.
func (m *model) promptTerm(c *call, facet, v, arg string) (id, label string, err error) {
	id, err = m.resolveTerm(c, facet, strings.TrimSpace(v), arg)
	if err == nil {
		err = m.checkTerm(c, facet, id, arg)
	}
	if err != nil {
		return "", "", err
	}
	label = id
	if l, ok := m.labels[facet][id]; ok && l[langIndex(c.lang)] != "" {
		label = l[langIndex(c.lang)]
	} else if t, ok := m.vocabTerm(facet, id); ok {
		label = t.Label.Get(c.lang)
	}
	return id, label, nil
}

func reviewCluster(m *model, c *call, args map[string]string) (string, error) {
	id, label, err := m.promptTerm(c, cases.Components.Name, args["component"], "component")
	if err != nil {
		return "", err
	}
	return c.t("prompt.review", label, strconv.Quote(id), c.lang), nil
}

func similarIncidents(m *model, c *call, args map[string]string) (string, error) {
	v := strings.TrimSpace(args["incident"])
	if cs := m.lib.ByID[strings.ToUpper(v)]; cs != nil {
		title, _ := cs.Title.In(c.lang)
		return c.t("prompt.similar_case", cs.ID, title, c.lang), nil
	}
	return c.t("prompt.similar_text", v, c.lang), nil
}

func summariseTopic(m *model, c *call, args map[string]string) (string, error) {
	facet, err := facetOf(c, args["facet"])
	if err != nil {
		return "", err
	}
	id, label, err := m.promptTerm(c, facet, args["term"], "term")
	if err != nil {
		return "", err
	}
	return c.t("prompt.topic", label, strconv.Quote(facet), strconv.Quote(id), c.lang), nil
}
