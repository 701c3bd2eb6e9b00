/**
 * Drift: what about a shape counts as a change, and the difference between two shapes. Pure: no
 * I/O (lib/inference/storage.ts records revisions in `shape_revisions` with the run that made
 * each change).
 *
 * A shape's signature is, per path: its JSON types (integer folded into number as in the
 * schema), whether it is required (present in every object seen at its parent; array items,
 * the root and a map's other keys count as required), and the format every string matched. A
 * new revision is made when, for a path in both shapes, the required flag, the types or the
 * format changed. Paths that appear without being required (a new optional field) or that were
 * folded into a map do not make a revision on their own.
 */
import { formatOf, typesOf } from "./schema";
import { OTHER, splitPath, type ShapeStatsData } from "./stats";

export interface PathSignature {
  types: string[];
  required: boolean;
  format: string | null;
}
export type ShapeSignature = Map<string, PathSignature>;

export type ChangeKind = "required" | "optional" | "type" | "format" | "added";

// A type alias, not an interface: it is stored as JSON, and only an alias is seen to fit a JSON type.
export type ShapeChange = {
  path: string;
  change: ChangeKind;
  from?: string[] | string | null;
  to?: string[] | string | null;
};

const CHANGE_KINDS: readonly string[] = ["required", "optional", "type", "format", "added"] satisfies ChangeKind[];

/** Stored changes read back (anything else is dropped). */
export function parseChanges(v: unknown): ShapeChange[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (c): c is ShapeChange =>
      typeof c === "object" && c !== null && typeof (c as ShapeChange).path === "string" && CHANGE_KINDS.includes((c as ShapeChange).change),
  );
}

/** The signature of a shape (see the module comment). O(paths). */
export function signatureOf(stats: ShapeStatsData): ShapeSignature {
  const sig: ShapeSignature = new Map();
  for (const path in stats.paths) {
    const p = stats.paths[path];
    let required = true;
    if (path !== "") {
      const [parent, seg] = splitPath(path);
      if (seg !== "*" && seg !== OTHER) required = p.present === (stats.paths[parent]?.types.object ?? 0);
    }
    sig.set(path, { types: typesOf(p), required, format: formatOf(p) ?? null });
  }
  return sig;
}

const sameTypes = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * What changed from `before` to `after`, sorted by path: required/optional flips, type and format
 * changes of paths in both, and paths that appear already required ("added").
 */
export function diffSignatures(before: ShapeSignature, after: ShapeSignature): ShapeChange[] {
  const out: ShapeChange[] = [];
  for (const [path, a] of after) {
    const b = before.get(path);
    if (!b) {
      // a required path that was not there: a new field every sample has had since it appeared
      // (only possible where its parent just appeared, or in the very first samples)
      if (a.required && before.size && parentKnown(before, path)) out.push({ path, change: "added", to: a.types });
      continue;
    }
    if (a.required !== b.required) out.push({ path, change: a.required ? "required" : "optional" });
    if (!sameTypes(a.types, b.types)) out.push({ path, change: "type", from: b.types, to: a.types });
    if (a.format !== b.format) out.push({ path, change: "format", from: b.format, to: a.format });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function parentKnown(sig: ShapeSignature, path: string): boolean {
  return path !== "" && sig.has(splitPath(path)[0]);
}

/** Whether the two signatures differ in what makes a revision. */
export function changed(before: ShapeSignature, after: ShapeSignature): boolean {
  return diffSignatures(before, after).length > 0;
}

/** A change in words, for the page and the audit log. */
export function describeChange(c: ShapeChange): string {
  const at =
    c.path
      .split("/")
      .map((seg) => (seg === OTHER ? "{any other key}" : seg))
      .join("/") || "(value)";
  switch (c.change) {
    case "required":
      return `${at} is now present every time`;
    case "optional":
      return `${at} is now missing from some outputs`;
    case "type":
      return `${at} type ${fmt(c.from)} → ${fmt(c.to)}`;
    case "format":
      return `${at} format ${c.from ?? "none"} → ${c.to ?? "none"}`;
    case "added":
      return `${at} added (${fmt(c.to)})`;
  }
}

const fmt = (v: unknown) => (Array.isArray(v) ? v.join(" | ") : String(v));
