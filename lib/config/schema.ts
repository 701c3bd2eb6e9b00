import jsonata from "jsonata";
import { z } from "zod";
import { compileSchema } from "../schema/validate";

/**
 * The runtime config: the value sets that tools' option domains are resolved from (agents,
 * channels, peers, groups, memory categories, custom lists) and the MCP servers to connect.
 * Written as JSONC (JSON with comments); its JSON Schema is published at
 * /schemas/runtime-config.schema.json (generated from this file by `npm run config:schema`).
 */

const name = z.string().trim().min(1).max(120);

/** A reference to a channel, written `type.alias` (e.g. `slack.ops`). */
export const channelRef = z.string().regex(/^[a-z0-9_-]+\.[A-Za-z0-9_.-]+$/, "must be a channel reference `type.alias`, e.g. `slack.ops`");

export const Channel = z.strictObject({
  type: z
    .string()
    .regex(/^[a-z0-9_-]+$/, "must be lowercase letters, digits, _ or -")
    .describe("Channel type, e.g. slack, telegram, email."),
  alias: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _, . or -")
    .describe("Name of this channel within its type."),
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  peers: z.array(name).default([]).describe("Who can be reached on this channel: peer agent aliases or external `@user` peers."),
});

export const Agent = z.strictObject({
  alias: name.describe("The agent's alias."),
  description: z.string().optional(),
  channels: z.array(channelRef).default([]).describe("Channels this agent uses, as `type.alias`."),
  groups: z.array(name).default([]).describe("Groups this agent may address."),
});

export const Peer = z.strictObject({
  id: name.describe("A peer agent alias, or an external peer written `@user`."),
  kind: z.enum(["agent", "external"]).optional().describe("Defaults to external for `@user`, agent otherwise."),
  label: z.string().optional(),
});

export const Group = z.strictObject({
  name,
  description: z.string().optional(),
  members: z.array(name).default([]),
});

export const MemoryCategory = z.strictObject({ name, description: z.string().optional() });

const mcpNamespace = z
  .boolean()
  .optional()
  .describe(
    "false: offer this server's tools under their own names instead of `<server>__<tool>` (a name an earlier source already has stays with that source, and the clash is reported).",
  );

/**
 * Bounds of an `mcpServers` entry, checked before anything is written (config, database, process):
 * a server's name is a key of database rows, an audit target and part of its tools' names.
 */
export const MCP_SERVER_LIMITS = {
  name: 64,
  command: 4096,
  args: 256,
  arg: 8192,
  env: 256,
  envName: 256,
  envValue: 32_768,
  cwd: 4096,
  url: 2048,
  headers: 64,
  headerName: 256,
  headerValue: 8192,
  toolTimeouts: 1000,
  toolName: 128,
  timeoutMs: 86_400_000,
  scope: 1000,
  rootUri: 2048,
} as const;
const L = MCP_SERVER_LIMITS;

const atMost = (n: number) => `must be at most ${n} characters`;

/** A server's name: what its tools are prefixed with (`<name>__<tool>`) and its key everywhere. */
export const McpServerName = z
  .string()
  .min(1, "must not be empty")
  .max(L.name, atMost(L.name))
  .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -")
  .describe(`The server's name: letters, digits, _ or -, at most ${L.name} characters; its tools are named \`<name>__<tool>\`.`);

function keySchema(key: z.ZodString) {
  const { $schema: _, ...names } = z.toJSONSchema(key);
  return names;
}

/**
 * A record (env, headers, toolTimeouts) of at most `max` entries whose keys pass `key`; the JSON
 * Schema says so too. Keys are checked here rather than as zod's record key, whose refusal says
 * only "Invalid key in record", not which limit.
 */
function bounded<V extends z.ZodType>(key: z.ZodString, value: V, max: number) {
  return z
    .record(z.string(), value)
    .superRefine((r, ctx) => {
      const keys = Object.keys(r);
      if (keys.length > max) ctx.addIssue({ code: "custom", message: `must have at most ${max} entries` });
      for (const k of keys) {
        const bad = key.safeParse(k).error?.issues[0];
        if (bad) ctx.addIssue({ code: "custom", path: [k], message: `name ${bad.message}` });
      }
    })
    .meta({ maxProperties: max, propertyNames: keySchema(key) });
}

