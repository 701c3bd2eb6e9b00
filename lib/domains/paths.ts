/**
 * Where a domain parameter sits in the arguments. A path is a parameter name (`channel`) or
 * slash-separated names with `*` for every item of an array (`recipients/*\/target`).
 */
import { escapeSegment } from "../json-pointer/pointer";

export interface Occurrence {
  /** JSON pointer to the value, e.g. /recipients/0/target */
  pointer: string;
  value: unknown;
  /** The object holding the value: its siblings. */
  parent: Record<string, unknown>;
}

export const pathSegments = (path: string): string[] => path.replace(/^\//, "").split("/").filter(Boolean);

const esc = escapeSegment;

/** Every place in `args` where the path's parent exists (the value itself may be unset). */
export function findOccurrences(args: unknown, path: string): Occurrence[] {
  const segs = pathSegments(path);
  const out: Occurrence[] = [];
  const walk = (node: unknown, i: number, pointer: string) => {
    if (typeof node !== "object" || node === null) return;
    const seg = segs[i]!;
    const last = i === segs.length - 1;
    if (seg === "*") {
      if (!Array.isArray(node) || last) return;
      node.forEach((item, idx) => walk(item, i + 1, `${pointer}/${idx}`));
      return;
    }
    if (Array.isArray(node)) return;
    const obj = node as Record<string, unknown>;
    if (last) out.push({ pointer: `${pointer}/${esc(seg)}`, value: obj[seg], parent: obj });
    else walk(obj[seg], i + 1, `${pointer}/${esc(seg)}`);
  };
  if (segs.length) walk(args, 0, "");
  return out;
}
