package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
)

// The MCP tests start the built command as an AI tool does, over stdio
// and over Streamable HTTP, on a copy of the content, and talk to it with
// the SDK's client: initialize, list the tools, call each, read a case
// resource, and see an edit to a case file in the next answer.

func mcpBinary(t *testing.T) string {
	t.Helper()
	return binary(t)
}

func TestMCPStdio(t *testing.T) {
	bin := mcpBinary(t)
	dir := repotest.CopyDir(t, "content")
	cmd := exec.Command(bin, "mcp", "-content", dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	if info := cs.InitializeResult(); info == nil || info.ServerInfo.Name != "incidentlib" || info.Instructions == "" {
		t.Errorf("initialize: %+v", info)
	}
	useEveryTool(ctx, t, cs)
	seeEdit(ctx, t, cs, dir)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("the server did not end cleanly when its input closed: %v\n%s", cmd.ProcessState, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cases ready") {
		t.Errorf("standard error: %s", stderr.String())
	}
}

func TestMCPHTTP(t *testing.T) {
	bin := mcpBinary(t)
	dir := repotest.CopyDir(t, "content")
	cmd := exec.Command(bin, "mcp", "-content", dir, "-http", "127.0.0.1:0")
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	// The server names its address on standard error.
	lines := bufio.NewScanner(errPipe)
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`)
	endpoint := ""
	var log strings.Builder
	for endpoint == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		endpoint = addr.FindString(lines.Text())
	}
	if endpoint == "" {
		t.Fatalf("no address on standard error:\n%s", log.String())
	}
	go io.Copy(io.Discard, errPipe)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	useEveryTool(ctx, t, cs)
	seeEdit(ctx, t, cs, dir)
	cs.Close()

	// A page of another site may not use the server.
	for origin, want := range map[string]int{"https://evil.example": http.StatusForbidden, "http://localhost:3000": http.StatusOK} {
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", origin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Origin %s: status %d, want %d", origin, res.StatusCode, want)
		}
	}

	// Ctrl-C ends it cleanly.
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	stopped = true
	if err != nil {
		t.Errorf("after an interrupt: %v", err)
	}
}

// useEveryTool lists the tools and calls each as a model would: search,
// then the case it found, its topic, a filtered list and the vocabulary.
func useEveryTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "get_incident get_topic list_incidents search_incidents vocab" {
		t.Errorf("tools: %v", names)
	}
	structured := func(tool string, args map[string]any, out any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if res.IsError {
			t.Fatalf("%s %v: %s", tool, args, text.String())
		}
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return text.String()
	}
	type item struct{ ID, Title, URL string }
	var found struct {
		Total int
		Cases []item
	}
	text := structured("search_incidents", map[string]any{"query": "로드 밸런서가", "lang": "ko"}, &found)
	if found.Total == 0 || !strings.Contains(text, found.Cases[0].ID) || !strings.Contains(found.Cases[0].URL, "/ko/cases/") {
		t.Fatalf("search_incidents: %s", text)
	}
	id := found.Cases[0].ID
	var incident struct{ Markdown map[string]string }
	text = structured("get_incident", map[string]any{"id": id}, &incident)
	if !strings.HasPrefix(incident.Markdown["en"], "# "+id+": ") || !strings.HasPrefix(incident.Markdown["ko"], "# "+id+": ") || !strings.Contains(text, "## Root cause") {
		t.Errorf("get_incident %s: %.300s", id, text)
	}
	var topic struct {
		Count int
		Cases []item
	}
	text = structured("get_topic", map[string]any{"facet": "components", "term": "ingress"}, &topic)
	if topic.Count == 0 || len(topic.Cases) == 0 || !strings.Contains(text, "Most common") {
		t.Errorf("get_topic: %.300s", text)
	}
	var list struct {
		Total      int
		Cases      []item
		NextCursor string `json:"next_cursor"`
	}
	structured("list_incidents", map[string]any{"components": []string{"ingress"}, "limit": 1}, &list)
	if list.Total != topic.Count || len(list.Cases) != 1 || list.NextCursor == "" {
		t.Errorf("list_incidents: %+v", list)
	}
	var vocab struct{ Facets []struct{ Facet string } }
	structured("vocab", nil, &vocab)
	if len(vocab.Facets) != 8 {
		t.Errorf("vocab: %d facets", len(vocab.Facets))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "../../etc/passwd"}})
	if err != nil || !res.IsError {
		t.Errorf("get_incident ../../etc/passwd: %v %+v", err, res)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "incidentlib://cases/" + id})
	if err != nil || len(rr.Contents) != 2 || rr.Contents[0].Text != incident.Markdown["en"] {
		t.Errorf("resource of %s: %v", id, err)
	}
}

// seeEdit changes a case's English title on disk and waits for the next
// answers to show it.
func seeEdit(ctx context.Context, t *testing.T, cs *mcp.ClientSession, dir string) {
	t.Helper()
	file := filepath.Join(dir, "cases", "IL-0495.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"title":{"en":"`, `"title":{"en":"Edited in the e2e test: `, 1)
	if edited == string(b) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for t0 := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "IL-0495", "lang": "en"}})
		if err != nil {
			t.Fatal(err)
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "# IL-0495: Edited in the e2e test: ") {
			return
		}
		if time.Since(t0) > 10*time.Second {
			t.Fatal("the edit was not seen in 10 s")
		}
	}
}