const timeoutMs = z.number().int().positive().max(L.timeoutMs, `must be at most ${L.timeoutMs} (24 hours)`);
const toolTimeouts = bounded(z.string().min(1, "must not be empty").max(L.toolName, atMost(L.toolName)), timeoutMs, L.toolTimeouts).optional();
const mcpRoots = z
  .array(
    z.strictObject({
      uri: z
        .string()
        .max(L.rootUri, atMost(L.rootUri))
        .regex(/^file:\/\/\S*$/, "must be a file:// URI"),
      name: z.string().min(1).max(200).optional(),
    }),
  )
  .max(100)
  .optional()
  .describe("Roots this server is told about when it asks (roots/list): directories it may work in, as file:// URIs.");

/** Where an HTTP server is reached: http(s) only (a `javascript:` or `file:` URL is no server). */
export const McpServerUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(L.url, atMost(L.url))
  .meta({ pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" });

export const McpServer = z.discriminatedUnion("transport", [
  z.strictObject({
    name: McpServerName,
    transport: z.literal("stdio"),
    command: z.string().min(1).max(L.command, atMost(L.command)),
    args: z
      .array(z.string().max(L.arg, atMost(L.arg)))
      .max(L.args, `must have at most ${L.args} items`)
      .default([]),
    env: bounded(
      z
        .string()
        .min(1, "must not be empty")
        .max(L.envName, atMost(L.envName))
        .regex(/^[^=\0]+$/, "must not contain = or NUL"),
      z.string().max(L.envValue, atMost(L.envValue)),
      L.env,
    ).default({}),
    cwd: z.string().max(L.cwd, atMost(L.cwd)).optional(),
    enabled: z.boolean().default(true),
    timeoutMs: timeoutMs.optional(),
    toolTimeouts,
    namespace: mcpNamespace,
    roots: mcpRoots,
  }),
  z.strictObject({
    name: McpServerName,
    transport: z.literal("http"),
    url: McpServerUrl,
    headers: bounded(
      z
        .string()
        .max(L.headerName, atMost(L.headerName))
        .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-)"),
      z
        .string()
        .max(L.headerValue, atMost(L.headerValue))
        .regex(/^[^\r\n\0]*$/, "must not contain CR, LF or NUL"),
      L.headers,
    ).default({}),
    oauth: z
      .union([
        z.literal(false),
        z.strictObject({
          scope: z
            .string()
            .min(1)
            .max(L.scope, atMost(L.scope))
            .optional()
            .describe("The scope to ask for (default: what the server's protected resource metadata lists)."),
        }),
      ])
      .optional()
      .describe(
        "OAuth per the MCP authorization spec (on unless false): when the server answers 401, an admin signs in from its page; tokens are kept encrypted in the database.",
      ),
    enabled: z.boolean().default(true),
    timeoutMs: timeoutMs.optional(),
    toolTimeouts,
    namespace: mcpNamespace,
    roots: mcpRoots,
  }),
]);

export const ListOption = z.union([
  z.string(),
  z.strictObject({
    value: z.string(),
    label: z.string().optional(),
    hint: z.string().optional(),
    group: z.string().optional(),
    disabled: z.boolean().optional(),
  }),
]);

const RetentionRule = z.strictObject({
  maxAgeDays: z.number().positive().optional().describe("Runs older than this many days are purged."),
  maxRuns: z.number().int().positive().optional().describe("Only this many newest runs are kept."),
});

export const Retention = z
  .strictObject({
    maxAgeDays: z.number().positive().optional().describe("Default for every tool: purge runs older than this many days."),
    maxRunsPerTool: z.number().int().positive().optional().describe("Default for every tool: keep only this many newest runs."),
    perTool: z.record(z.string(), RetentionRule).default({}).describe("Overrides by tool name."),
  })
  .describe("How long run history is kept. Purges (POST /api/runs/purge) are audited.");

/** A JSON Schema, kept as written; checked to compile (in the dialect it declares) at load time. */
const JsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * A tool defined in the config: its spec, and a JSONata expression evaluated with the validated
 * arguments as input (no other code runs). The result is the structured content.
 */
export const RuntimeTool = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _, . or -")
    .refine((n) => !n.includes("__"), 'must not contain "__" (reserved for MCP server prefixes)')
    .describe("The tool name, unique across the config."),
  title: z.string().optional(),
  description: z.string().min(1).describe("What the tool does, for people and agents."),
  inputSchema: JsonSchemaObject.describe('JSON Schema of the arguments (`"type": "object"`); 2020-12 unless `$schema` says otherwise.'),
  outputSchema: JsonSchemaObject.optional().describe("JSON Schema the expression's result is checked against."),
  annotations: z
    .looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional()
    .describe("MCP tool annotations (hints)."),
  paramDomains: z.record(z.string(), z.string()).optional().describe("Parameter name (or JSON pointer into the arguments) -> option domain id."),
  invocationTriggers: z.array(z.string().min(1)).optional().describe("Phrases that nudge an agent toward this tool."),
  timeoutMs: z.number().int().positive().optional().describe("Default timeout of a call, in ms."),
  expression: z.string().min(1).describe("A JSONata expression (https://jsonata.org) evaluated with the arguments as input; its value is the result."),
});

