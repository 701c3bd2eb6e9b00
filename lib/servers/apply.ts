import { StudioError } from "../errors/errors";
import type { AuditAction, AuditAppend, AuditLog } from "../audit/log";
import type { ConfigState, SaveResult } from "../config/store";
import type { ConfigWriter } from "../config/sync";
import { McpServerName, type RuntimeConfig } from "../config/schema";
import { HttpError } from "../http/http";

/** What a config edit needs of the MCP manager: connect and disconnect to match the new list. */
export interface McpSync {
  sync(servers: RuntimeConfig["mcpServers"]): Promise<unknown>;
}

/**
 * The one way the studio writes its runtime config: a new revision with its "config.change"
 * audit entry (refused when the config moved past `expectedVersion`, on any instance), the file
 * written, then what follows from it (MCP servers connect or disconnect at once rather than on
 * the next change event).
 */
export async function saveConfig(
  deps: { config: ConfigWriter; mcp?: McpSync },
  text: string,
  who: { actor: string; from: string | null; expectedVersion?: string; audit?: readonly AuditAppend[] },
): Promise<SaveResult> {
  const r = await deps.config.save(text, { author: who.actor, from: who.from, expectedVersion: who.expectedVersion, audit: who.audit });
  if (!r.ok) return r;
  if (deps.mcp) await deps.mcp.sync(r.state.config.mcpServers);
  return r;
}

/**
 * A server name taken from a path (PATCH, DELETE /api/servers/{name}): one the config cannot hold
 * is a 400 naming the limit, before the config is read or anything is written.
 */
export function serverNameParam(name: string): string {
  const r = McpServerName.safeParse(name);
  if (r.success) return r.data;
  const details = r.error.issues.map((i) => ({ path: "/name", message: i.message }));
  throw new HttpError("bad_request", `Invalid server name: ${details.map((d) => d.message).join("; ")}.`, details);
}

/** Why a server edit was refused (its kind gives the HTTP status). */
export class ServerEditError extends StudioError {
  static override readonly tag: string = "ServerEditError";
  constructor(kind: "bad_request" | "not_found" | "conflict" | "invalid_config" | "io", message: string) {
    super(kind, message);
  }
}

/**
 * A change to the `mcpServers` section (add, enable, disable, remove), written and audited as a
 * config save plus its own "server.*" entry, both in the revision's transaction: a change that
 * fails leaves no trace (no revision, file, audit entry or server process). `edit` returns the
 * new text, or null when the server does not exist; it may throw to refuse (e.g. a duplicate name).
 */
export async function applyServerEdit(
  deps: { config: ConfigWriter; audit: AuditLog; mcp: McpSync },
  edit: (text: string) => string | null,
  who: { actor: string; userId: string | null; from: string | null },
  entry: { action: AuditAction; target: string; detail?: Record<string, unknown> },
): Promise<ConfigState> {
  const before = deps.config.store.current();
  let text: string | null;
  try {
    text = edit(deps.config.store.raw());
  } catch (err) {
    throw new ServerEditError("conflict", (err as Error).message);
  }
  if (text === null) throw new ServerEditError("not_found", `No MCP server named "${entry.target}" in the config.`);
  const detail = { ...entry.detail, ...(who.userId ? { userId: who.userId } : {}) };
  const audited: AuditAppend = {
    actor: who.actor,
    action: entry.action,
    target: entry.target,
    ...(Object.keys(detail).length ? { detail } : {}),
    from: who.from,
  };
  const saved = await saveConfigOrThrow({ config: deps.config }, text, { actor: who.actor, from: who.from, expectedVersion: before.version, audit: [audited] });
  // The same text as before (e.g. enabling an enabled server): no revision carried the entry.
  if (saved.version === before.version) await deps.audit.append(audited);
  await deps.mcp.sync(saved.mcpServers);
  return saved;
}

/** saveConfig, refusals thrown as ServerEditError (409 conflict, 500 io, 400 invalid config). */
export async function saveConfigOrThrow(
  deps: { config: ConfigWriter },
  text: string,
  who: { actor: string; from: string | null; expectedVersion?: string; audit?: readonly AuditAppend[] },
): Promise<ConfigState & { mcpServers: RuntimeConfig["mcpServers"] }> {
  const saved = await saveConfig(deps, text, who);
  if (!saved.ok) {
    const e = saved.error;
    if (e.kind === "conflict") throw new ServerEditError("conflict", e.message);
    if (e.kind === "io") throw new ServerEditError("io", e.message);
    throw new ServerEditError("invalid_config", e.message);
  }
  return { ...saved.state, mcpServers: saved.state.config.mcpServers };
}
