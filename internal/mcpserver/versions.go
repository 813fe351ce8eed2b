package mcpserver

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every protocol version on every transport. From 2026-07-28 on, MCP has
// no sessions: a client names the version in the Mcp-Protocol-Version
// header (and each request's _meta) and may start with server/discover
// instead of initialize. The SDK's handler with sessions refuses such
// requests, so a server with sessions passes them, when they carry no
// session id, to a second handler without sessions on the same protocol
// server: clients of 2025-06-18 and 2025-11-25 keep their sessions, and a
// client pinned to 2026-07-28 is answered as a stateless server answers it.

// sessionlessFrom is the first protocol version without sessions.
const sessionlessFrom = "2026-07-28"

// sessionless reports whether r is a request of a protocol version
// without sessions.
func sessionless(r *http.Request) bool {
	return r.Header.Get("Mcp-Protocol-Version") >= sessionlessFrom && r.Header.Get("Mcp-Session-Id") == ""
}

// sdkHandler is the SDK's Streamable HTTP handler: with sessions (unless
// the server is stateless), and beside it one without for the requests of
// sessionless versions.
func (s *Server) sdkHandler() http.Handler {
	o := s.opt.HTTP
	opts := func(stateless bool) *mcp.StreamableHTTPOptions {
		return &mcp.StreamableHTTPOptions{
			Stateless: stateless,
			// A client that goes away without closing its session must not
			// hold its memory for long.
			SessionTimeout:      o.SessionIdle,
			MaxRequestBodyBytes: o.MaxBody,
			// checkHost covers this, and the SDK's own check would refuse a
			// reverse proxy on this machine that passes the public Host on.
			DisableLocalhostProtection: true,
		}
	}
	server := func(*http.Request) *mcp.Server { return s.mcp }
	stateless := mcp.NewStreamableHTTPHandler(server, opts(true))
	if o.Stateless {
		return stateless
	}
	sessions := mcp.NewStreamableHTTPHandler(server, opts(false))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sessionless(r) {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}
