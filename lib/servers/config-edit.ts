import { applyEdits, modify, parse } from "jsonc-parser";

/**
 * Adds or removes an MCP server in the runtime config text, keeping the file's comments and
 * layout: servers added on the Servers page live in the config, so they survive restarts and
 * show in Settings like any other.
 */
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

export function addServerToConfigText(text: string, entry: Record<string, unknown>): string {
  const current = (parse(text) ?? {}) as { mcpServers?: { name?: string; enabled?: boolean }[] };
  const held = current.mcpServers?.find((s) => s.name === entry.name);
  if (held?.enabled === false)
    throw new Error(
      `An MCP server named "${entry.name}" is already in the config, disabled: enable it (PATCH /api/servers/${encodeURIComponent(String(entry.name))} {"enabled": true}, or Enable on the Servers page), or pick another name.`,
    );
  if (held) throw new Error(`An MCP server named "${entry.name}" is already in the config.`);
  const path = current.mcpServers ? ["mcpServers", current.mcpServers.length] : ["mcpServers"];
  const value = current.mcpServers ? entry : [entry];
  return applyEdits(text, modify(text, path, value, { ...FORMAT, isArrayInsertion: Boolean(current.mcpServers) }));
}

export function removeServerFromConfigText(text: string, name: string): string | null {
  const current = (parse(text) ?? {}) as { mcpServers?: { name?: string }[] };
  const index = current.mcpServers?.findIndex((s) => s.name === name) ?? -1;
  if (index < 0) return null;
  return applyEdits(text, modify(text, ["mcpServers", index], undefined, FORMAT));
}

export function setServerEnabledInConfigText(text: string, name: string, enabled: boolean): string | null {
  const current = (parse(text) ?? {}) as { mcpServers?: { name?: string }[] };
  const index = current.mcpServers?.findIndex((s) => s.name === name) ?? -1;
  if (index < 0) return null;
  return applyEdits(text, modify(text, ["mcpServers", index, "enabled"], enabled, FORMAT));
}
