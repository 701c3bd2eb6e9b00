/**
 * The query of the definition routes: `for` (a target, required), `strict` ("true"/"false"),
 * and for the lists the tool list's own filters: `source`, `q` and `hint` (repeatable).
 * Refusals name the field and what it accepts (HttpError 400).
 */
import { HttpError } from "../http/http";
import { HINT_FILTERS, isHintFilter } from "../tools/list-query";
import { isTarget, TARGETS, type Target } from "./types";

export interface DefinitionQuery {
  for: Target;
  strict: boolean;
  source?: string;
  q?: string;
  /** Annotation filters (the tool list's buttons) that must all hold. */
  hints?: string[];
}

export function parseDefinitionQuery(params: URLSearchParams, allowed: readonly string[]): DefinitionQuery {
  for (const key of new Set(params.keys())) {
    if (!allowed.includes(key))
      throw new HttpError("bad_request", `Invalid query: /${key} is not a parameter here (accepted: ${allowed.join(", ")})`, [
        { path: `/${key}`, message: "unknown parameter" },
      ]);
    if (key !== "hint" && params.getAll(key).length > 1)
      throw new HttpError("bad_request", `Invalid query: /${key} is given more than once`, [{ path: `/${key}`, message: "given more than once" }]);
  }
  const target = params.get("for");
  if (!isTarget(target)) {
    const message = `must be one of ${TARGETS.join(", ")}${target === null ? "" : ` (got ${JSON.stringify(target.slice(0, 100))})`}`;
    throw new HttpError("bad_request", `Invalid query: /for ${message}`, [{ path: "/for", message }]);
  }
  const strict = params.get("strict");
  if (strict !== null && strict !== "true" && strict !== "false") {
    throw new HttpError("bad_request", "Invalid query: /strict must be true or false", [{ path: "/strict", message: "must be true or false" }]);
  }
  const out: DefinitionQuery = { for: target, strict: strict === "true" };
  const source = params.get("source");
  const q = params.get("q");
  if (source) out.source = source;
  if (q) out.q = q;
  const hints = [...new Set(params.getAll("hint"))];
  for (const [i, h] of hints.entries()) {
    if (!isHintFilter(h)) {
      const message = `must be one of ${HINT_FILTERS.map((f) => f.id).join(", ")} (got ${JSON.stringify(h.slice(0, 100))})`;
      throw new HttpError("bad_request", `Invalid query: /hint/${i} ${message}`, [{ path: `/hint/${i}`, message }]);
    }
  }
  if (hints.length) out.hints = hints;
  return out;
}