const RoleName = z.enum(["viewer", "runner", "admin"]);

/** Who may run which tools: the highest role of every matching rule is required (runner when none match). */
export const RunPolicyRule = z
  .strictObject({
    tool: z.string().min(1).optional().describe("Tool name or glob (`*` any characters, `?` one), e.g. `github_*`."),
    source: z.string().min(1).optional().describe("Source id or glob: `builtin`, `runtime`, `mcp:<server>`, `mcp:*`."),
    annotation: z
      .enum(["destructive", "readOnly", "idempotent", "openWorld"])
      .optional()
      .describe("Matches tools whose annotations declare this hint true (destructiveHint, readOnlyHint...)."),
    role: RoleName.describe("The lowest role allowed to run the matching tools."),
  })
  .refine((r) => r.tool || r.source || r.annotation, { message: "a rule needs at least one of tool, source or annotation" });

const RETRYABLE_KINDS = ["timeout", "rate_limited", "provider", "network", "other"] as const;

/**
 * How the job queue treats the runs sent to it (`"mode": "async"`), by tool name or source. Every
 * matching rule's `concurrency` applies; the first matching rule with a `priority` or `retries`
 * gives it. Synchronous runs count toward the limits but are never held back or retried.
 */
export const QueueRule = z
  .strictObject({
    tool: z.string().min(1).optional().describe("Tool name or glob (`*` any characters, `?` one), e.g. `github_*`."),
    source: z.string().min(1).optional().describe("Source id or glob: `builtin`, `runtime`, `mcp:<server>`, `mcp:*`."),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe("At most this many runs of the matching tools (all of them together) run at once, across every worker; queued runs past it wait."),
    priority: z
      .number()
      .int()
      .min(-100)
      .max(100)
      .optional()
      .describe("Priority of queued runs of the matching tools (higher first) when the caller sends none."),
    retries: z.number().int().min(0).max(10).optional().describe("A queued run that fails is run again, as a new run, up to this many times."),
    retryDelayMs: z.number().int().min(0).max(3_600_000).default(1000).describe("Wait before the first retry; doubled for each further one."),
    retryOn: z
      .array(z.enum(RETRYABLE_KINDS))
      .min(1)
      .default([...RETRYABLE_KINDS])
      .describe("Which error kinds are retried (a timeout is kind `timeout`). Invalid arguments, refusals and cancels never are."),
  })
  .refine((r) => r.tool || r.source, { message: "a rule needs a tool or a source" })
  .refine((r) => r.concurrency !== undefined || r.priority !== undefined || r.retries !== undefined, {
    message: "a rule needs at least one of concurrency, priority or retries",
  });

export const AuthSettings = z.strictObject({
  oidc: z
    .strictObject({
      issuer: z.url().describe("The OpenID provider's issuer URL (its /.well-known/openid-configuration is read)."),
      clientId: z.string().min(1),
      clientSecret: z.string().min(1).describe('Better as a reference: "${env:STUDIO_OIDC_CLIENT_SECRET}".'),
      name: z.string().min(1).optional().describe("What the sign-in button calls it (default: Single sign-on)."),
      scopes: z.array(z.string()).optional(),
      defaultRole: RoleName.default("viewer").describe("The role of a person's first sign-in through SSO."),
    })
    .optional(),
});

