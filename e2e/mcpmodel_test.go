package e2e

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
)

// TestMCPForModels uses the built server as a model and its client would,
// through the official SDK's client over stdio and over HTTP (sessions and
// stateless): the server's description, a misspelled argument and a
// Korean label, a prompt, completions and a case resource in one language.
func TestMCPForModels(t *testing.T) {
	dir := repotest.ContentDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	connect := map[string]func() (*mcp.ClientSession, error){
		"stdio": func() (*mcp.ClientSession, error) {
			return client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(builtMCP(t), "mcp", "-content", dir)}, nil)
		},
		"http": func() (*mcp.ClientSession, error) {
			return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: startHTTP(t, dir).endpoint}, nil)
		},
		"stateless": func() (*mcp.ClientSession, error) {
			return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: startHTTP(t, dir, "-stateless").endpoint}, nil)
		},
	}
	for name, open := range connect {
		t.Run(name, func(t *testing.T) {
			cs, err := open()
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			useAsModel(ctx, t, cs)
		})
	}
}

func useAsModel(ctx context.Context, t *testing.T, cs *mcp.ClientSession) {
	info := cs.InitializeResult()
	si := info.ServerInfo
	// The library's version, as pages and the API name it: the day of its
	// newest change and that day's count.
	if !regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}\.[0-9]+$`).MatchString(si.Version) || si.WebsiteURL == "" || len(si.Icons) != 1 || !strings.HasPrefix(si.Icons[0].Source, "data:image/svg+xml;base64,") {
		t.Errorf("server info: %+v", si)
	}
	if info.Capabilities.Logging != nil || info.Capabilities.Prompts == nil || info.Capabilities.Completions == nil {
		t.Errorf("capabilities: %+v", info.Capabilities)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_incidents", Arguments: map[string]any{"component": "인그레스", "lang": "ko", "limit": 3}})
	if err != nil || res.IsError {
		t.Fatalf("list_incidents: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"components=ingress", "component 인자는 components 인자로 읽었습니다.", `"인그레스" 값은 용어 "ingress"에 맞췄습니다.`} {
		if !strings.Contains(text, want) {
			t.Errorf("list_incidents lacks %q: %s", want, text)
		}
	}
	if l, ok := res.Content[len(res.Content)-1].(*mcp.ResourceLink); !ok || !strings.HasSuffix(l.URI, "?lang=ko") {
		t.Errorf("no resource link in %d contents", len(res.Content))
	}

	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review_cluster", Arguments: map[string]string{"component": "Ingress controller", "lang": "ko"}})
	if err != nil || len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, `term "ingress"`) {
		t.Errorf("review_cluster: %v %+v", err, p)
	}
	comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "incidentlib://cases/{id}{?lang}"},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: "il-049"}})
	if err != nil || len(comp.Completion.Values) == 0 || comp.Completion.Values[0] != "IL-0495" {
		t.Errorf("complete id il-049: %v %+v", err, comp)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "incidentlib://cases/il-0495?lang=ko"})
	if err != nil || len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, "# IL-0495: ") || rr.Contents[0].Meta["lastModified"] == nil {
		t.Errorf("case resource in Korean: %v %+v", err, rr)
	}
}
