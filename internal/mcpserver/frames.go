package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 error codes that this layer answers itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
)

// maxFrameBytes is the largest message the server reads, over stdio as
// over HTTP (where -max-body may lower it): a tool call is a few hundred
// bytes, so this is room for any client and not for a runaway one.
const maxFrameBytes = 4 << 20

// batchesEnd is the first protocol version without JSON-RPC batches.
const batchesEnd = "2025-06-18"

// maxBatch is the most messages a batch may hold. A batch is counted like
// the messages in it (an initialize in a batch opens a session as a single
// one does), and its answer is theirs together: a megabyte of calls in one
// batch came back as 147 MB. No client batches more than a few.
const maxBatch = 16

// frame is what checkFrame learned about one message.
type frame struct {
	method  string // "" for a response or a batch
	call    bool   // a request with an id, which expects an answer
	batch   bool
	init    bool   // an initialize request, alone or in the batch
	version string // protocolVersion asked for by an initialize request
	tool    string // the tool a tools/call names
	sidless bool   // the request names its protocol version itself (sessionless protocol), so needs no initialize
}

// frameError is a message that the server answers itself, with the
// JSON-RPC error it deserves, instead of passing it to the protocol
// server (which would end the connection).
type frameError struct {
	code int
	id   json.RawMessage // the message's id when it could be read, else null
	msg  string
}

func (e *frameError) Error() string { return e.msg }

// response is the JSON-RPC error response for e, without a newline.
func (e *frameError) response() []byte {
	id := e.id
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{"2.0", id, struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{e.code, e.msg}})
	return b
}

func invalid(id json.RawMessage, format string, args ...any) *frameError {
	return &frameError{code: codeInvalidRequest, id: id, msg: "invalid request: " + fmt.Sprintf(format, args...)}
}

// checkFrame checks one message as JSON-RPC 2.0 and MCP define it: an
// object with "jsonrpc": "2.0"; a request has a string method, an id that
// is a string or an integer (a notification has none) and object params;
// a response has an id and a result or an error. A batch (an array of
// such objects) is accepted when batches is true (protocol versions before
// 2025-06-18). The error, when there is one, is the one the specification
// asks for: -32700 for text that is not JSON, -32600 for JSON that is not
// a valid message.
func checkFrame(data []byte, batches bool) (frame, *frameError) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return frame{}, &frameError{code: codeParseError, msg: "parse error: the message is not valid JSON" + jsonProblem(data)}
	}
	if depth(data) > maxDepth {
		var m struct{ ID json.RawMessage }
		if json.Unmarshal(data, &m) != nil || m.ID == nil || checkID(m.ID) != "" {
			m.ID = nil
		}
		return frame{}, invalid(m.ID, "the message is nested more than %d levels deep", maxDepth)
	}
	switch data[0] {
	case '{':
		return checkMessage(data)
	case '[':
		var items []json.RawMessage
		json.Unmarshal(data, &items)
		if len(items) == 0 {
			return frame{}, invalid(nil, "an empty array is not a message")
		}
		if !batches {
			return frame{}, invalid(nil, "batches (arrays of messages) are not part of MCP from protocol version %s on: send one message per line", batchesEnd)
		}
		if len(items) > maxBatch {
			return frame{}, invalid(nil, "a batch holds at most %d messages, not %d", maxBatch, len(items))
		}
		f := frame{batch: true}
		for i, it := range items {
			m, err := checkMessage(it)
			if err != nil {
				err.msg = fmt.Sprintf("%s (message %d of the batch)", err.msg, i+1)
				err.id = nil
				return frame{}, err
			}
			f.init = f.init || m.init
		}
		return f, nil
	}
	return frame{}, invalid(nil, "a message is a JSON object, not %s", kindOf(data))
}

// maxDepth is how deep a message may nest objects and arrays. The
// protocol server's decoder gives up on deep nesting and ends the
// connection (params 1,000 deep ended the stdio server); no message of
// MCP nests more than a few levels.
const maxDepth = 64

