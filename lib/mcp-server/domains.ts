import type { DomainService } from "../domains/service";
import { pathSegments } from "../domains/paths";
import type { DomainOption } from "../domains/types";
import type { ToolSpec } from "../tools/spec";

/**
 * Option domains in the tools /api/mcp lists. MCP's `completion/complete` names only a prompt
 * (`ref/prompt`) or a resource template (`ref/resource`), in 2025-11-25 and 2026-07-28 alike:
 * there is no reference for a tool's argument. So a parameter whose value set comes from the
 * runtime config (`paramDomains`) gets its current choices in the listed `inputSchema`, resolved
 * at each `tools/list` (for the default agent, before any argument is chosen): `enum`, or `oneOf`
 * of `{const, title, description}` when the choices have labels or hints. Disabled choices are
 * left out (the run-time check refuses them). The choices of a parameter that depends on a
 * sibling (a target on the chosen channel) are those of every sibling: the run-time check
 * (`DomainService.check`) still narrows them. A domain with no choices, or more than
 * MAX_LISTED_CHOICES, or a parameter the schema does not describe as a plain property
 * (`$ref`, combinators, an existing `enum` / `oneOf` / `const`) is left as declared; its domain
 * stays named in `_meta` (`dev.toolstudio/paramDomains`) either way.
 */
export const MAX_LISTED_CHOICES = 100;

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The schema node of a domain path (`channel`, `recipients/*\/target`), or undefined when it is not a plain property. */
function nodeAt(root: Schema, path: string): Schema | undefined {
  let node: unknown = root;
  for (const seg of pathSegments(path)) {
    if (!isSchema(node)) return undefined;
    node = seg === "*" ? node.items : isSchema(node.properties) ? node.properties[seg] : undefined;
  }
  if (!isSchema(node)) return undefined;
  // A list of values (a parameter that takes several choices): the choices describe its items.
  if (node.type === "array") return isSchema(node.items) ? node.items : undefined;
  return node;
}

const CONSTRAINED = ["enum", "const", "oneOf", "anyOf", "allOf", "$ref", "not", "if"];

function choicesSchema(options: DomainOption[]): Schema {
  const described = options.some((o) => o.label || o.hint);
  if (!described) return { enum: options.map((o) => o.value) };
  return {
    oneOf: options.map((o) => ({ const: o.value, ...(o.label && o.label !== o.value ? { title: o.label } : {}), ...(o.hint ? { description: o.hint } : {}) })),
  };
}

/** Each domain parameter of the tool with its current choices; a domain that fails to resolve (unknown list, no agent) has none. */
export async function resolveChoices(domains: Pick<DomainService, "resolve">, spec: ToolSpec): Promise<{ path: string; options: DomainOption[] }[]> {
  return Promise.all(
    Object.entries(spec.paramDomains ?? {}).map(async ([path, domain]) => ({
      path,
      options: await domains.resolve(domain).then(
        (r) => r.options,
        () => [],
      ),
    })),
  );
}

/** The tool's inputSchema with its domain parameters' choices (a copy; the spec is not changed). */
export function withDomainChoices(spec: ToolSpec, params: { path: string; options: DomainOption[] }[]): Schema {
  let schema: Schema | undefined;
  for (const param of params) {
    const options = param.options.filter((o) => !o.disabled);
    if (!options.length || options.length > MAX_LISTED_CHOICES) continue;
    schema ??= structuredClone(spec.inputSchema);
    const node = nodeAt(schema, param.path);
    if (!node || CONSTRAINED.some((k) => k in node) || (node.type !== undefined && node.type !== "string")) continue;
    Object.assign(node, choicesSchema(options));
  }
  return schema ?? spec.inputSchema;
}
