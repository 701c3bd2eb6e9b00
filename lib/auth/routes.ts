import type { Access, Role } from "./roles";

/**
 * Every route and page the studio serves, with who may call it. The door (door.ts) refuses any
 * path that is not listed here, so a route cannot be added without declaring its access; a test
 * walks app/ and checks every route file against this table and the status it answers.
 *
 * Patterns use the folder names of app/: `[name]` is one path segment, `[...all]` the rest.
 * Handlers may narrow further (e.g. a token may be revoked by its owner or an admin; the run
 * policy of lib/auth/policy.ts per tool), never widen.
 */
export interface RouteAccess {
  pattern: string;
  /** A page (answers HTML: anonymous people are sent to sign in) or an API route (JSON). */
  kind: "page" | "api";
  methods: Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Access>>;
}

const page = (pattern: string, access: Access): RouteAccess => ({ pattern, kind: "page", methods: { GET: access } });
const api = (pattern: string, methods: RouteAccess["methods"]): RouteAccess => ({ pattern, kind: "api", methods });

export const ROUTES: readonly RouteAccess[] = [
  // Pages
  page("/", "viewer"),
  page("/tools/[name]", "viewer"),
  page("/budget", "viewer"),
  page("/runs", "viewer"),
  page("/runs/[id]", "viewer"),
  page("/runs/compare", "viewer"),
  page("/triggers", "viewer"),
  page("/servers", "viewer"),
  page("/servers/[name]", "viewer"),
  page("/outbox", "viewer"),
  page("/audit", "viewer"),
  page("/settings", "viewer"),
  page("/tokens", "viewer"),
  page("/users", "admin"),
  page("/sign-in", "public"),
  // The one-time first-admin link printed at start (a route handler that signs the opener in).
  { pattern: "/setup", kind: "page", methods: { GET: "public" } },

  // Sign-in, sign-out, SSO callback: better-auth checks its own inputs and origins.
  api("/api/auth/[...all]", { GET: "public", POST: "public" }),
  // Liveness and database reachability, for load balancers and the error page: says nothing else.
  api("/api/health", { GET: "public" }),
  api("/api/me", { GET: "viewer" }),
  api("/api/tokens", { GET: "viewer", POST: "viewer" }),
  api("/api/tokens/[id]", { DELETE: "viewer" }),
  api("/api/users", { GET: "admin", POST: "admin" }),
  api("/api/users/[id]", { PATCH: "admin", DELETE: "admin" }),
  api("/api/users/[id]/sessions", { DELETE: "admin" }),

  api("/api/tools", { GET: "viewer" }),
  api("/api/tools/[name]", { GET: "viewer" }),
  api("/api/tools/[name]/run", { POST: "runner" }),
  api("/api/tools/[name]/options", { GET: "viewer" }),
  // What a model is given for a tool (lib/model-view): what a viewer sees of its schemas, per provider.
  api("/api/tools/[name]/definition", { GET: "viewer" }),
  api("/api/tools/definitions", { GET: "viewer" }),
  api("/api/tools/definitions/export", { GET: "viewer" }),
  api("/api/tools/budget", { GET: "viewer" }),
  api("/api/tools/[name]/inferred-schema", { GET: "viewer" }),
  api("/api/tools/[name]/inferred-schema/download", { GET: "viewer" }),
  api("/api/tools/[name]/inferred-schema/adopt", { POST: "admin" }),
  api("/api/tools/[name]/presets", { GET: "viewer", POST: "runner" }),
  api("/api/tools/[name]/presets/[preset]", { PATCH: "runner", DELETE: "runner" }),
  api("/api/tools/param-options", { POST: "viewer" }),
  api("/api/triggers/match", { POST: "viewer" }),

  api("/api/runs", { GET: "viewer" }),
  api("/api/runs/stats", { GET: "viewer" }),
  api("/api/runs/export", { GET: "admin" }),
  api("/api/runs/purge", { POST: "admin" }),
  api("/api/runs/[id]", { GET: "viewer" }),
  // The run's result as a provider's model receives it (never the operator-only detail).
  api("/api/runs/[id]/model-view", { GET: "viewer" }),
  api("/api/runs/[id]/cancel", { POST: "runner" }),
  // A server's requests for input during a run (elicitation, sampling): the run's caller (or an admin) reads and answers them.
  api("/api/runs/[id]/input", { GET: "runner", POST: "runner" }),

  api("/api/servers", { GET: "viewer", POST: "admin" }),
  api("/api/servers/[name]", { PATCH: "admin", DELETE: "admin" }),
  // Reading contacts the server on the caller's behalf, like a run: runner, and audited.
  api("/api/servers/[name]/resources/read", { POST: "runner" }),
  // Following a resource subscribes upstream on the caller's behalf (and the page re-reads it): runner.
  api("/api/servers/[name]/resources/follow", { GET: "runner" }),
  // Getting a prompt sends its arguments to the server on the caller's behalf: runner, and audited.
  // The lists (names, descriptions, argument names) are what a viewer sees of tools too.
  api("/api/servers/[name]/resources", { GET: "viewer" }),
  api("/api/servers/[name]/prompts", { GET: "viewer" }),
  api("/api/servers/[name]/prompts/get", { POST: "runner" }),
  // OAuth for a remote server: signing the studio in (and out) is a server setting, like adding one.
  // The callback is where the authorization server sends the admin's browser back (a cross-site
  // navigation the door lets through for this path only); it finishes only the flow its caller started.
  api("/api/servers/[name]/oauth", { POST: "admin", DELETE: "admin" }),
  api("/api/servers/[name]/oauth/callback", { GET: "admin" }),
  // Completions send what someone types into a prompt or template form to the server on their
  // behalf, to feed the forms only a runner can submit: runner (not audited: asked per keystroke).
  api("/api/servers/[name]/complete", { POST: "runner" }),
  api("/api/config", { GET: "viewer", PUT: "admin" }),
  api("/api/config/events", { GET: "viewer" }),
  api("/api/audit", { GET: "viewer" }),
  api("/api/audit/verify", { GET: "viewer" }),
  api("/api/outbox", { GET: "viewer" }),
  // The studio as an MCP server: the route admits a viewer; each JSON-RPC method then needs its
  // role from MCP_METHODS below (lib/mcp-server/access.ts), and tools/call the run policy per tool.
  api("/api/mcp", { GET: "viewer", POST: "viewer", DELETE: "viewer" }),
];

