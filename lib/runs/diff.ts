import { escapeSegment } from "../json-pointer/pointer";

/** A structural diff of two JSON values: one row per path whose value differs. */
export interface DiffRow {
  path: string;
  kind: "added" | "removed" | "changed";
  left?: unknown;
  right?: unknown;
}

const esc = escapeSegment;

function flatten(value: unknown, path: string, out: Map<string, unknown>): void {
  if (value && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) out.set(path, value);
    for (const [k, v] of entries) flatten(v, `${path}/${esc(k)}`, out);
  } else out.set(path, value);
}

export function diffJson(left: unknown, right: unknown): DiffRow[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(left, "", a);
  flatten(right, "", b);
  const rows: DiffRow[] = [];
  for (const [path, l] of a) {
    if (!b.has(path)) rows.push({ path, kind: "removed", left: l });
    else if (JSON.stringify(l) !== JSON.stringify(b.get(path))) rows.push({ path, kind: "changed", left: l, right: b.get(path) });
  }
  for (const [path, r] of b) if (!a.has(path)) rows.push({ path, kind: "added", right: r });
  return rows.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
