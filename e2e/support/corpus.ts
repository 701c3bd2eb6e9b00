import http from "node:http";
import { ROUTES, type RouteAccess } from "../../lib/auth/routes";
import { inspectJson } from "../../lib/http/input";

/**
 * A generated corpus of bad input for every declared route (lib/auth/routes.ts): hostile path
 * parameters, query strings and request bodies, sent as raw HTTP (node:http, so paths go out
 * exactly as written) by e2e/bad-input-corpus.spec.ts.
 *
 * Nothing here may change what other specs see: writes to destructive routes only ever carry
 * bodies the route must refuse (checked here, by `surelyRefused`, before a case is kept), DELETEs
 * name things that cannot exist, runs and presets go to a tool that does not exist, and nothing
 * is ever sent with valid credentials to /api/auth/* or as an MCP tools/call.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Case {
  method: Method;
  /** Sent exactly as written. */
  path: string;
  route: RouteAccess;
  /** What is hostile about it, for the report. */
  label: string;
  body?: string | Buffer;
  /** Send the body with chunked transfer encoding (no content-length). */
  chunked?: boolean;
  /** Extra headers; a null value leaves out a default (content-type). */
  headers?: Record<string, string | null>;
  /** The one status this case must get (e.g. 413 for bodies over the limit). */
  expectStatus?: number;
  /** A destructive route: the answer must never be a 2xx (that would mean it acted). */
  mustRefuse?: boolean;
  /**
   * Node's own HTTP parser refuses this request before the studio sees it (a request line over
   * its 16 KiB header limit, a raw non-ASCII byte in the path): a bare 4xx, no JSON to check.
   */
  transport?: boolean;
  /**
   * Sent to a real tool (a run or an MCP tools/call) with arguments lib/http/input.ts refuses: the
   * tool never runs, a `rejected` run is stored. Checked by buildCorpus before a case is kept.
   */
  rejectedRun?: boolean;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  /** The answer's headers, as sent. */
  headers: string[];
  /** The connection failed before a whole answer came (reset, hang-up, timeout). */
  error?: string;
  ms: number;
}

const ONE_MIB = 1024 * 1024; // lib/http/http.ts MAX_BODY_BYTES (STUDIO_MAX_BODY_BYTES is not set for e2e)
/** A tool, user, server, preset and run that cannot exist: writes to them change nothing. */
export const NO_TOOL = "corpus-no-such-tool";
const NO_USER = "corpus-no-such-user";
const NO_SERVER = "corpus-no-such-server";
const NO_PRESET = "corpus-no-such-preset";
const NO_RUN = "ffffffff-ffff-4fff-bfff-ffffffffffff";
const MARKER = "corpus_unknown";
const SIGN_IN_EMAIL = "corpus-nobody@example.invalid";

const route = (pattern: string): RouteAccess => {
  const r = ROUTES.find((x) => x.pattern === pattern);
  if (!r) throw new Error(`${pattern} is not declared in lib/auth/routes.ts`);
  return r;
};

/** Routes where a valid body (or an existing id) would change state that other specs rely on. */
const DESTRUCTIVE = new Set([
  "POST /api/users",
  "PATCH /api/users/[id]",
  "DELETE /api/users/[id]",
  "DELETE /api/users/[id]/sessions",
  "POST /api/runs/purge",
  "PUT /api/config",
  "POST /api/servers",
  "PATCH /api/servers/[name]",
  "DELETE /api/servers/[name]",
  "DELETE /api/tokens/[id]",
  "DELETE /api/tools/[name]/presets/[preset]",
  "POST /api/mcp",
]);
export const isDestructive = (method: Method, pattern: string) => DESTRUCTIVE.has(`${method} ${pattern}`);

// ---------------------------------------------------------------------------------------------
// Path parameters

