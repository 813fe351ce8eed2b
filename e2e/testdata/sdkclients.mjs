// sdkclients.mjs connects the official TypeScript SDK clients of both
// generations (@modelcontextprotocol/sdk 1.x and @modelcontextprotocol/client
// 2.x, pinned in package-lock.json) to incidentlib's MCP server over stdio,
// HTTP with sessions and stateless HTTP, once for each protocol version the
// client can be made to send, and prints one JSON line per connection:
// {gen, transport, version, negotiated, text, error}. e2e/versions_test.go
// runs it and judges the lines.
//
// usage: node sdkclients.mjs BINARY CONTENT SESSIONS_URL STATELESS_URL
import * as v1 from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HTTP } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v2 from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";

const [bin, content, sessionsURL, statelessURL] = process.argv.slice(2);

// spy records the protocol version of an initialize answer as the
// transport delivers it to the client.
function spy(transport, seen) {
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get() {
      if (!handler) return undefined;
      return (m, extra) => {
        if (m && m.result && typeof m.result.protocolVersion === "string") seen.version = m.result.protocolVersion;
        return handler(m, extra);
      };
    },
    set(h) {
      handler = h;
    },
  });
  return transport;
}

const transports = {
  stdio: (gen) => (gen === 1 ? new V1Stdio({ command: bin, args: ["mcp", "-content", content] }) : new V2Stdio({ command: bin, args: ["mcp", "-content", content] })),
  sessions: (gen) => (gen === 1 ? new V1HTTP(new URL(sessionsURL)) : new v2.StreamableHTTPClientTransport(new URL(sessionsURL))),
  stateless: (gen) => (gen === 1 ? new V1HTTP(new URL(statelessURL)) : new v2.StreamableHTTPClientTransport(new URL(statelessURL))),
};

// The versions each generation sends: 1.x always offers its newest,
// 2025-11-25; 2.x offers a legacy version from supportedProtocolVersions
// and pins 2026-07-28 through versionNegotiation.
const plans = [
  { gen: 1, version: "2025-11-25", client: () => new v1.Client({ name: "e2e-ts1", version: "1" }) },
  ...["2025-06-18", "2025-11-25"].map((version) => ({
    gen: 2,
    version,
    client: () => new v2.Client({ name: "e2e-ts2", version: "1" }, { supportedProtocolVersions: [version] }),
  })),
  {
    gen: 2,
    version: "2026-07-28",
    client: () => new v2.Client({ name: "e2e-ts2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
  },
];

for (const name of ["stdio", "sessions", "stateless"]) {
  for (const plan of plans) {
    const line = { gen: plan.gen, transport: name, version: plan.version };
    const seen = {};
    const client = plan.client();
    try {
      await client.connect(spy(transports[name](plan.gen), seen));
      line.negotiated = (client.getNegotiatedProtocolVersion && client.getNegotiatedProtocolVersion()) || seen.version;
      const res = await client.callTool({ name: "get_incident", arguments: { id: "IL-0495" } });
      line.isError = !!res.isError;
      line.text = String(res.content && res.content[0] && res.content[0].text).slice(0, 80);
    } catch (e) {
      line.error = String((e && e.stack) || e);
    } finally {
      try {
        await client.close();
      } catch {}
    }
    console.log(JSON.stringify(line));
  }
}
