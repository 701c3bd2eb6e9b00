import type { AuditLog } from "../audit/log";
import { HttpError } from "../http/http";
import type { McpConnection } from "../mcp/connection";
import { toMcpToolError } from "../mcp/errors";
import type { ResourceContents } from "../tools/output";

/** What reading needs of the MCP manager: the live connection of a server, by name. */
export interface ResourceSource {
  connection(name: string): Pick<McpConnection, "readResource"> | undefined;
  /** False on a web instance that leaves MCP connections to the workers (STUDIO_WORKER=off). */
  readonly holdsConnections?: boolean;
}

/** How long a read may take before it answers 504 (a resource is shown in place, so not long). */
export const RESOURCE_READ_TIMEOUT_MS = 15_000;

/**
 * Reads `uri` through the MCP server `server` (resources/read) and audits the read, failed or not,
 * as "resource.read" with who asked: a resource can hold what the tool's output did not show.
 */
export async function readServerResource(
  deps: { mcp: ResourceSource; audit: Pick<AuditLog, "append"> },
  server: string,
  uri: string,
  who: { actor: string; userId: string | null; from: string | null },
): Promise<{ contents: ResourceContents[] }> {
  const connection = deps.mcp.connection(server);
  const base = { actor: who.actor, action: "resource.read" as const, target: `${server} ${uri}`.slice(0, 2000), from: who.from };
  const ids = who.userId ? { userId: who.userId } : {};
  if (!connection && deps.mcp.holdsConnections === false) {
    throw new HttpError(
      "unavailable",
      `This instance leaves MCP connections to the workers (STUDIO_WORKER=off): read "${server}" resources through an instance that holds them.`,
    );
  }
  if (!connection) throw new HttpError("not_found", `No connected MCP server named "${server}".`);
  try {
    const contents = await connection.readResource(uri, { timeoutMs: RESOURCE_READ_TIMEOUT_MS });
    await deps.audit.append({ ...base, detail: { ...ids, outcome: "read", contents: contents.length } });
    return { contents };
  } catch (thrown) {
    const err = toMcpToolError(thrown, server);
    await deps.audit.append({ ...base, detail: { ...ids, outcome: "failed", kind: err.kind, message: err.message.slice(0, 500) } });
    throw err; // answered by its kind (lib/errors/errors.ts): the server refusing 403, too slow 504, failing 502
  }
}