/** One path segment each, raw (already percent-encoded where it must be): never an unencoded "/". */
export const HOSTILE_SEGMENTS: [string, string][] = [
  ["empty", ""],
  ["space", "%20"],
  ["plus", "+"],
  ["tab", "%09"],
  ["CRLF", "%0d%0a"],
  ["dot", "."],
  ["dot-dot", ".."],
  ["encoded dot-dot", "%2e%2e"],
  ["traversal with encoded slashes", "..%2f..%2fetc%2fpasswd"],
  ["traversal with backslashes", "..%5c..%5cwindows"],
  ["encoded slash", "a%2fb"],
  ["1200 characters", "a".repeat(1200)],
  ["501 characters", "b".repeat(501)],
  ["500 characters", "c".repeat(500)],
  ["600 encoded characters", "%41".repeat(600)],
  ["400 encoded snowmen", "%e2%98%83".repeat(400)],
  ["NUL", "%00"],
  ["name then NUL", "add%00"],
  ["NUL inside", "a%00b"],
  ["invalid percent-encoding %ff%fe", "%ff%fe"],
  ["lone percent", "%"],
  ["percent with non-hex", "%zz"],
  ["truncated UTF-8", "%e2%82"],
  ["overlong UTF-8", "%c0%af"],
  ["lone high surrogate (CESU-8)", "%ed%a0%80"],
  ["lone low surrogate (CESU-8)", "%ed%b0%80"],
  ["%u escape", "%uD800"],
  ["raw latin-1 byte", "\u00e9"],
  ["snowman", "%e2%98%83"],
  ["emoji", "%f0%9f%92%a9"],
  ["right-to-left override", "%e2%80%aeevil"],
  ["zero-width space", "a%e2%80%8bdd"],
  ["byte-order mark", "%ef%bb%bfadd"],
  ["combining accent", "e%cc%81"],
  ["full-width letters", "%ef%bd%81%ef%bd%84%ef%bd%84"],
  ["SQL quote", "'%20OR%20'1'='1"],
  ["SQL drop", "1;DROP%20TABLE%20runs;--"],
  ["SQL comment", "add'--"],
  ["SQL union", "x%20UNION%20SELECT%20*%20FROM%20users"],
  ["HTML script", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
  ["HTML img", "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"],
  ["HTML entities", "%26lt%3B%26gt%3B"],
  ["36 dashes", "-".repeat(36)],
  ["uuid with a g", "00000000-0000-0000-0000-00000000000g"],
  ["uuid without dashes", "0".repeat(32)],
  ["uuid in braces", "%7B00000000-0000-0000-0000-000000000000%7D"],
  ["all-f uuid", "ffffffff-ffff-ffff-ffff-ffffffffffff"],
  ["nil uuid", "00000000-0000-0000-0000-000000000000"],
  ["uuid one too long", "00000000-0000-0000-0000-0000000000000"],
  ["negative number", "-1"],
  ["zero", "0"],
  ["huge number", "9".repeat(30)],
  ["1e309", "1e309"],
  ["NaN", "NaN"],
  ["null", "null"],
  ["undefined", "undefined"],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["toString", "toString"],
  ["hasOwnProperty", "hasOwnProperty"],
  ["template literal", "%24%7B7*7%7D"],
  ["mustache", "%7B%7B7*7%7D%7D"],
  ["format string", "%25s%25n%25x"],
  ["encoded percent", "%25"],
  ["double-encoded NUL", "%2500"],
  ["double-encoded %ff", "%25ff"],
  ["matrix parameter", "add;jsessionid=1"],
  ["encoded question mark", "add%3Fx%3D1"],
  ["encoded hash", "add%23frag"],
  ["Windows device name", "CON"],
  ["tilde", "~"],
  ["JSON text", "%7B%22a%22%3A1%7D"],
];

/** A byte outside ASCII sent as is: Node's HTTP parser answers 400 before the studio sees the request. */
const RAW_BYTE = /[\u0080-\uffff]/;

/** The harmless value of each parameter while another one is hostile. */
const BENIGN: Record<string, string> = { "[name]": NO_TOOL, "[id]": NO_RUN, "[preset]": NO_PRESET, "[...all]": "get-session" };
const BENIGN_BY_ROUTE: Record<string, Record<string, string>> = {
  "/api/users/[id]": { "[id]": NO_USER },
  "/api/users/[id]/sessions": { "[id]": NO_USER },
  "/api/servers/[name]": { "[name]": NO_SERVER },
  "/api/servers/[name]/resources/read": { "[name]": NO_SERVER },
  "/api/servers/[name]/resources": { "[name]": NO_SERVER },
  "/api/servers/[name]/prompts": { "[name]": NO_SERVER },
  "/api/servers/[name]/prompts/get": { "[name]": NO_SERVER },
  "/api/servers/[name]/oauth": { "[name]": NO_SERVER },
  "/api/servers/[name]/oauth/callback": { "[name]": NO_SERVER },
  "/api/servers/[name]/complete": { "[name]": NO_SERVER },
  "/api/servers/[name]/resources/follow": { "[name]": NO_SERVER },
  "/servers/[name]": { "[name]": NO_SERVER },
  "/api/tokens/[id]": { "[id]": NO_RUN },
  // Reads reach further with a tool that exists.
  "/api/tools/[name]": { "[name]": "add" },
  "/api/tools/[name]/options": { "[name]": "add" },
  "/api/tools/[name]/inferred-schema": { "[name]": "add" },
  "/tools/[name]": { "[name]": "add" },
};

const fill = (pattern: string, values: Record<string, string>) =>
  pattern
    .split("/")
    .map((s) => values[s] ?? BENIGN_BY_ROUTE[pattern]?.[s] ?? BENIGN[s] ?? s)
    .join("/") || "/";

/** The body a write gets while its path is what is hostile: one the handler takes, unless the route is destructive. */
function pathCaseBody(method: Method, pattern: string): string | undefined {
  if (method === "GET" || method === "DELETE") return undefined;
  if (isDestructive(method, pattern)) return JSON.stringify({ [MARKER]: true });
  if (pattern === "/api/tools/[name]/run") return JSON.stringify({ arguments: { a: 1, b: 2 } });
  if (pattern === "/api/tools/[name]/presets") return JSON.stringify({ name: "corpus", arguments: {} });
  if (pattern === "/api/auth/[...all]") return JSON.stringify({});
  return undefined; // e.g. /api/runs/[id]/cancel reads no body
}

function pathCases(): Case[] {
  const out: Case[] = [];
  for (const r of ROUTES) {
    const params = r.pattern.split("/").filter((s) => s.startsWith("["));
    if (!params.length) continue;
    for (const method of Object.keys(r.methods) as Method[]) {
      for (const param of params) {
        for (const [label, value] of HOSTILE_SEGMENTS) {
          out.push({
            method,
            path: fill(r.pattern, { [param]: value }),
            route: r,
            label: `path ${param} = ${label}`,
            body: pathCaseBody(method, r.pattern),
            mustRefuse: isDestructive(method, r.pattern),
            transport: RAW_BYTE.test(value),
          });
        }
      }
    }
  }
  // The rest of the better-auth path, a few segments deep.
  const auth = route("/api/auth/[...all]");
  for (const prefix of ["callback", "sign-in", "oauth2/callback"]) {
    for (const [label, value] of HOSTILE_SEGMENTS.filter((_, i) => i % 3 === 0)) {
      out.push({
        method: "GET",
        path: `/api/auth/${prefix}/${value}`,
        route: auth,
        label: `path /api/auth/${prefix}/… = ${label}`,
        transport: RAW_BYTE.test(value),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Query strings

const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join("&");

export const HOSTILE_QUERIES: [string, string][] = [
  ["limit=-1", "limit=-1"],
  ["limit=abc", "limit=abc"],
  ["limit=1e9", "limit=1e9"],
  ["limit=0", "limit=0"],
  ["limit=1.5", "limit=1.5"],
  ["limit of 23 digits", "limit=" + "9".repeat(23)],
  ["limit in hex", "limit=0x10"],
  ["limit empty", "limit="],
  ["limit with spaces", "limit=%20%201%20"],
  ["limit=Infinity", "limit=Infinity"],
  ["limit=NaN", "limit=NaN"],
  ["limit with NUL", "limit=1%00"],
  ["limit repeated, valid then not", "limit=1&limit=abc"],
  ["limit repeated 50 times", repeat(50, () => "limit=5")],
  ["cursor garbage", "cursor=garbage"],
  ["cursor base64 JSON", "cursor=eyJpZCI6MX0"],
  ["cursor JSON", "cursor=%7B%22t%22%3A%22x%22%7D"],
  ["cursor of 5000 characters", "cursor=" + "z".repeat(5000)],
  ["cursor SQL", "cursor=1'%20OR%201=1--"],
  ["cursor NUL", "cursor=%00"],
  ["cursor empty", "cursor="],
  ["cursor timestamp|uuid", "cursor=2024-01-01T00%3A00%3A00.000Z%7Cffffffff-ffff-ffff-ffff-ffffffffffff"],
  ["since far past", "since=-271821-04-20"],
  ["until far future", "until=999999-01-01"],
  ["since year 0", "since=0000-01-01"],
  ["since garbage", "since=someday"],
  ["since Feb 30", "since=2024-02-30"],
  ["since 25:61", "since=2024-01-01T25%3A61%3A00Z"],
  ["until=1e20", "until=1e20"],
  ["since beyond Date", "since=-8640000000000001"],
  ["since after until", "since=2030-01-01&until=2020-01-01"],
  ["until the last Date", "until=%2B275760-09-13T00%3A00%3A00.000Z"],
  ["status unknown", "status=bogus"],
  ["status in capitals", "status=SUCCESS"],
  ["origin unknown", "origin=bogus"],
  ["errorKind unknown", "errorKind=bogus"],
  ["errorKind=__proto__", "errorKind=__proto__"],
  ["status repeated, valid then not", "status=success&status=bogus"],
  ["tool with NUL", "tool=a%00b"],
  ["q NUL", "q=%00"],
  ["q of 201 characters", "q=" + "q".repeat(201)],
  ["q SQL", "q=%27%20OR%201%3D1--"],
  ["q HTML", "q=%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
  ["q LIKE wildcards", "q=%25_%25"],
  ["q backslash", "q=%5C"],
  ["value %ff%fe", "x=%ff%fe"],
  ["key %ff", "%ff=1"],
  ["lone percent", "x=%"],
  ["lone surrogate (CESU-8)", "x=%ed%a0%80"],
  ["unicode value", "q=%e2%98%83%f0%9f%92%a9"],
  ["unknown parameter", "corpus=1"],
  ["__proto__ parameter", "__proto__=1"],
  ["constructor parameter", "constructor=x"],
  ["brackets", "a[b]=c"],
  ["empty key", "=x"],
  ["only ampersands", "&&&"],
  ["semicolons", "a=1;b=2"],
  ["plus signs", "q=a+b+c"],
  ["15000-character value", "x=" + "a".repeat(15_000)],
  ["500 parameters", repeat(500, (i) => `p${i}=${i}`)],
  ["action of 65 characters", "action=" + "a".repeat(65)],
  ["actor of 201 characters", "actor=" + "a".repeat(201)],
  ["target of 501 characters", "target=" + "t".repeat(501)],
  ["from=-1", "from=-1"],
  ["from=1e400", "from=1e400"],
  ["from=abc", "from=abc"],
  ["checkpoint garbage", "checkpoint=garbage"],
  ["checkpoint with a bad hash", "checkpoint=1:" + "g".repeat(64)],
  ["checkpoint not in the chain", "checkpoint=999999:" + "0".repeat(64)],
  ["format unknown", "format=xml"],
  ["format repeated, valid then not", "format=csv&format=bogus"],
  ["args not JSON", "args=%7B"],
  ["args an array", "args=%5B%5D"],
  ["args with __proto__", "args=%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D"],
  ["args nested 2000 deep", "args=" + "%5B".repeat(2000) + "%5D".repeat(2000)],
  ["agent empty", "agent="],
  ["agent unknown", "agent=corpus-no-such-agent"],
  ["all=%00", "all=%00"],
  ["fromRun garbage", "fromRun=garbage"],
  ["fromRun 36 dashes", "fromRun=" + "-".repeat(36)],
  ["three runs", "run=a&run=b&run=c"],
  ["run 36 dashes", "run=" + "-".repeat(36) + "&run=x"],
  ["next off-site", "next=https%3A%2F%2Fevil.example"],
  ["next javascript:", "next=javascript%3Aalert(1)"],
  ["error HTML", "error=%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
  ["token of 300 characters", "token=" + "t".repeat(300)],
  ["token garbage", "token=garbage"],
  ["source unknown", "source=corpus"],
];

/** A request line past Node's 16 KiB header limit: answered by Node's parser, before the app. */
const OVERSIZED_QUERY: [string, string] = ["query over 16 KiB", "x=" + "a".repeat(17_000)];

/** The queries a page reads (plus a few generic ones); pages are slower to render than the API. */
const PAGE_QUERY_LABELS = new Set([
  "limit=-1",
  "cursor garbage",
  "cursor of 5000 characters",
  "cursor NUL",
  "cursor timestamp|uuid",
  "since far past",
  "until far future",
  "since garbage",
  "since beyond Date",
  "until the last Date",
  "status unknown",
  "origin unknown",
  "errorKind unknown",
  "status repeated, valid then not",
  "tool with NUL",
  "q of 201 characters",
  "q SQL",
  "q HTML",
  "value %ff%fe",
  "lone surrogate (CESU-8)",
  "__proto__ parameter",
  "15000-character value",
  "500 parameters",
  "action of 65 characters",
  "target of 501 characters",
  "fromRun garbage",
  "fromRun 36 dashes",
  "three runs",
  "run 36 dashes",
  "next off-site",
  "next javascript:",
  "error HTML",
  "token of 300 characters",
  "token garbage",
  "source unknown",
  "unicode value",
]);

function queryCases(): Case[] {
  const out: Case[] = [];
  for (const r of ROUTES) {
    if (!r.methods.GET) continue;
    const path = fill(r.pattern, { "[id]": NO_RUN });
    const reads = ["/", "/runs", "/runs/compare", "/audit", "/tools/[name]", "/sign-in", "/setup"].includes(r.pattern);
    const queries =
      r.kind === "api"
        ? HOSTILE_QUERIES
        : HOSTILE_QUERIES.filter(([label]) =>
            reads ? PAGE_QUERY_LABELS.has(label) : ["cursor garbage", "value %ff%fe", "500 parameters", "__proto__ parameter", "tool with NUL"].includes(label),
          );
    for (const [label, q] of queries) {
      // An export that parses would be audited and streamed: every export query here must fail.
      const query = r.pattern === "/api/runs/export" && !q.includes("format=") ? `${q}&format=bogus` : q;
      out.push({ method: "GET", path: `${path}?${query}`, route: r, label: `query ${label}` });
    }
    if (r.kind === "api") out.push({ method: "GET", path: `${path}?${OVERSIZED_QUERY[1]}`, route: r, label: `query ${OVERSIZED_QUERY[0]}`, transport: true });
  }
  // A few on writes too: the ids cannot exist, the bodies are refused.
  for (const pattern of ["/api/tokens/[id]", "/api/users/[id]/sessions", "/api/servers/[name]", "/api/runs/[id]/cancel"]) {
    const r = route(pattern);
    const method = (Object.keys(r.methods) as Method[]).find((m) => m !== "PATCH")!;
    for (const [label, q] of HOSTILE_QUERIES.filter((_, i) => i % 6 === 0)) {
      out.push({ method, path: `${fill(pattern, {})}?${q}`, route: r, label: `query ${label}`, mustRefuse: isDestructive(method, pattern) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bodies

const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const manyKeys = (n: number) => "{" + Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",") + "}";
const bigArray = (n: number) => "[" + "0,".repeat(n - 1) + "0]";
const overLimit = (bytes: number) => `{"x":"${"a".repeat(bytes - 8)}"}`;

interface BodyVariant {
  label: string;
  body?: string | Buffer;
  chunked?: boolean;
  headers?: Record<string, string | null>;
  /** Over the body limit: 413 where the route reads its body. */
  tooLarge?: boolean;
}

/** Bodies that are wrong for any route. */
const GENERIC_BODIES: BodyVariant[] = [
  { label: "no body", body: undefined },
  { label: "empty", body: "" },
  { label: "whitespace only", body: " \n\t " },
  { label: "not JSON: {", body: "{" },
  { label: "not JSON: }", body: "}" },
  { label: "not JSON: truncated", body: '{"a":' },
  { label: "not JSON: single quotes", body: "{'a':1}" },
  { label: "not JSON: bare key", body: "{a:1}" },
  { label: "not JSON: trailing comma", body: '{"a":1,}' },
  { label: "not JSON: NaN", body: "NaN" },
  { label: "not JSON: undefined", body: "undefined" },
  { label: "not JSON: XML", body: '<?xml version="1.0"?><a/>' },
  { label: "not JSON: form-encoded", body: "a=1&b=2" },
  { label: "not JSON: two documents", body: '{"a":1}{"b":2}' },
  { label: "not JSON: raw NUL byte in a string", body: '{"a":"\u0000"}' },
  { label: "not JSON: invalid UTF-8", body: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]) },
  { label: "not JSON: byte-order mark", body: "\ufeff{}" },
  { label: "not JSON: UTF-16", body: Buffer.from('{"a":1}', "utf16le") },
  { label: "not JSON: comment", body: '{"a":1 /* c */}' },
  { label: "JSON array", body: "[]" },
  { label: "JSON array of objects", body: '[{"a":1}]' },
  { label: "JSON number", body: "0" },
  { label: "JSON negative number", body: "-1" },
  { label: "JSON 1e999", body: "1e999" },
  { label: "JSON string", body: '"string"' },
  { label: "JSON null", body: "null" },
  { label: "JSON true", body: "true" },
  { label: "JSON false", body: "false" },
  { label: "JSON empty object", body: "{}" },
  { label: "array nested 10000 deep", body: deepArray(10_000) },
  { label: "object nested 10000 deep", body: deepObject(10_000) },
  { label: "10000 unclosed brackets", body: "[".repeat(10_000) },
  { label: "array nested 100000 deep", body: deepArray(100_000) },
  { label: "__proto__ key", body: '{"__proto__":{"polluted":true}}' },
  { label: "nested __proto__ key", body: '{"a":{"__proto__":{"polluted":true}}}' },
  { label: "constructor.prototype", body: '{"constructor":{"prototype":{"polluted":true}}}' },
  { label: "NUL key", body: '{"\\u0000":1}' },
  { label: "NUL value", body: '{"a":"\\u0000"}' },
  { label: "lone surrogate key", body: '{"\\ud800":1}' },
  { label: "lone surrogate value", body: '{"a":"\\udfff"}' },
  { label: "CESU-8 surrogate bytes", body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]) },
  { label: "10001 keys", body: manyKeys(10_001) },
  { label: "20000 items", body: bigArray(20_000) },
  { label: "2 MB with content-length", body: overLimit(2 * 1024 * 1024), tooLarge: true },
  { label: "2 MB chunked", body: overLimit(2 * 1024 * 1024), chunked: true, tooLarge: true },
  { label: "1 MiB + 1 byte", body: overLimit(ONE_MIB + 1), tooLarge: true },
  { label: "content-type text/plain", body: '{"a":1}', headers: { "content-type": "text/plain" } },
  { label: "content-type form", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } },
  {
    label: "content-type multipart, garbage",
    body: "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--",
    headers: { "content-type": "multipart/form-data; boundary=x" },
  },
  { label: "no content-type", body: '{"a":1}', headers: { "content-type": null } },
  { label: "content-type charset=utf-16", body: '{"a":1}', headers: { "content-type": "application/json; charset=utf-16" } },
];

/** Raw JSON values put in place of one field. */
const FIELD_VALUES: [string, string][] = [
  ["number", "123"],
  ["negative number", "-1"],
  ["fraction", "1.5"],
  ["1e309", "1e309"],
  ["true", "true"],
  ["null", "null"],
  ["array", "[1,2]"],
  ["object", '{"a":1}'],
  ["empty string", '""'],
  ["whitespace string", '"   "'],
  ["NUL in a string", '"x\\u0000y"'],
  ["lone high surrogate", '"\\ud800"'],
  ["lone low surrogate", '"a\\udc00"'],
  ["reversed surrogate pair", '"\\udc00\\ud800"'],
  ["array nested 10000 deep", deepArray(10_000)],
  ["object nested 10000 deep", deepObject(10_000)],
  ["__proto__ object", '{"__proto__":{"polluted":true}}'],
  ["constructor.prototype", '{"constructor":{"prototype":{"polluted":true}}}'],
  ["NUL key", '{"a\\u0000":1}'],
  ["SQL", JSON.stringify("' OR 1=1; DROP TABLE runs; --")],
  ["HTML", JSON.stringify("<script>alert(1)</script><img src=x onerror=alert(1)>")],
  ["date far in the past", '"-271821-04-20T00:00:00Z"'],
  ["date past the end of Date", '"+275760-09-13T00:00:00.001Z"'],
  ["36 dashes", JSON.stringify("-".repeat(36))],
  ["10001 keys", manyKeys(10_001)],
  ["20000 items", bigArray(20_000)],
];
/** Only for fields that hold strings (they are large). */
const HUGE_STRING: [string, string] = ["string of 900000 characters", JSON.stringify("a".repeat(900_000))];
const HUGE_ONCE: [string, string][] = [
  ["string of 1000001 characters", JSON.stringify("b".repeat(1_000_001))],
  ["400000 two-byte characters", JSON.stringify("é".repeat(400_000))],
];

interface BodyRoute {
  method: Method;
  pattern: string;
  path: string;
  /** A value per field that the route takes (the other fields keep these while one is wrong). */
  fields: Record<string, unknown>;
  /** The handler reads the body first (so a body over the limit is a 413). */
  readsBody: boolean;
  headers?: Record<string, string | null>;
}

const BODY_ROUTES: BodyRoute[] = [
  // The environment's admin token is not a person: token creation refuses it before the body.
  {
    method: "POST",
    pattern: "/api/tokens",
    path: "/api/tokens",
    fields: { name: "corpus", role: "viewer", expiresAt: "2099-01-01T00:00:00Z" },
    readsBody: false,
  },
  {
    method: "POST",
    pattern: "/api/users",
    path: "/api/users",
    fields: { email: "corpus-user@example.invalid", name: "Corpus", password: "corpus-password", role: "viewer" },
    readsBody: true,
  },
  {
    method: "PATCH",
    pattern: "/api/users/[id]",
    path: `/api/users/${NO_USER}`,
    fields: { role: "viewer", name: "Corpus", email: "corpus@example.invalid", password: "corpus-password" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/tools/[name]/run",
    path: `/api/tools/${NO_TOOL}/run`,
    fields: { arguments: { a: 1, b: 2 }, timeoutMs: 1000, replayOf: "00000000-0000-4000-8000-000000000000", confirm: false, agent: "corpus" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/tools/[name]/run",
    path: `/api/tools/${NO_TOOL}/run`,
    fields: { arguments: { a: 1 } },
    readsBody: true,
    headers: { accept: "application/x-ndjson" },
  },
  {
    method: "POST",
    pattern: "/api/tools/[name]/run",
    path: `/api/tools/${NO_TOOL}/run`,
    fields: { arguments: { a: 1 }, mode: "async", priority: 5 },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/tools/[name]/presets",
    path: `/api/tools/${NO_TOOL}/presets`,
    fields: { name: "corpus", arguments: {}, agent: "corpus" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/tools/param-options",
    path: "/api/tools/param-options",
    fields: { domain: "corpus-no-such-domain", agent: "corpus", args: {} },
    readsBody: true,
  },
  { method: "POST", pattern: "/api/triggers/match", path: "/api/triggers/match", fields: { message: "hello" }, readsBody: true },
  { method: "POST", pattern: "/api/runs/purge", path: "/api/runs/purge", fields: { dryRun: true }, readsBody: true },
  { method: "POST", pattern: "/api/runs/[id]/cancel", path: `/api/runs/${NO_RUN}/cancel`, fields: {}, readsBody: false },
  {
    method: "POST",
    pattern: "/api/runs/[id]/input",
    path: `/api/runs/${NO_RUN}/input`,
    fields: { inputId: "00000000-0000-4000-8000-000000000000", action: "decline" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/servers",
    path: "/api/servers",
    fields: {
      name: "corpus-server",
      transport: "stdio",
      command: "true",
      args: [],
      env: {},
      cwd: "/tmp",
      enabled: false,
      timeoutMs: 1000,
      toolTimeouts: {},
      url: "http://127.0.0.1:1/",
      headers: {},
    },
    readsBody: true,
  },
  { method: "PATCH", pattern: "/api/servers/[name]", path: `/api/servers/${NO_SERVER}`, fields: { enabled: false }, readsBody: true },
  {
    method: "POST",
    pattern: "/api/servers/[name]/resources/read",
    path: `/api/servers/${NO_SERVER}/resources/read`,
    fields: { uri: "example://corpus" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/servers/[name]/prompts/get",
    path: `/api/servers/${NO_SERVER}/prompts/get`,
    fields: { name: "corpus", arguments: { a: "b" } },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/servers/[name]/complete",
    path: `/api/servers/${NO_SERVER}/complete`,
    fields: { ref: { type: "ref/prompt", name: "corpus" }, argument: { name: "a", value: "b" }, context: { arguments: { c: "d" } } },
    readsBody: true,
  },
  { method: "PUT", pattern: "/api/config", path: "/api/config", fields: { text: "{}", expectedVersion: "0".repeat(64) }, readsBody: true },
  {
    method: "POST",
    pattern: "/api/auth/[...all]",
    path: "/api/auth/sign-in/email",
    fields: { email: SIGN_IN_EMAIL, password: "not-the-password", rememberMe: false, callbackURL: "/" },
    readsBody: true,
  },
  {
    method: "POST",
    pattern: "/api/auth/[...all]",
    path: "/api/auth/sign-in/social",
    fields: { provider: "corpus-no-such-provider", callbackURL: "/" },
    readsBody: true,
  },
];

const objectText = (entries: [string, string][]) => "{" + entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",") + "}";

/**
 * Whether a body is one the route must refuse whatever the path says: not JSON, not an object,
 * input lib/http/input.ts refuses, or an object with a field the route's strict schema does not
 * know. Mirrors lib/http/http.ts readJsonChecked (an empty body reads as `{}`, which some routes take).
 */
export function surelyRefused(body: string | Buffer | undefined, known: string[]): boolean {
  if (body === undefined) return false;
  const text = Buffer.isBuffer(body) ? body.toString("utf8") : body;
  if (!text.trim()) return false;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return true;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return true;
  if (inspectJson(data).length) return true;
  return Object.keys(data).some((k) => !known.includes(k));
}

function bodyCases(): Case[] {
  const out: Case[] = [];
  for (const br of BODY_ROUTES) {
    const r = route(br.pattern);
    const destructive = isDestructive(br.method, br.pattern);
    const names = Object.keys(br.fields);
    const push = (v: BodyVariant) => {
      if (destructive && !surelyRefused(v.body, names)) return; // never a body such a route could act on
      const expectStatus = v.tooLarge && br.readsBody ? 413 : undefined;
      out.push({
        method: br.method,
        path: br.path,
        route: r,
        label: `body ${v.label}`,
        body: v.body,
        chunked: v.chunked,
        headers: { ...br.headers, ...v.headers },
        expectStatus,
        mustRefuse: destructive,
      });
    };
    for (const v of GENERIC_BODIES) push(v);
    if (!names.length) continue;

    const valid = Object.entries(br.fields).map(([k, v]) => [k, JSON.stringify(v)] as [string, string]);
    const marker: [string, string][] = destructive ? [[MARKER, "true"]] : [];
    const withField = (name: string, raw: string) => objectText([...valid.map(([k, v]) => [k, k === name ? raw : v] as [string, string]), ...marker]);
    let hugeOnce = false;
    for (const name of names) {
      const values = [...FIELD_VALUES];
      if (typeof br.fields[name] === "string") {
        values.push(HUGE_STRING);
        if (!hugeOnce) values.push(...HUGE_ONCE);
        hugeOnce = true;
      }
      for (const [label, raw] of values) push({ label: `field ${name}: ${label}`, body: withField(name, raw) });
      push({ label: `only field ${name}, wrong type`, body: objectText([[name, typeof br.fields[name] === "string" ? "[]" : '"x"'], ...marker]) });
      push({ label: `field ${name} given twice`, body: objectText([...valid, [name, "{}"], ...marker]) });
    }
    for (const [label, extra] of [
      ["unknown field", [MARKER, "1"]],
      ["unknown field constructor", ["constructor", "{}"]],
      ["unknown field toString", ["toString", '"x"']],
      ["unknown field hasOwnProperty", ["hasOwnProperty", "1"]],
      ["__proto__ beside the fields", ["__proto__", '{"role":"admin"}']],
      ["1000-character unknown key", ["k".repeat(1000), "1"]],
    ] as [string, [string, string]][]) {
      push({ label: `body ${label}`, body: objectText([...valid, extra]) });
    }
    // Everything at once, wrong.
    push({
      label: "every field wrong",
      body: objectText([...names.map((n) => [n, typeof br.fields[n] === "string" ? "1" : '"x"'] as [string, string]), ...marker]),
    });
  }

  // Each sign-in case names its own (unknown) account: 10 failures lock an account for 15 minutes,
  // and a locked account would answer 429 before better-auth looks at the rest of the body.
  let n = 0;
  for (const c of out) {
    if (c.path === "/api/auth/sign-in/email" && typeof c.body === "string") c.body = c.body.replace(SIGN_IN_EMAIL, `corpus-nobody-${n++}@example.invalid`);
  }

  // Other better-auth endpoints: sign-up is closed, the others need a session or a token nobody has.
  const auth = route("/api/auth/[...all]");
  for (const path of [
    "/api/auth/sign-up/email",
    "/api/auth/change-password",
    "/api/auth/reset-password",
    "/api/auth/request-password-reset",
    "/api/auth/sign-out",
    "/api/auth/sign-in/oauth2",
    "/api/auth/revoke-sessions",
  ]) {
    for (const v of GENERIC_BODIES.filter((_, i) => i % 3 === 0)) {
      out.push({ method: "POST", path, route: auth, label: `body ${v.label}`, body: v.body, chunked: v.chunked, headers: v.headers });
    }
    out.push({
      method: "POST",
      path,
      route: auth,
      label: "body NUL in every string",
      body: '{"email":"corpus\\u0000@example.invalid","password":"x\\u0000","newPassword":"y\\u0000","token":"\\u0000","providerId":"\\u0000","name":"\\u0000"}',
    });
    out.push({
      method: "POST",
      path,
      route: auth,
      label: "body lone surrogates in every string",
      body: '{"email":"\\ud800@example.invalid","password":"\\udc00","newPassword":"\\ud800","token":"\\udfff","providerId":"\\ud800","name":"\\udc00"}',
    });
  }

  // Writes that read no body: it is ignored, never acted on.
  for (const pattern of ["/api/tokens/[id]", "/api/users/[id]", "/api/users/[id]/sessions", "/api/servers/[name]", "/api/tools/[name]/presets/[preset]"]) {
    const r = route(pattern);
    for (const v of GENERIC_BODIES.filter((_, i) => i % 5 === 0)) {
      out.push({
        method: "DELETE",
        path: fill(pattern, {}),
        route: r,
        label: `body ${v.label}`,
        body: v.body,
        chunked: v.chunked,
        headers: v.headers,
        mustRefuse: true,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The studio as an MCP server: JSON-RPC that is wrong, never a tools/call

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

function mcpCases(): Case[] {
  const r = route("/api/mcp");
  const rpc = (o: object) => JSON.stringify({ jsonrpc: "2.0", ...o });
  const init = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${params}}`;
  const bodies: BodyVariant[] = [
    ...GENERIC_BODIES.filter((v) => v.label !== "no body"),
    { label: "jsonrpc only", body: rpc({}) },
    { label: "jsonrpc 1.0", body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "ping" }) },
    { label: "method a number", body: rpc({ id: 1, method: 123 }) },
    { label: "method unknown", body: rpc({ id: 1, method: "corpus/unknown" }) },
    { label: "method with NUL", body: '{"jsonrpc":"2.0","id":1,"method":"ping\\u0000"}' },
    { label: "id an object", body: rpc({ id: {}, method: "ping" }) },
    { label: "id null", body: rpc({ id: null, method: "ping" }) },
    { label: "id 1e309", body: '{"jsonrpc":"2.0","id":1e309,"method":"ping"}' },
    { label: "id a lone surrogate", body: '{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}' },
    { label: "tools/list params a string", body: rpc({ id: 1, method: "tools/list", params: "x" }) },
    { label: "tools/list params an array", body: rpc({ id: 1, method: "tools/list", params: [] }) },
    { label: "tools/list cursor a number", body: rpc({ id: 1, method: "tools/list", params: { cursor: 5 } }) },
    { label: "tools/list cursor garbage", body: rpc({ id: 1, method: "tools/list", params: { cursor: "garbage" } }) },
    { label: "tools/list _meta a string", body: rpc({ id: 1, method: "tools/list", params: { _meta: "x" } }) },
    { label: "tools/list progressToken an object", body: rpc({ id: 1, method: "tools/list", params: { _meta: { progressToken: {} } } }) },
    { label: "tools/list params nested 10000 deep", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${deepArray(10_000)}}}` },
    { label: "tools/list __proto__ in params", body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"__proto__":{"polluted":true}}}' },
    { label: "initialize params a number", body: init("1") },
    { label: "initialize protocolVersion a number", body: init('{"protocolVersion":123,"capabilities":{},"clientInfo":{"name":"corpus","version":"1"}}') },
    { label: "initialize capabilities a string", body: init('{"protocolVersion":"2025-06-18","capabilities":"x","clientInfo":null}') },
    { label: "initialize clientInfo name NUL", body: init('{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"\\u0000","version":1}}') },
    { label: "initialize clientInfo name lone surrogate", body: init('{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"\\udc00"}}') },
    { label: "initialize capabilities nested 10000 deep", body: init(`{"protocolVersion":"2025-06-18","capabilities":${deepObject(10_000)}}`) },
    { label: "initialize capabilities __proto__", body: init('{"protocolVersion":"2025-06-18","capabilities":{"__proto__":{"polluted":true}}}') },
    {
      label: "initialize clientInfo name 900000 characters",
      body: init(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":${HUGE_STRING[1]}}}`),
    },
    { label: "batch with junk", body: `[${rpc({ id: 1, method: "ping" })},5,"x",null]` },
    { label: "batch of 1000 pings", body: `[${Array.from({ length: 1000 }, (_, i) => rpc({ id: i, method: "ping" })).join(",")}]` },
    { label: "notification initialized", body: rpc({ method: "notifications/initialized" }) },
    { label: "notification cancelled, garbage id", body: rpc({ method: "notifications/cancelled", params: { requestId: "garbage" } }) },
    { label: "a response", body: rpc({ id: 1, result: {} }) },
    { label: "an error response, code a string", body: rpc({ id: 1, error: { code: "x" } }) },
    { label: "tools/list, no accept", body: rpc({ id: 1, method: "tools/list" }), headers: { accept: null } },
    { label: "tools/list, accept text/html", body: rpc({ id: 1, method: "tools/list" }), headers: { accept: "text/html" } },
    { label: "tools/list, content-type text/plain", body: rpc({ id: 1, method: "tools/list" }), headers: { "content-type": "text/plain" } },
    { label: "tools/list, session id garbage", body: rpc({ id: 1, method: "tools/list" }), headers: { "mcp-session-id": "garbage" } },
    { label: "tools/list, session id 36 dashes", body: rpc({ id: 1, method: "tools/list" }), headers: { "mcp-session-id": "-".repeat(36) } },
    { label: "tools/list, session id 1000 characters", body: rpc({ id: 1, method: "tools/list" }), headers: { "mcp-session-id": "s".repeat(1000) } },
    { label: "tools/list, protocol version garbage", body: rpc({ id: 1, method: "tools/list" }), headers: { "mcp-protocol-version": "9999-99-99" } },
  ];
  const out: Case[] = bodies.map((v) => ({
    method: "POST",
    path: "/api/mcp",
    route: r,
    label: `mcp body ${v.label}`,
    body: v.body,
    chunked: v.chunked,
    headers: { ...MCP_HEADERS, ...v.headers },
    expectStatus: v.tooLarge && !v.headers?.["content-type"] ? 413 : undefined,
  }));
  for (const [label, headers] of [
    ["no accept", { accept: null }],
    ["session id garbage", { "mcp-session-id": "garbage" }],
    ["session id 36 dashes", { "mcp-session-id": "-".repeat(36) }],
    ["protocol version garbage", { "mcp-protocol-version": "corpus" }],
  ] as [string, Record<string, string | null>][]) {
    out.push({ method: "GET", path: "/api/mcp", route: r, label: `mcp GET ${label}`, headers: { accept: "text/event-stream", ...headers } });
    out.push({ method: "DELETE", path: "/api/mcp", route: r, label: `mcp DELETE ${label}`, headers: { ...MCP_HEADERS, ...headers } });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Input that reaches the database: bad keys at any depth on real tools, values past what an index
// holds, cursors the studio never gave out, bodies far over the limit (issue 37, item 2)

/** Real built-in tools: a run of them with bad arguments is stored `rejected`, without running. */
const REAL_TOOLS = ["add", "json_query", "send_message", "create_event"];
/** Text PostgreSQL cannot store, as JSON escapes: NUL and lone surrogates, alone or in words. */
const UNSTORABLE = ["\\u0000", "\\ud800", "\\udfff", "a\\u0000b", "\\udc00\\ud800", "x\\ud83d", "\\ude00y"];

/** `{"k0": [ {"k2": … {<key>: 1} } ] }`: the bad key `depth` levels down, through objects and arrays. */
function keyAtDepth(key: string, depth: number, arrays: boolean): string {
  let inner = `{"${key}":1}`;
  for (let i = depth - 1; i >= 0; i--) inner = arrays && i % 2 ? `[${inner}]` : `{"k${i}":${inner}}`;
  return inner;
}

/** Arguments lib/http/input.ts refuses, as raw JSON: a key it cannot store at some depth, or nesting past any stack. */
function* refusedArguments(): Generator<[string, string]> {
  for (const key of UNSTORABLE) {
    for (const depth of [0, 1, 2, 7, 30, 63]) {
      yield [`key "${key}" at depth ${depth}`, keyAtDepth(key, depth, false)];
      if (depth >= 2) yield [`key "${key}" at depth ${depth} through arrays`, keyAtDepth(key, depth, true)];
    }
    yield [`key "${key}" beside good keys`, `{"a":1,"${key}":2,"b":{"c":3}}`];
    yield [`value "${key}" under key "${key}"`, `{"${key}":"${key}"}`];
  }
  for (const n of [65, 1000, 50_000]) {
    yield [`objects nested ${n} deep`, `{"a":${deepObject(n)}}`];
    yield [`arrays nested ${n} deep`, `{"a":${deepArray(n)}}`];
  }
}

const runArgs = (args: string) => `{"arguments":${args}}`;
const MODERN_META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"corpus","version":"1"}}`;

function storedCases(): Case[] {
  const out: Case[] = [];
  const run = route("/api/tools/[name]/run");
  const mcp = route("/api/mcp");
  const all = [...refusedArguments()];
  all.forEach(([label, args], i) => {
    const tool = REAL_TOOLS[i % REAL_TOOLS.length]!;
    out.push({
      method: "POST",
      path: `/api/tools/${tool}/run`,
      route: run,
      label: `run ${tool}: ${label}`,
      body: runArgs(args),
      expectStatus: 400,
      rejectedRun: true,
    });
    // Through /api/mcp, in both eras: a tool result flagged isError (the rejected run), never an exception.
    const params = (meta: boolean) => `{"name":"${tool}","arguments":${args}${meta ? `,${MODERN_META}` : ""}}`;
    const modern = { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": tool };
    if (i % 2 === 0)
      out.push({
        method: "POST",
        path: "/api/mcp",
        route: mcp,
        label: `mcp tools/call ${tool} (2026-07-28): ${label}`,
        body: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":${params(true)}}`,
        headers: modern,
        rejectedRun: true,
      });
    else
      out.push({
        method: "POST",
        path: "/api/mcp",
        route: mcp,
        label: `mcp tools/call ${tool} (2025, no session): ${label}`,
        body: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":${params(false)}}`,
        headers: MCP_HEADERS,
        rejectedRun: true,
      });
  });
  return out;
}

/** Text that does not compress: PostgreSQL compresses what it indexes, so a run of one letter fits any index. */
function incompressible(n: number, seed: number): string {
  let x = seed * 2654435761 + 1;
  let out = "";
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += x.toString(36);
  }
  return out.slice(0, n);
}

/** Routes that write a value into an indexed text column (runs' actor and tool, presets, audit entries), or read by one. */
const INDEXED_FIELD_ROUTES: { method: Method; path: string; pattern: string; body: (v: string) => string; expectStatus?: number }[] = [
  {
    method: "POST",
    path: "/api/tools/add/presets",
    pattern: "/api/tools/[name]/presets",
    body: (v) => JSON.stringify({ name: v, arguments: {} }),
    expectStatus: 400,
  },
  {
    method: "POST",
    path: "/api/tools/add/presets",
    pattern: "/api/tools/[name]/presets",
    body: (v) => JSON.stringify({ name: "corpus", arguments: {}, agent: v }),
    expectStatus: 400,
  },
  {
    method: "POST",
    path: "/api/tools/add/run",
    pattern: "/api/tools/[name]/run",
    body: (v) => JSON.stringify({ arguments: { a: 1 }, agent: v }),
    expectStatus: 400,
  },
  { method: "POST", path: "/api/tools/param-options", pattern: "/api/tools/param-options", body: (v) => JSON.stringify({ domain: v, agent: v, args: {} }) },
  { method: "POST", path: "/api/triggers/match", pattern: "/api/triggers/match", body: (v) => JSON.stringify({ message: v }) },
];
/** Filters over indexed columns: [route, parameter]. */
const INDEXED_QUERIES: [string, string][] = [
  "/api/runs actor",
  "/api/runs tool",
  "/api/runs source",
  "/api/runs/stats tool",
  "/api/audit actor",
  "/api/audit target",
  "/api/audit action",
].map((s) => s.split(" ") as [string, string]);

function longValueCases(): Case[] {
  const out: Case[] = [];
  const sizes = [2_705, 8_192, 12_000, 100_000, 900_000];
  for (const r of INDEXED_FIELD_ROUTES) {
    sizes.forEach((n, i) => {
      out.push({
        method: r.method,
        path: r.path,
        route: route(r.pattern),
        label: `indexed field: ${n} characters that do not compress`,
        body: r.body(incompressible(n, i + 1)),
        expectStatus: r.expectStatus,
      });
    });
  }
  for (const [path, param] of INDEXED_QUERIES) {
    // A query string stays under Node's 16 KiB request line.
    for (const n of [2_705, 8_192, 15_000])
      out.push({
        method: "GET",
        path: `${path}?${param}=${incompressible(n, n)}`,
        route: route(path),
        label: `query ${param} of ${n} characters that do not compress`,
      });
  }
  // better-auth keys its (database) rate limit by address and path: a path of many 490-character segments.
  const auth = route("/api/auth/[...all]");
  for (const segments of [6, 17, 28]) {
    const path = Array.from({ length: segments }, (_, i) => incompressible(490, 100 + i)).join("/");
    for (const prefix of ["sign-in/email", "callback", "get-session"]) {
      out.push({
        method: prefix === "sign-in/email" ? "POST" : "GET",
        path: `/api/auth/${prefix}/${path}`,
        route: auth,
        label: `auth path of ${segments} segments of 490 characters`,
        body: prefix === "sign-in/email" ? "{}" : undefined,
      });
    }
  }
  return out;
}

/** Cursors the studio never gave out: each listing's own form, with dates PostgreSQL cannot hold, other keys, other encodings. */
function cursorCases(): Case[] {
  const b64 = (t: string) => Buffer.from(t).toString("base64url");
  const years = ["-271821-04-20", "-000001-01-01", "0000-01-01", "+010000-01-01", "+275760-09-13", "2024-02-30", "2023-02-29"];
  // Keys of neither listing's form (a lower-case uuid is a run's, a number an audit entry's: both well-formed).
  const keys = [NO_RUN.toUpperCase(), "-".repeat(36), "0", "01", "9".repeat(19), "", `${NO_RUN}x`];
  const forged: [string, string][] = [];
  for (const y of years) for (const k of [NO_RUN, "1"]) forged.push([`${y} | ${k.slice(0, 8)}`, b64(`${y}T00:00:00.000Z|${k}`)]);
  for (const k of keys) forged.push([`2024 | key ${JSON.stringify(k.slice(0, 12))}`, b64(`2024-01-01T00:00:00.000Z|${k}`)]);
  forged.push(
    ["three parts", b64(`2024-01-01T00:00:00.000Z|1|2`)],
    ["padded", `${b64("2024-01-01T00:00:00.000Z|1")}==`],
    ["trailing bits", `${b64("2024-01-01T00:00:00.000Z|1")}B`],
  );
  forged.push(
    ["tools cursor at 0", b64(JSON.stringify([0, "add"]))],
    ["tools cursor of a float", b64(JSON.stringify([1.5, "add"]))],
    ["tools cursor with spaces", b64(JSON.stringify([1, "add"], null, 1))],
  );
  const out: Case[] = [];
  for (const [path, pattern, extra] of [
    ["/api/runs", "/api/runs", ""],
    ["/api/audit", "/api/audit", ""],
    ["/api/tools", "/api/tools", "&limit=1"],
  ] as const) {
    for (const [label, c] of forged)
      out.push({ method: "GET", path: `${path}?cursor=${c}${extra}`, route: route(pattern), label: `cursor ${label}`, expectStatus: 400 });
  }
  for (const [label, c] of forged.filter((_, i) => i % 3 === 0)) {
    for (const page of ["/runs", "/audit"]) out.push({ method: "GET", path: `${page}?cursor=${c}`, route: route(page), label: `page cursor ${label}` });
  }
  return out;
}

/** Bodies far over the limit, declared or chunked: answered 413, and the answer read whole while the client still sends. */
function oversizedCases(): Case[] {
  const out: Case[] = [];
  for (const mb of [1.5, 4, 10]) {
    const body = overLimit(Math.round(mb * ONE_MIB));
    for (const chunked of [false, true]) {
      const how = chunked ? "chunked" : "with content-length";
      out.push({
        method: "POST",
        path: "/api/tools/add/run",
        route: route("/api/tools/[name]/run"),
        label: `body of ${mb} MB ${how}`,
        body,
        chunked,
        expectStatus: 413,
      });
      out.push({
        method: "POST",
        path: "/api/tools/add/presets",
        route: route("/api/tools/[name]/presets"),
        label: `body of ${mb} MB ${how}`,
        body,
        chunked,
        expectStatus: 413,
      });
      out.push({
        method: "POST",
        path: "/api/mcp",
        route: route("/api/mcp"),
        label: `mcp body of ${mb} MB ${how}`,
        body,
        chunked,
        headers: MCP_HEADERS,
        expectStatus: 413,
      });
    }
  }
  // Refused by the door before any handler reads the body (no credentials): the 401 is read as well.
  const big = overLimit(10 * ONE_MIB);
  for (const [path, pattern] of [
    ["/api/tools/add/run", "/api/tools/[name]/run"],
    ["/api/tools/add/presets", "/api/tools/[name]/presets"],
    ["/api/mcp", "/api/mcp"],
    ["/api/runs/purge", "/api/runs/purge"],
  ] as const) {
    for (const chunked of [false, true]) {
      out.push({
        method: "POST",
        path,
        route: route(pattern),
        label: `body of 10 MB ${chunked ? "chunked" : "with content-length"}, no credentials`,
        body: big,
        chunked,
        headers: { ...(pattern === "/api/mcp" ? MCP_HEADERS : {}), authorization: null },
        expectStatus: 401,
        mustRefuse: true,
      });
    }
  }
  return out;
}

/** The whole corpus. */
export function buildCorpus(): Case[] {
  const cases = [...pathCases(), ...queryCases(), ...bodyCases(), ...mcpCases(), ...storedCases(), ...longValueCases(), ...cursorCases(), ...oversizedCases()];
  for (const c of cases) {
    const realRun = /^\/api\/tools\/[^/]*\/run$/.test(c.path) && c.method === "POST" && REAL_TOOLS.some((t) => c.path === `/api/tools/${t}/run`);
    const mcpCall = c.route.pattern === "/api/mcp" && typeof c.body === "string" && c.body.includes("tools/call");
    if ((realRun || mcpCall) && !surelyRejected(c)) throw new Error(`a corpus case would run a real tool: ${c.label}`);
  }
  return cases;
}

/** A case sent to a real tool whose arguments lib/http/input.ts refuses, or whose body is refused before any run. */
function surelyRejected(c: Case): boolean {
  // Refused before any handler: too large, or sent without credentials.
  if (c.expectStatus === 413 || (c.expectStatus === 401 && c.headers?.authorization === null)) return true;
  if (typeof c.body !== "string") return false;
  let data: { arguments?: unknown; params?: { arguments?: unknown }; agent?: unknown };
  try {
    data = JSON.parse(c.body);
  } catch {
    return false;
  }
  // An agent past the run route's 200-character limit: refused before the run.
  if (typeof data.agent === "string" && data.agent.length > 200) return true;
  const args = c.route.pattern === "/api/mcp" ? data.params?.arguments : data.arguments;
  return c.rejectedRun === true && inspectJson(args).length > 0;
}

// ---------------------------------------------------------------------------------------------
// Sending

const MAX_KEEP = 4 * 1024 * 1024;

/** One raw request; the answer, or how the connection failed. Never rejects. */
export function send(base: URL, c: Case, defaults: Record<string, string>, timeoutMs = 20_000): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Omit<Answer, "ms">) => {
      if (settled) return;
      settled = true;
      resolve({ ...a, ms: Date.now() - started });
    };
    const headers: Record<string, string> = { ...defaults };
    if (c.body !== undefined) headers["content-type"] = "application/json";
    for (const [k, v] of Object.entries(c.headers ?? {})) {
      if (v === null) delete headers[k];
      else headers[k] = v;
    }
    const body = c.body === undefined ? undefined : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body, "utf8");
    if (body && !c.chunked) headers["content-length"] = String(body.length);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent: false });
    } catch (err) {
      done({ status: 0, contentType: "", body: "", headers: [], error: `could not send: ${(err as Error).message}` });
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", (err: NodeJS.ErrnoException) =>
      done({ status: 0, contentType: "", body: "", headers: [], error: `${err.code ?? "error"}: ${err.message}` }),
    );
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const contentType = String(res.headers["content-type"] ?? "");
      const headers = res.rawHeaders;
      // Streams (config events, an MCP stream) answer with their status: that is all we need,
      // except from a tools/call, whose one message (then the end) is what is checked.
      if ((contentType.includes("text/event-stream") || contentType.includes("ndjson")) && !(c.rejectedRun && c.route.pattern === "/api/mcp")) {
        res.destroy();
        req.destroy();
        done({ status, contentType, headers, body: "" });
        return;
      }
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on("data", (d: Buffer) => {
        if (kept < MAX_KEEP) chunks.push(d);
        kept += d.length;
      });
      res.on("end", () => done({ status, contentType, headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("aborted", () =>
        done({ status, contentType, headers, body: Buffer.concat(chunks).toString("utf8"), error: "the connection closed in the middle of the answer" }),
      );
      res.on("error", (err: NodeJS.ErrnoException) =>
        done({ status, contentType, headers, body: Buffer.concat(chunks).toString("utf8"), error: `${err.code ?? "error"} in the answer: ${err.message}` }),
      );
    });
    if (body && c.chunked) {
      const step = 64 * 1024;
      for (let i = 0; i < body.length; i += step) req.write(body.subarray(i, i + step));
      req.end();
    } else req.end(body);
  });
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!, i);
      }
    }),
  );
  return results;
}

