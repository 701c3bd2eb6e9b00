import { applyEdits, modify, parse } from "jsonc-parser";
import type { AuditAppend, AuditLog } from "../audit/log";
import type { ConfigState } from "../config/store";
import type { ConfigWriter } from "../config/sync";
import { saveConfigOrThrow, ServerEditError } from "../servers/apply";
import type { JsonSchema } from "../tools/spec";

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

/** Sets (or replaces) the outputSchema of a runtime tool in the config text; null when there is no such tool. */
export function setOutputSchemaInConfigText(text: string, tool: string, schema: JsonSchema): string | null {
  const current = (parse(text) ?? {}) as { tools?: { name?: string }[] };
  const index = current.tools?.findIndex((t) => t.name === tool) ?? -1;
  if (index < 0) return null;
  return applyEdits(text, modify(text, ["tools", index, "outputSchema"], schema, FORMAT));
}

/**
 * Adopts an inferred output shape as a runtime tool's declared `outputSchema`: a config change
 * like any other (saved through saveConfig, so audited as "config.change"), plus its own
 * "tool.adopt-output-schema" entry. Refused (409) when the shape is not an object, as MCP requires
 * of an outputSchema.
 */
export async function adoptOutputSchema(
  deps: { config: ConfigWriter; audit: AuditLog },
  tool: string,
  inferred: JsonSchema,
  who: { actor: string; userId: string | null; from: string | null; samples: number },
): Promise<ConfigState> {
  if (inferred.type !== "object") {
    throw new ServerEditError("conflict", `The observed output of "${tool}" is not always an object, so it cannot be an outputSchema.`);
  }
  const before = deps.config.store.current();
  const text = setOutputSchemaInConfigText(deps.config.store.raw(), tool, inferred);
  if (text === null) throw new ServerEditError("not_found", `No tool named "${tool}" is defined in the config (only runtime tools can adopt a schema).`);
  const entry: AuditAppend = {
    actor: who.actor,
    action: "tool.adopt-output-schema",
    target: tool,
    detail: { samples: who.samples, ...(who.userId ? { userId: who.userId } : {}) },
    from: who.from,
  };
  // The entry commits with the revision (after its config.change), or neither does.
  const saved = await saveConfigOrThrow(deps, text, { actor: who.actor, from: who.from, expectedVersion: before.version, audit: [entry] });
  if (saved.version === before.version) await deps.audit.append(entry); // the same text: no revision carried it
  return saved;
}
