#!/usr/bin/env node
/**
 * An example MCP server for Tool Studio, written with the v2 server SDK (@modelcontextprotocol/server,
 * protocol 2026-07-28; 2025-era clients are served too).
 *
 *   node examples/mcp-server/server.mjs                      # stdio (default)
 *   node examples/mcp-server/server.mjs --http 8765          # Streamable HTTP on http://127.0.0.1:8765/mcp
 *   node examples/mcp-server/server.mjs --page-size 3        # tools/list page size (default 4)
 *   node examples/mcp-server/server.mjs --conformance        # also the MCP conformance suite's fixture tools
 *
 * Its tools exercise the studio: structured output, every content kind, progress + cancellation,
 * tool-level errors, rich metadata (annotations, icons, _meta, title), `x-mcp-header` (a valid one
 * whose Mcp-Param-* headers are echoed back, and an invalid one a client must exclude), pagination
 * of tools/list, and `add_tool`, which registers a tool at run time and sends list_changed.
 *
 * It uses the low-level `Server` (not `McpServer`) so that tools/list can be paginated and every
 * tool is declared as raw JSON exactly as it goes on the wire (McpServer does not paginate).
 * Diagnostics go to stderr (stdout is the stdio protocol channel).
 */
/* global AbortController, Headers, Request -- Node's web globals (Node 20+) */
import http from "node:http";
import { deflateSync } from "node:zlib";
import {
  Server,
  ProtocolError,
  ProtocolErrorCode,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  PROTOCOL_VERSION_META_KEY,
  inputRequired,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

// ---------------------------------------------------------------- arguments

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const httpPort = opt("--http");
const PAGE_SIZE = Math.max(1, Number(opt("--page-size") ?? 4));
const CONFORMANCE = argv.includes("--conformance");
const log = (...a) => process.stderr.write(`[example-mcp] ${a.join(" ")}\n`);

// ---------------------------------------------------------------- tiny media, made here

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** A valid 4x4 RGB PNG: four coloured quadrants. */
function tinyPng() {
  const w = 4,
    h = 4;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const colours = [
    [230, 57, 70],
    [42, 157, 143],
    [233, 196, 106],
    [38, 70, 83],
  ];
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = [0]; // filter: none
    for (let x = 0; x < w; x++) row.push(...colours[(y < 2 ? 0 : 2) + (x < 2 ? 0 : 1)]);
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
/** A valid WAV: 0.1 s of a 440 Hz tone, 8 kHz, 8-bit unsigned mono PCM. */
function tinyWav() {
  const rate = 8000,
    n = 800;
  const samples = Buffer.alloc(n);
  for (let i = 0; i < n; i++) samples[i] = Math.round(128 + 100 * Math.sin((2 * Math.PI * 440 * i) / rate));
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "ascii");
  h.writeUInt32LE(36 + n, 4);
  h.write("WAVE", 8, "ascii");
  h.write("fmt ", 12, "ascii");
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate, 28); // byte rate
  h.writeUInt16LE(1, 32); // block align
  h.writeUInt16LE(8, 34); // bits per sample
  h.write("data", 36, "ascii");
  h.writeUInt32LE(n, 40);
  return Buffer.concat([h, samples]);
}
const PNG_B64 = tinyPng().toString("base64");
const WAV_B64 = tinyWav().toString("base64");
const svgIcon = (fill) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${fill}"/></svg>`,
  ).toString("base64")}`;

// ---------------------------------------------------------------- state shared by every instance

/** Counters the tests read back through `server_stats`. */
const stats = { calls: 0, cancelled: 0, completed: 0 };
/** Live instances (stdio: the pinned one); `add_tool` tells each that the list changed. */
const liveInstances = new Set();
/** Set once the HTTP handler exists: publishes list_changed to open subscriptions/listen streams. */
let notifyToolsChanged = () => {};
/** HTTP (2026-07-28 clients): tells the subscriptions/listen streams that prompts or resources changed. */
let notifyListsChanged = () => {};

/** The input of the tools that add something by name (add_tool, add_prompt, add_resource). */
const NAME_INPUT = { type: "object", properties: { name: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" } }, required: ["name"] };
function checkName(name) {
  if (typeof name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw invalidParams("Invalid arguments: name");
}

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

const text = (t) => ({ type: "text", text: t });
const invalidParams = (msg) => new ProtocolError(ProtocolErrorCode.InvalidParams, msg);

/** Every tool: its definition exactly as listed, and its handler. */
const tools = [
  {
    def: {
      name: "echo",
      description: "Echoes the message back.",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    run: ({ message }) => {
      if (typeof message !== "string") throw invalidParams("Invalid arguments: message must be a string");
      return { content: [text(message)] };
    },
  },
  {
    def: {
      name: "weather",
      title: "Weather report",
      description: "Structured output: a made-up weather report for a city.",
      inputSchema: { type: "object", properties: { city: { type: "string", minLength: 1 } }, required: ["city"] },
      outputSchema: {
        type: "object",
        properties: {
          city: { type: "string" },
          tempC: { type: "number" },
          conditions: { type: "string", enum: ["sunny", "cloudy", "rain"] },
        },
        required: ["city", "tempC", "conditions"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run: ({ city }) => {
      const report = { city: String(city), tempC: 21.5, conditions: "sunny" };
      return { content: [text(JSON.stringify(report))], structuredContent: report };
    },
  },
  {
    def: {
      name: "primes",
      description: "Structured output with a non-object root (an array), as 2026-07-28 allows.",
      inputSchema: { type: "object", properties: { below: { type: "integer", minimum: 2, maximum: 1000 } }, required: ["below"] },
      outputSchema: { type: "array", items: { type: "integer" } },
    },
    run: ({ below }) => {
      const out = [];
      for (let n = 2; n < Number(below); n++) if (out.every((p) => n % p !== 0)) out.push(n);
      return { content: [text(out.join(", "))], structuredContent: out };
    },
  },
  {
    def: {
      name: "tiny_image",
      description: "Returns a 4x4 PNG image.",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => ({ content: [{ type: "image", data: PNG_B64, mimeType: "image/png" }, text("a 4x4 PNG")] }),
  },
  {
    def: {
      name: "tiny_audio",
      description: "Returns 0.1 s of a 440 Hz tone as a WAV file.",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => ({ content: [{ type: "audio", data: WAV_B64, mimeType: "audio/wav" }] }),
  },
  {
    def: {
      name: "resources",
      description: "Returns resource links (https, and example:// ones read through this server) and embedded resources (text, image, audio).",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => ({
      content: [
        {
          type: "resource_link",
          uri: "https://example.com/docs/readme.md",
          name: "readme.md",
          title: "The README",
          description: "A linked resource",
          mimeType: "text/markdown",
          size: 1234,
        },
        { type: "resource", resource: { uri: "file:///notes/hello.txt", mimeType: "text/plain", text: "Hello from an embedded resource." } },
        {
          type: "resource",
          resource: { uri: "file:///images/tiny.png", mimeType: "image/png", blob: PNG_B64 },
          annotations: { audience: ["user"], priority: 0.5 },
        },
        { type: "resource", resource: { uri: "file:///sounds/beep.wav", mimeType: "audio/wav", blob: WAV_B64 } },
        // Not http: a client opens these through this server (resources/read).
        {
          type: "resource_link",
          uri: "example://notes/changelog.md",
          name: "changelog.md",
          title: "The changelog",
          mimeType: "text/markdown",
          annotations: { audience: ["user", "assistant"], priority: 0.9, lastModified: "2026-11-30T12:00:00Z" },
        },
        { type: "resource_link", uri: "example://images/tiny.png", name: "tiny.png", mimeType: "image/png" },
      ],
    }),
  },
  {
    def: {
      name: "slow_count",
      title: "Slow count",
      description: "Counts to `to`, waiting `delayMs` between steps; reports progress and honours cancellation.",
      inputSchema: {
        type: "object",
        properties: { to: { type: "integer", minimum: 1, maximum: 100 }, delayMs: { type: "integer", minimum: 0, maximum: 5000 } },
        required: ["to"],
      },
    },
    run: async ({ to, delayMs = 100 }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      try {
        for (let i = 1; i <= to; i++) {
          await sleep(delayMs, ctx.mcpReq.signal);
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken: token, progress: i, total: to, message: `counted ${i} of ${to}` },
            });
          }
        }
      } catch (err) {
        if (ctx.mcpReq.signal.aborted) {
          stats.cancelled++;
          log("slow_count cancelled");
        }
        throw err;
      }
      stats.completed++;
      return { content: [text(`counted to ${to}`)] };
    },
  },
  {
    def: {
      name: "fail_politely",
      description: "Always reports a tool-level error (isError: true).",
      inputSchema: { type: "object", properties: { reason: { type: "string" } } },
    },
    run: ({ reason }) => ({ content: [text(`It did not work: ${reason ?? "no reason given"}`)], isError: true }),
  },
  {
    def: {
      name: "fancy",
      title: "Fancy tool",
      // `execution` reaches 2025-era clients only: 2026-07-28 removed it and the SDK drops it there.
      description: "A tool with every piece of metadata: title, annotations, icons, _meta and execution.",
      inputSchema: { type: "object", properties: { level: { type: "string", enum: ["low", "high"], default: "low" } } },
      annotations: { title: "Fancy (annotation title)", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      icons: [
        { src: `data:image/png;base64,${PNG_B64}`, mimeType: "image/png", sizes: ["4x4"] },
        { src: svgIcon("#222"), mimeType: "image/svg+xml", sizes: ["any"], theme: "light" },
        { src: svgIcon("#eee"), mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" },
      ],
      _meta: { "com.example/category": "demo", "com.example/version": 3 },
      execution: { taskSupport: "forbidden" },
    },
    run: ({ level = "low" }) => ({ content: [text(`fancy at ${level}`)] }),
  },
  {
    def: {
      name: "header_echo",
      description: "Has valid x-mcp-header annotations; returns the Mcp-Param-* headers it received (HTTP only).",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" },
          count: { type: "integer", "x-mcp-header": "Count" },
          target: { type: "object", properties: { id: { type: "string", "x-mcp-header": "Target-Id" } } },
          note: { type: "string" },
        },
        required: ["region"],
      },
      outputSchema: {
        type: "object",
        properties: { headers: { type: "object", additionalProperties: { type: "string" } } },
        required: ["headers"],
      },
    },
    run: (_args, ctx, request) => {
      const req = ctx.http?.req ?? request;
      const headers = {};
      if (req?.headers) for (const [k, v] of req.headers) if (k.toLowerCase().startsWith("mcp-param-")) headers[k.toLowerCase()] = v;
      return { content: [text(JSON.stringify(headers))], structuredContent: { headers } };
    },
  },
  {
    def: {
      name: "bad_header",
      description: "Has an INVALID x-mcp-header (inside array items): a client must exclude this tool.",
      inputSchema: {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string", "x-mcp-header": "Tag" } } },
      },
    },
    run: () => ({ content: [text("should never be called by a conforming client")] }),
  },
  {
    def: {
      name: "add",
      description: "Adds two integers (the server validates its arguments: wrong ones give JSON-RPC -32602).",
      inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] },
    },
    run: ({ a, b }) => {
      if (!Number.isInteger(a) || !Number.isInteger(b)) throw invalidParams("Invalid arguments: a and b must be integers");
      return { content: [text(String(a + b))], structuredContent: { sum: a + b } };
    },
  },
  {
    def: {
      name: "server_stats",
      description: "Counters kept by this server process (calls, cancelled, completed).",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => ({ content: [text(JSON.stringify(stats))], structuredContent: { ...stats } }),
  },
  {
    def: {
      name: "add_tool",
      description: "Registers a new tool `name` (it echoes its input) and sends notifications/tools/list_changed.",
      inputSchema: NAME_INPUT,
    },
    run: ({ name }) => {
      checkName(name);
      if (tools.some((t) => t.def.name === name)) return { content: [text(`tool ${name} already exists`)], isError: true };
      tools.push({
        def: {
          name,
          description: `Added at run time by add_tool.`,
          inputSchema: { type: "object", properties: { value: { type: "string" } } },
        },
        run: ({ value }) => ({ content: [text(`${name}: ${value ?? ""}`)] }),
      });
      // Tell clients after this response has gone out.
      setTimeout(() => {
        for (const s of liveInstances) s.sendToolListChanged().catch(() => {});
        notifyToolsChanged();
      }, 10);
      return { content: [text(`added tool ${name}`)] };
    },
  },
  {
    def: {
      name: "crash",
      description: "Exits the server process (stdio) — to try reconnection.",
      inputSchema: { type: "object", properties: {} },
      annotations: { destructiveHint: true },
    },
    run: () => {
      setTimeout(() => process.exit(3), 20);
      return { content: [text("exiting")] };
    },
  },
];

/**
 * Asks the client (elicitation/create or sampling/createMessage) during a tools/call: pushed on a
 * 2025-era connection; on the 2026-07-28 era an input_required result (the client answers and
 * retries the call with `inputResponses`). Resolves with `{ result }`, or `{ pending }` to return.
 */
async function askClient(ctx, method, params) {
  const prior = ctx.mcpReq.inputResponses?.ask;
  if (prior) return { result: prior };
  if (ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) return { pending: inputRequired({ inputRequests: { ask: { method, params } } }) };
  return { result: method === "sampling/createMessage" ? await ctx.mcpReq.requestSampling(params) : await ctx.mcpReq.elicitInput(params) };
}

const elicitationTool = (name, description, schema, message = "Please answer") => ({
  def: { name, description, inputSchema: { type: "object", properties: {} } },
  run: async (_args, ctx) => {
    const r = await askClient(ctx, "elicitation/create", { message, requestedSchema: schema });
    if (r.pending) return r.pending;
    return { content: [text(`Elicitation completed: action=${r.result.action}, content=${JSON.stringify(r.result.content ?? {})}`)] };
  },
});

/** The conformance suite's fixture tools that ask their client for input (elicitation, sampling). */
const askingTools = [
  {
    def: {
      name: "test_elicitation",
      description: "Conformance fixture: asks the client for a username and an email (elicitation).",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    run: async (args, ctx) => {
      const requestedSchema = {
        type: "object",
        properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
        required: ["username", "email"],
      };
      const r = await askClient(ctx, "elicitation/create", { message: String(args.message ?? "Please provide your information"), requestedSchema });
      if (r.pending) return r.pending;
      return { content: [text(`User response: action=${r.result.action}, content=${JSON.stringify(r.result.content ?? {})}`)] };
    },
  },
  {
    def: {
      name: "test_sampling",
      description: "Conformance fixture: asks the client's model to answer a prompt (sampling).",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    },
    run: async (args, ctx) => {
      const r = await askClient(ctx, "sampling/createMessage", {
        messages: [{ role: "user", content: { type: "text", text: String(args.prompt ?? "") } }],
        maxTokens: 100,
      });
      if (r.pending) return r.pending;
      const reply = Array.isArray(r.result.content) ? r.result.content : [r.result.content];
      return { content: [text(`LLM response: ${reply.map((c) => (c?.type === "text" ? c.text : `[${c?.type}]`)).join(" ")}`)] };
    },
  },
  elicitationTool("test_elicitation_sep1034_defaults", "Conformance fixture: an elicitation whose fields have defaults (SEP-1034).", {
    type: "object",
    properties: {
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
    },
  }),
  elicitationTool("test_elicitation_sep1330_enums", "Conformance fixture: an elicitation with every enum variant (SEP-1330).", {
    type: "object",
    properties: {
      untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
      titledSingle: {
        type: "string",
        oneOf: [
          { const: "value1", title: "First Option" },
          { const: "value2", title: "Second Option" },
          { const: "value3", title: "Third Option" },
        ],
      },
      legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
      untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
      titledMulti: {
        type: "array",
        items: {
          anyOf: [
            { const: "value1", title: "First Choice" },
            { const: "value2", title: "Second Choice" },
            { const: "value3", title: "Third Choice" },
          ],
        },
      },
    },
  }),
];

/**
 * The tools the official conformance suite (@modelcontextprotocol/conformance) calls by name in
 * its server scenarios, as its scenario descriptions define them: with `--conformance` (and the
 * studio's entry `"namespace": false`), the studio's /api/mcp offers them under these names.
 */
const conformanceTools = [
  {
    def: { name: "test_simple_text", description: "Conformance fixture: returns simple text.", inputSchema: { type: "object", properties: {} } },
    run: () => ({ content: [text("This is a simple text response for testing.")] }),
  },
  {
    def: { name: "test_image_content", description: "Conformance fixture: returns an image.", inputSchema: { type: "object", properties: {} } },
    run: () => ({ content: [{ type: "image", data: PNG_B64, mimeType: "image/png" }] }),
  },
  {
    def: { name: "test_audio_content", description: "Conformance fixture: returns audio (WAV).", inputSchema: { type: "object", properties: {} } },
    run: () => ({ content: [{ type: "audio", data: WAV_B64, mimeType: "audio/wav" }] }),
  },
  {
    def: { name: "test_embedded_resource", description: "Conformance fixture: returns an embedded resource.", inputSchema: { type: "object", properties: {} } },
    run: () => ({
      content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
    }),
  },
  {
    def: {
      name: "test_multiple_content_types",
      description: "Conformance fixture: returns text, an image and a resource.",
      inputSchema: { type: "object", properties: {} },
    },
    run: () => ({
      content: [
        text("Multiple content types test:"),
        { type: "image", data: PNG_B64, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
        },
      ],
    }),
  },
  {
    def: {
      name: "test_tool_with_logging",
      description: "Conformance fixture: sends three log messages while it runs.",
      inputSchema: { type: "object", properties: {} },
    },
    run: async (_args, ctx) => {
      for (const data of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
        // ctx.mcpReq.log applies the client's level: logging/setLevel (2025-era), or the request's
        // io.modelcontextprotocol/logLevel (2026-07-28, where a request without one gets none).
        await ctx.mcpReq.log("info", data, "example");
        await sleep(50);
      }
      return { content: [text("Tool with logging executed successfully")] };
    },
  },
  {
    def: { name: "test_error_handling", description: "Conformance fixture: always reports an error.", inputSchema: { type: "object", properties: {} } },
    run: () => ({ content: [text("This tool intentionally returns an error for testing")], isError: true }),
  },
  {
    def: {
      name: "test_tool_with_progress",
      description: "Conformance fixture: reports progress 0, 50 and 100 of 100.",
      inputSchema: { type: "object", properties: {} },
    },
    run: async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined)
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress, total: 100, message: `${progress}%` } });
        await sleep(50);
      }
      return { content: [text(String(token ?? "no progress token"))] };
    },
  },
  {
    def: {
      name: "json_schema_2020_12_tool",
      description: "Conformance fixture: an input schema in JSON Schema 2020-12 with $defs and additionalProperties.",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
        properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
        additionalProperties: false,
      },
    },
    run: (args) => ({ content: [text(JSON.stringify(args))] }),
  },
];
/** Tells every client, after this response has gone out, that the prompts or the resources changed. */
function listsChanged(kind) {
  setTimeout(() => {
    for (const s of liveInstances) (kind === "prompts" ? s.sendPromptListChanged() : s.sendResourceListChanged()).catch(() => {});
    notifyListsChanged(kind);
  }, 10);
}

/** Tools that change this server's prompts and resources, and say so (prompts/list_changed, resources/list_changed). */
const listChangingTools = [
  {
    def: {
      name: "add_prompt",
      description: "Adds a prompt `name` (no arguments) and sends notifications/prompts/list_changed.",
      inputSchema: NAME_INPUT,
    },
    run: ({ name }) => {
      checkName(name);
      if (!prompts.some((p) => p.def.name === name))
        prompts.push({ def: { name, description: "Added at run time by add_prompt." }, get: () => [{ role: "user", content: text(`Prompt ${name}.`) }] });
      listsChanged("prompts");
      return { content: [text(`added prompt ${name}`)] };
    },
  },
  {
    def: {
      name: "add_resource",
      description: "Adds a text resource test://added/<name> and sends notifications/resources/list_changed.",
      inputSchema: NAME_INPUT,
    },
    run: ({ name }) => {
      checkName(name);
      RESOURCES[`test://added/${name}`] = { mimeType: "text/plain", text: `Resource ${name}.` };
      listsChanged("resources");
      return { content: [text(`added resource ${name}`)] };
    },
  },
];
if (CONFORMANCE) tools.push(...conformanceTools, ...askingTools, ...listChangingTools);