/** Why a 4xx answer of an API route lacks the one error shape `{"error": {kind, message, details?}}`, or null. */
export function shapeProblem(c: Case, a: Answer): string | null {
  if (c.route.kind !== "api" || a.status < 400 || a.status >= 500) return null;
  if (c.route.pattern === "/api/auth/[...all]" && a.status === 404 && a.body === "") return null;
  let j: unknown;
  try {
    j = JSON.parse(a.body);
  } catch {
    return "the 4xx answer is not JSON";
  }
  const o = (typeof j === "object" && j !== null ? j : {}) as Record<string, unknown>;
  const e = (typeof o.error === "object" && o.error !== null ? o.error : {}) as Record<string, unknown>;
  if (typeof e.kind === "string" && /^[a-z]+(?:_[a-z]+)*$/.test(e.kind) && typeof e.message === "string" && e.message.trim()) {
    if (e.details !== undefined && !Array.isArray(e.details)) return "error.details is not an array";
    return null;
  }
  // better-auth answers its own endpoints with `{message, code}`, and a path it has no endpoint for with a bare 404.
  if (c.route.pattern === "/api/auth/[...all]" && typeof o.message === "string" && o.message.trim() && (o.code === undefined || typeof o.code === "string"))
    return null;
  // The MCP endpoint speaks JSON-RPC: `{jsonrpc: "2.0", error: {code, message}, id}`.
  if (c.route.pattern === "/api/mcp" && o.jsonrpc === "2.0" && typeof e.code === "number" && typeof e.message === "string" && e.message.trim()) return null;
  return "the 4xx answer lacks the error shape {error: {kind, message}}";
}

