import { escapeSegment } from "@/lib/json-pointer/pointer";
import type { UiSchema } from "@rjsf/utils";
import type { DomainOption, ToolOptions } from "@/lib/domains/client-types";

/** What the domain widgets read from the form context. */
export interface DomainFormContext {
  domainOptions: ToolOptions | null;
  loading: boolean;
  error: string | null;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const segmentsOf = (path: string) => path.replace(/^\//, "").split("/").filter(Boolean);

/** RJSF ids are `root_a_0_b`: with the domain's path pattern known, the id maps to one pointer. */
export function pointerForId(id: string, path: string): string | null {
  const segs = segmentsOf(path);
  const re = new RegExp(`^root${segs.map((s) => (s === "*" ? "_(\\d+)" : `_${esc(s)}`)).join("")}$`);
  const m = id.match(re);
  if (!m) return null;
  let i = 1;
  return "/" + segs.map((s) => (s === "*" ? m[i++] : escapeSegment(s))).join("/");
}

export function optionsForWidget(ctx: DomainFormContext | undefined, id: string, path: string): DomainOption[] | null {
  const param = ctx?.domainOptions?.params.find((p) => p.path === path);
  if (!param) return null;
  const pointer = pointerForId(id, path);
  return param.occurrences.find((o) => o.pointer === pointer)?.options ?? param.options;
}

/** uiSchema that puts the domain widget on every domain parameter (`*` = array items). */
export function domainUiSchema(paramDomains: Record<string, string> | undefined): UiSchema {
  const ui: UiSchema = {};
  for (const [path, domain] of Object.entries(paramDomains ?? {})) {
    let node = ui as Record<string, unknown>;
    for (const seg of segmentsOf(path)) node = (node[seg === "*" ? "items" : seg] ??= {}) as Record<string, unknown>;
    node["ui:widget"] = "domain";
    node["ui:options"] = { domainPath: path, domain };
  }
  return ui;
}