// depth is how deep valid JSON data nests objects and arrays, in one pass.
func depth(data []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// jsonProblem says where JSON text stops being valid.
func jsonProblem(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return " (it is empty)"
	case errors.As(err, &se):
		return fmt.Sprintf(" (at byte %d)", se.Offset)
	case err != nil && err.Error() == "unexpected end of JSON input":
		return " (it ends in the middle of a value: was the line cut?)"
	}
	return ""
}

func kindOf(data []byte) string {
	switch data[0] {
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "a number"
}

func checkMessage(data []byte) (frame, *frameError) {
	var f frame
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return f, invalid(nil, "a message is a JSON object, not %s", kindOf(bytes.TrimSpace(data)))
	}
	id, hasID := m["id"]
	if hasID {
		if err := checkID(id); err != "" {
			if n := bytes.TrimSpace(id); len(n) > 0 && (n[0] == '-' || n[0] >= '0' && n[0] <= '9') && len(n) <= 20 && !bytes.ContainsAny(n, ".eE") {
				return f, invalid(n, "%s", err) // an integer: echoed as it came
			}
			return f, invalid(nil, "%s", err)
		}
	} else {
		id = nil
	}
	if v, ok := m["jsonrpc"]; !ok {
		return f, invalid(id, `"jsonrpc": "2.0" is missing`)
	} else if string(bytes.TrimSpace(v)) != `"2.0"` {
		return f, invalid(id, `"jsonrpc" must be "2.0", not %s`, clip(v))
	}
	raw, isRequest := m["method"]
	if !isRequest {
		_, res := m["result"]
		_, er := m["error"]
		switch {
		case !hasID:
			return f, invalid(nil, `the message has neither a "method" (a request) nor an "id" (a response)`)
		case res == er:
			return f, invalid(id, `a response has either a "result" or an "error"`)
		case er:
			// The protocol server ends the connection on an error it
			// cannot decode.
			var e struct {
				Code    *int64          `json:"code"`
				Message *string         `json:"message"`
				Data    json.RawMessage `json:"data"`
			}
			if json.Unmarshal(m["error"], &e) != nil || e.Code == nil || e.Message == nil {
				return f, invalid(id, `the "error" of a response is an object with an integer "code" and a string "message", not %s`, clip(m["error"]))
			}
		}
		return f, nil
	}
	if json.Unmarshal(raw, &f.method) != nil {
		return f, invalid(id, `"method" must be a string, not %s`, clip(raw))
	}
	f.call = hasID
	f.init = f.method == "initialize"
	params, ok := m["params"]
	if ok && string(bytes.TrimSpace(params)) != "null" && bytes.TrimSpace(params)[0] != '{' {
		return f, invalid(id, `"params" must be an object, not %s`, clip(params))
	}
	if ok {
		if err := checkParams(f.method, params); err != "" {
			return f, &frameError{code: codeInvalidParams, id: id, msg: "invalid params: " + err}
		}
		var p struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Name            string         `json:"name"`
			Meta            map[string]any `json:"_meta"`
		}
		json.Unmarshal(params, &p)
		f.version, f.tool = p.ProtocolVersion, p.Name
		_, f.sidless = p.Meta["io.modelcontextprotocol/protocolVersion"]
	}
	return f, nil
}

// paramKinds are the params of the requests this server answers whose
// JSON types the protocol server would otherwise report with the names of
// its Go types: method → param → "string" or "object", a "!" for a
// required one.
var paramKinds = map[string]map[string]string{
	"initialize":          {"protocolVersion": "string!", "capabilities": "object", "clientInfo": "object"},
	"tools/call":          {"name": "string!", "arguments": "object"},
	"resources/read":      {"uri": "string!"},
	"prompts/get":         {"name": "string!", "arguments": "object"},
	"completion/complete": {"ref": "object!", "argument": "object!", "context": "object"},
	"logging/setLevel":    {"level": "string!"},
}