/**
 * Why the answer to a tools/call with refused arguments is not the studio's refusal, or null: it
 * must be a JSON-RPC answer, a tool result flagged isError (the rejected run) or an error other
 * than "internal".
 */
export function mcpCallProblem(a: Answer): string | null {
  const text = a.contentType.includes("text/event-stream")
    ? (a.body
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "")
    : a.body;
  let j: { jsonrpc?: unknown; result?: { isError?: unknown }; error?: { code?: unknown } };
  try {
    j = JSON.parse(text);
  } catch {
    return "the answer to tools/call is not one JSON-RPC message";
  }
  if (j.jsonrpc !== "2.0") return "the answer to tools/call is not JSON-RPC";
  if (j.result?.isError === true) return null;
  if (j.error && typeof j.error.code === "number" && j.error.code !== -32603) return null;
  return `tools/call with refused arguments was not refused: ${text.slice(0, 200)}`;
}

/** A short description of a body for the report. */
export function bodySummary(c: Case): string {
  if (c.body === undefined) return "no body";
  const len = Buffer.isBuffer(c.body) ? c.body.length : Buffer.byteLength(c.body);
  const text = Buffer.isBuffer(c.body) ? c.body.toString("utf8") : c.body;
  return `${len} bytes${c.chunked ? " chunked" : ""}: ${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? "…" : ""}`;
}

export const shortPath = (p: string) => (p.length > 140 ? `${p.slice(0, 140)}…(${p.length} chars)` : p);