// ---------------------------------------------------------------- resources (resources/read)

/** What `example://` URIs name: read through resources/read, as resource links of this server point to. */
const RESOURCES = {
  "example://notes/changelog.md": { mimeType: "text/markdown", text: "# Changelog\n\n- 1.0.0: first release of the example server.\n" },
  "example://images/tiny.png": { mimeType: "image/png", blob: PNG_B64 },
};

/** The conformance suite's fixture resources, template and prompts (with --conformance). */
if (CONFORMANCE) {
  Object.assign(RESOURCES, {
    "test://static-text": { mimeType: "text/plain", text: "This is the content of the static text resource." },
    "test://static-binary": { mimeType: "image/png", blob: PNG_B64 },
    "test://watched-resource": { mimeType: "text/plain", text: "Watched resource content." },
  });
}
const TEMPLATES = CONFORMANCE
  ? [{ uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data of the item {id}.", mimeType: "application/json" }]
  : [];
const templateRead = (uri) => {
  const m = CONFORMANCE && /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  return m ? { mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) } : undefined;
};
const prompts = CONFORMANCE
  ? [
      {
        def: { name: "test_simple_prompt", description: "A simple prompt without arguments." },
        get: () => [{ role: "user", content: text("This is a simple prompt for testing.") }],
      },
      {
        def: {
          name: "test_prompt_with_arguments",
          description: "A prompt with two arguments.",
          arguments: [
            { name: "arg1", description: "First test argument", required: true },
            { name: "arg2", description: "Second test argument", required: true },
          ],
        },
        get: ({ arg1, arg2 }) => [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
        complete: { arg1: ["paris", "park", "party"], arg2: ["red", "green"] },
      },
      {
        def: {
          name: "test_prompt_with_embedded_resource",
          description: "A prompt with an embedded resource.",
          arguments: [{ name: "resourceUri", description: "URI of the resource", required: true }],
        },
        get: ({ resourceUri }) => [
          {
            role: "user",
            content: { type: "resource", resource: { uri: String(resourceUri), mimeType: "text/plain", text: "Embedded resource content for testing." } },
          },
          { role: "user", content: text("Please process the embedded resource above.") },
        ],
      },
      {
        def: { name: "test_prompt_with_image", description: "A prompt with an image." },
        get: () => [
          { role: "user", content: { type: "image", data: PNG_B64, mimeType: "image/png" } },
          { role: "user", content: text("Please analyze the image above.") },
        ],
      },
    ]
  : [];

// ---------------------------------------------------------------- the server factory

const encodeCursor = (offset) => Buffer.from(JSON.stringify({ offset }), "utf8").toString("base64url");
function decodeCursor(cursor) {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    /* fall through */
  }
  throw invalidParams("Invalid cursor");
}

/** One instance per serving unit: one stdio connection, or one HTTP request (modern or legacy). */
function createServer(context) {
  const server = new Server(
    { name: "tool-studio-example", version: "1.0.0", title: "Tool Studio example server" },
    {
      capabilities: CONFORMANCE
        ? { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {}, logging: {} }
        : { tools: { listChanged: true }, resources: {} },
      instructions: "An example server that exercises Tool Studio.",
    },
  );
  server.setRequestHandler("tools/list", (request) => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    const page = tools.slice(offset, offset + PAGE_SIZE).map((t) => t.def);
    const next = offset + PAGE_SIZE < tools.length ? encodeCursor(offset + PAGE_SIZE) : undefined;
    return next ? { tools: page, nextCursor: next } : { tools: page };
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const tool = tools.find((t) => t.def.name === request.params.name);
    if (!tool) throw invalidParams(`Unknown tool: ${request.params.name}`);
    stats.calls++;
    return tool.run(request.params.arguments ?? {}, ctx, context?.requestInfo);
  });
  server.setRequestHandler("resources/list", () => ({
    resources: Object.entries(RESOURCES).map(([uri, r]) => ({ uri, name: uri.split("/").pop(), mimeType: r.mimeType })),
  }));
  if (CONFORMANCE) {
    server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: TEMPLATES }));
    server.setRequestHandler("resources/subscribe", () => ({}));
    server.setRequestHandler("resources/unsubscribe", () => ({}));
    server.setRequestHandler("prompts/list", () => ({ prompts: prompts.map((p) => p.def) }));
    server.setRequestHandler("prompts/get", (request) => {
      const p = prompts.find((x) => x.def.name === request.params.name);
      if (!p) throw invalidParams(`Unknown prompt: ${request.params.name}`);
      return { messages: p.get(request.params.arguments ?? {}) };
    });
    server.setRequestHandler("completion/complete", (request) => {
      const { ref, argument } = request.params;
      const choices = ref.type === "ref/prompt" ? (prompts.find((x) => x.def.name === ref.name)?.complete?.[argument.name] ?? []) : [];
      const values = choices.filter((c) => c.startsWith(argument.value ?? ""));
      return { completion: { values, total: values.length, hasMore: false } };
    });
  }
  server.setRequestHandler("resources/read", (request) => {
    const r = RESOURCES[request.params.uri] ?? templateRead(request.params.uri);
    // The spec's code for an unknown resource (-32002).
    if (!r) throw new ProtocolError(-32002, `Resource not found: ${request.params.uri}`);
    return { contents: [{ uri: request.params.uri, ...r }] };
  });
  liveInstances.add(server);
  server.onclose = () => liveInstances.delete(server);
  return server;
}

