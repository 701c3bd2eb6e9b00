import { parseTemplate } from "url-template";

/**
 * RFC 6570 URI templates of MCP resource templates (expansion by the url-template package).
 * Pure: used by the browsing page to turn a template into a form and a URI to read.
 */

/** The variable names of `template` in order of first appearance (operators and modifiers stripped). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    const body = m[1]!.replace(/^[+#./;?&=,!@|]/, "");
    for (const spec of body.split(",")) {
      const name = spec.replace(/(\*|:\d*)$/, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** `template` expanded with `values` (empty values left undefined, so they drop out as RFC 6570 says). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  const defined: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== "") defined[k] = v;
  return parseTemplate(template).expand(defined);
}