export const RuntimeConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    defaultAgent: name.optional().describe("The agent option domains use when a request names none."),
    agents: z.array(Agent).default([]),
    channels: z.array(Channel).default([]),
    peers: z.array(Peer).default([]),
    groups: z.array(Group).default([]),
    memoryCategories: z.array(MemoryCategory).default([]),
    mcpServers: z.array(McpServer).default([]),
    lists: z
      .record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.array(ListOption))
      .default({})
      .describe("Named option lists, used by `custom:<name>` domains."),
    retention: Retention.default({ perTool: {} }),
    tools: z.array(RuntimeTool).default([]).describe("Tools defined here, run as JSONata expressions over their arguments."),
    auth: AuthSettings.default({}).describe("Sign-in settings: single sign-on with OpenID Connect."),
    runPolicy: z
      .array(RunPolicyRule)
      .default([{ annotation: "destructive", role: "admin" }])
      .describe("Who may run which tools; the highest role of every matching rule is required, runner when none match."),
    queuePolicy: z.array(QueueRule).default([]).describe('Concurrency limits, priorities and retries of queued runs (`"mode": "async"`), by tool or source.'),
  })
  .superRefine((c, ctx) => {
    // Cross references: every name used must be declared, so a typo is caught at load time.
    const channels = new Set(c.channels.map((ch) => `${ch.type}.${ch.alias}`));
    const groups = new Set(c.groups.map((g) => g.name));
    const agents = new Set(c.agents.map((a) => a.alias));
    const dup = (items: string[], path: string, what: string) => {
      const seen = new Set<string>();
      items.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: "custom", path: [path, i], message: `duplicate ${what} "${v}"` });
        seen.add(v);
      });
    };
    dup(
      c.agents.map((a) => a.alias),
      "agents",
      "agent alias",
    );
    dup(
      c.channels.map((ch) => `${ch.type}.${ch.alias}`),
      "channels",
      "channel",
    );
    dup(
      c.groups.map((g) => g.name),
      "groups",
      "group",
    );
    dup(
      c.mcpServers.map((s) => s.name),
      "mcpServers",
      "MCP server name",
    );
    dup(
      c.tools.map((t) => t.name),
      "tools",
      "tool name",
    );
    c.tools.forEach((t, i) => {
      const schemas = [
        ["inputSchema", t.inputSchema],
        ["outputSchema", t.outputSchema],
      ] as const;
      for (const [key, schema] of schemas) {
        if (!schema) continue;
        try {
          compileSchema(schema);
        } catch (err) {
          ctx.addIssue({ code: "custom", path: ["tools", i, key], message: (err as Error).message });
        }
      }
      if (t.inputSchema.type !== "object") {
        ctx.addIssue({ code: "custom", path: ["tools", i, "inputSchema", "type"], message: 'must be "object" (tool arguments are an object)' });
      }
      try {
        jsonata(t.expression);
      } catch (err) {
        const e = err as { code?: string; message?: string; position?: number };
        const where = typeof e.position === "number" ? ` at position ${e.position}` : "";
        ctx.addIssue({
          code: "custom",
          path: ["tools", i, "expression"],
          message: `JSONata syntax error${e.code ? ` ${e.code}` : ""}${where}: ${e.message ?? String(err)}`,
        });
      }
    });
    c.agents.forEach((a, i) => {
      a.channels.forEach((ref, j) => {
        if (!channels.has(ref))
          ctx.addIssue({
            code: "custom",
            path: ["agents", i, "channels", j],
            message: `unknown channel "${ref}" (declared: ${[...channels].join(", ") || "none"})`,
          });
      });
      a.groups.forEach((g, j) => {
        if (!groups.has(g))
          ctx.addIssue({ code: "custom", path: ["agents", i, "groups", j], message: `unknown group "${g}" (declared: ${[...groups].join(", ") || "none"})` });
      });
    });
    if (c.defaultAgent && !agents.has(c.defaultAgent)) {
      ctx.addIssue({ code: "custom", path: ["defaultAgent"], message: `unknown agent "${c.defaultAgent}" (declared: ${[...agents].join(", ") || "none"})` });
    }
  });

export type RuntimeConfig = z.output<typeof RuntimeConfigSchema>;
export type ChannelConfig = z.output<typeof Channel>;
export type AgentConfig = z.output<typeof Agent>;
export type RunPolicyRuleConfig = z.output<typeof RunPolicyRule>;
export type AuthSettingsConfig = z.output<typeof AuthSettings>;
export type QueueRuleConfig = z.output<typeof QueueRule>;
export type RuntimeToolConfig = z.output<typeof RuntimeTool>;