/**
 * /api/mcp serves many actions on one route, so the door is per JSON-RPC method: what each
 * request method needs, by the same rule as the REST route doing the same thing (listing is what
 * a viewer sees of tools; reading a resource, getting a prompt, completing and subscribing contact
 * a server on the caller's behalf, like /api/servers/{name}/resources/read: runner). A method the
 * studio serves but does not list here is refused to everyone (lib/mcp-server/access.ts).
 * tools/call needs runner too, and is checked by the run policy (a refused call is captured).
 */
export const MCP_METHODS = {
  initialize: "viewer",
  ping: "viewer",
  "server/discover": "viewer",
  "logging/setLevel": "viewer",
  "subscriptions/listen": "viewer",
  "tools/list": "viewer",
  "prompts/list": "viewer",
  "resources/list": "viewer",
  "resources/templates/list": "viewer",
  "tools/call": "runner",
  "prompts/get": "runner",
  "resources/read": "runner",
  "resources/subscribe": "runner",
  "resources/unsubscribe": "runner",
  "completion/complete": "runner",
} as const satisfies Record<string, Role>;

export type McpMethod = keyof typeof MCP_METHODS;

/** The role an /api/mcp request method needs; null for a method the table does not declare. */
export const mcpMethodAccess = (method: string): Role | null => (Object.hasOwn(MCP_METHODS, method) ? MCP_METHODS[method as McpMethod] : null);

interface Compiled {
  route: RouteAccess;
  re: RegExp;
  /** Static segments first, so /runs/compare wins over /runs/[id]. */
  specificity: number;
}

const compiled: Compiled[] = ROUTES.map((route) => {
  const segs = route.pattern.split("/").filter(Boolean);
  const re = segs.map((s) => (s.startsWith("[...") ? "(?:/.+)" : s.startsWith("[") ? "/[^/]+" : "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return { route, re: new RegExp(`^${re || "/"}/?$`), specificity: segs.filter((s) => !s.startsWith("[")).length * 100 - segs.length };
}).sort((a, b) => b.specificity - a.specificity);

/** The declared route a path belongs to, or null when the studio serves no such path. */
export function findRoute(pathname: string): RouteAccess | null {
  for (const c of compiled) if (c.re.test(pathname)) return c.route;
  return null;
}