// ---------------------------------------------------------------- serving

if (httpPort !== undefined) {
  const handler = createMcpHandler((ctx) => createServer(ctx), { onerror: (e) => log("error:", e.message) });
  notifyToolsChanged = () => handler.notify.toolsChanged();
  notifyListsChanged = (kind) => (kind === "prompts" ? handler.notify.promptsChanged() : handler.notify.resourcesChanged());
  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    if (url.pathname !== "/mcp") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
      else if (v !== undefined) headers.set(k, v);
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
    const request = new Request(url, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined, signal: abort.signal });
    try {
      const response = hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? (await handler.fetch(request));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        const reader = response.body.getReader();
        abort.signal.addEventListener("abort", () => reader.cancel().catch(() => {}), { once: true });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          res.write(value);
        }
      }
      res.end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    }
  });
  httpServer.listen(Number(httpPort), "127.0.0.1", () => {
    const addr = httpServer.address();
    // The tests read this line to learn the port (use --http 0 for any free port).
    log(`listening on http://127.0.0.1:${addr.port}/mcp`);
  });
  const stop = () => {
    handler.close().finally(() => httpServer.close(() => process.exit(0)));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  serveStdio((ctx) => createServer(ctx), { onerror: (e) => log("error:", e.message) });
  log("serving on stdio");
}
