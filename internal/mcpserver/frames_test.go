package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestCheckFrame checks each kind of message against the error JSON-RPC
// 2.0 asks for, and that good messages pass.
func TestCheckFrame(t *testing.T) {
	for _, tt := range []struct {
		msg     string
		batches bool
		code    int // 0: passes
		id      string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, false, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"vocab","arguments":{}}}`, false, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, 0, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false, 0, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, true, 0, ""},
		{``, false, -32700, "null"},
		{`{"jsonrpc":"2.0","id":1,"method":"pi`, false, -32700, "null"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}}`, false, -32700, "null"},
		{`[]`, true, -32600, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false, -32600, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}, 3]`, true, -32600, "null"},
		{`42`, false, -32600, "null"},
		{`{"id":1,"method":"ping"}`, false, -32600, "1"},
		{`{"jsonrpc":2,"id":1,"method":"ping"}`, false, -32600, "1"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, false, -32600, "null"},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, false, -32600, "null"},
		{`{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`, false, -32600, "99999999999999999999"},
		{`{"jsonrpc":"2.0","id":1,"method":["ping"]}`, false, -32600, "1"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, false, -32600, "1"},
		{`{"jsonrpc":"2.0","id":1}`, false, -32600, "1"},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`, false, -32600, "1"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`, false, -32602, "1"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`, false, -32602, "1"},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"cursor":1}}`, false, -32602, "1"},
		// #39: what ended the protocol server's connection.
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, false, -32600, "4"},
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":"` + strings.Repeat("[", 1000) + `"}}`, false, 0, ""},
		{`{"jsonrpc":"2.0","id":7,"error":"x"}`, false, -32600, "7"},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":1.5,"message":"x"}}`, false, -32600, "7"},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"x"}}`, false, 0, ""},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, false, -32600, "9007199254740993"},
		{`{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}`, false, -32600, "-9007199254740993"},
		{`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`, false, 0, ""},
	} {
		_, err := checkFrame([]byte(tt.msg), tt.batches)
		switch {
		case tt.code == 0 && err != nil:
			t.Errorf("%s: %v", tt.msg, err)
		case tt.code != 0 && err == nil:
			t.Errorf("%s: passed, want %d", tt.msg, tt.code)
		case err != nil:
			var r struct {
				ID    json.RawMessage
				Error struct{ Code int }
			}
			json.Unmarshal(err.response(), &r)
			if r.Error.Code != tt.code || string(r.ID) != tt.id {
				t.Errorf("%s: %s, want code %d, id %s", tt.msg, err.response(), tt.code, tt.id)
			}
		}
	}
}

// TestStdioFrames reads lines through the frame layer: good ones pass on
// in order, bad ones are answered on out, a line longer than the limit is
// one error, and a last line without a newline still counts.
func TestStdioFrames(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"` + strings.Repeat("x", maxFrameBytes) + `"}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`,
		`nonsense`,
		``,
		long,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, // batches before 2025-06-18
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	}, "\n")
	var out bytes.Buffer
	r, _ := stdioFrames(io.NopCloser(strings.NewReader(in)), &out)
	passed, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(passed), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"id":1`) || !strings.HasPrefix(lines[1], "[") || !strings.Contains(lines[2], `"id":5`) {
		t.Errorf("passed on:\n%.300s", passed)
	}
	errs := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(errs) != 2 || !strings.Contains(errs[0], "-32700") || !strings.Contains(errs[1], "longer than") {
		t.Errorf("answered:\n%s", out.String())
	}
}