// checkParams checks the params of a request against paramKinds.
func checkParams(method string, raw json.RawMessage) string {
	kinds := paramKinds[method]
	if strings.HasSuffix(method, "/list") {
		kinds = map[string]string{"cursor": "string"}
	}
	var params map[string]json.RawMessage
	json.Unmarshal(raw, &params)
	if m, ok := params["_meta"]; ok && bytes.TrimSpace(m)[0] != '{' {
		return fmt.Sprintf(`"_meta" must be an object, not %s`, clip(m))
	}
	names := make([]string, 0, len(kinds))
	for name := range kinds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		kind := kinds[name]
		v, ok := params[name]
		required := strings.HasSuffix(kind, "!")
		kind = strings.TrimSuffix(kind, "!")
		if !ok || string(bytes.TrimSpace(v)) == "null" {
			if required {
				return fmt.Sprintf("%s needs %q (a %s)", method, name, kind)
			}
			continue
		}
		first := bytes.TrimSpace(v)[0]
		if (kind == "string" && first != '"') || (kind == "object" && first != '{') {
			return fmt.Sprintf("%q of %s must be a JSON %s, not %s", name, method, kind, clip(v))
		}
	}
	return ""
}

// maxID is the largest integer id (and -maxID the smallest) the server
// answers: the protocol server keeps ids as float64, which holds integers
// exactly up to 2^53 only, so that a larger one came back as another
// number. Such an id is refused with an error that echoes it exactly.
const maxID = 1<<53 - 1

// checkID checks a message id: MCP allows strings and integers.
func checkID(id json.RawMessage) string {
	id = bytes.TrimSpace(id)
	switch id[0] {
	case '"':
		return ""
	case 'n':
		return `"id" must be a string or an integer, not null (a notification has no "id")`
	case '{', '[', 't', 'f':
		return fmt.Sprintf(`"id" must be a string or an integer, not %s`, kindOf(id))
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	if err != nil {
		return fmt.Sprintf(`"id" must be a string or an integer, not %s`, id)
	}
	if n > maxID || n < -maxID {
		return fmt.Sprintf(`an integer "id" must lie within ±(2^53-1) to come back exactly: send %s as a string`, id)
	}
	return ""
}

// clip shows a bad JSON value in an error, shortened.
func clip(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// gate tracks a connection's initialisation, so that a call before
// initialize is answered with a JSON-RPC error instead of the protocol
// server's uncoded one, and so that batches are refused once a client has
// asked for a protocol version without them.
type gate struct {
	mu          sync.Mutex
	initialized bool
	version     string
}

// check checks a message and what it may do at this point of the
// connection.
func (g *gate) check(data []byte) (frame, *frameError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	batches := !g.initialized || g.version < batchesEnd
	f, err := checkFrame(data, batches)
	if err != nil {
		return f, err
	}
	switch {
	case f.method == "initialize" && g.initialized:
		var m struct{ ID json.RawMessage }
		json.Unmarshal(data, &m)
		return f, invalid(m.ID, "the connection is already initialised: initialize comes once")
	case f.method == "initialize":
		g.initialized, g.version = true, f.version
	case f.call && !g.initialized && f.method != "ping" && !f.sidless:
		var m struct{ ID json.RawMessage }
		json.Unmarshal(data, &m)
		return f, invalid(m.ID, "the connection is not initialised: send initialize first, then notifications/initialized, then %s", strconv.Quote(f.method))
	}
	return f, nil
}

// stdioFrames stands between standard input and the protocol server: it
// reads one message per line, answers every malformed one with its error
// on out, and passes the good ones on through the returned reader. A line
// cut short is one error, and the line after it is read as a message of
// its own. The returned writer is out, shared with the protocol server so
// that the answers of both never interleave.
func stdioFrames(in io.ReadCloser, out io.Writer) (io.ReadCloser, *lockedWriter) {
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	go func() {
		var g gate
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, tooLong, err := readLine(r, maxFrameBytes)
			if tooLong {
				w.Write(append(invalid(nil, "the message is longer than %d bytes", maxFrameBytes).response(), '\n'))
			} else if len(bytes.TrimSpace(line)) > 0 {
				if _, ferr := g.check(line); ferr != nil {
					w.Write(append(ferr.response(), '\n'))
				} else if _, werr := pw.Write(append(bytes.TrimRight(line, "\r\n"), '\n')); werr != nil {
					return // the protocol server has stopped reading
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return readCloser{pr, func() error { pr.Close(); return in.Close() }}, w
}

// readLine reads up to and including the next newline. A line longer than
// max is read to its end and dropped, and tooLong says so.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		part, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(part) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }
