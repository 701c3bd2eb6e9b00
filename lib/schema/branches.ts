import type { ErrorObject } from "ajv";

/**
 * Ajv (allErrors) reports every branch of a failed `oneOf`/`anyOf`, so an "In person" venue left
 * empty also gets the "Online" branch's "url is required" and "must be 'online'". The caller meant
 * one branch: keep that branch's errors and drop the others, and the summary error
 * ("must match exactly one schema in oneOf") when the branch explains the failure itself.
 * Likewise an `if` that failed its `then`/`else` is explained by that branch's own errors.
 *
 * The chosen branch: one whose discriminator matched (no `const` or one-value `enum` error on a
 * direct member, nor a `type` error on the value itself), then the one missing the fewest
 * required members (a phone number that fails its pattern was meant for the phone branch, not
 * for the email branch that merely lacks an email), then the fewest errors; ties go to the first.
 */
export function chosenBranchErrors(errors: ErrorObject[]): ErrorObject[] {
  const comps = new Map<string, ErrorObject>();
  for (const e of errors) if (e.keyword === "oneOf" || e.keyword === "anyOf") comps.set(`${e.schemaPath}\0${e.instancePath}`, e);
  const dropped = new Set<ErrorObject>();
  if (comps.size) {
    // Which branch of which composition each error came from (one pass: errors can be many).
    const branchesOf = new Map<ErrorObject, Map<number, ErrorObject[]>>();
    for (const e of errors) {
      for (const m of e.schemaPath.matchAll(/\/(?:oneOf|anyOf)\/(\d+)(?=\/|$)/g)) {
        const compPath = e.schemaPath.slice(0, m.index + m[0].length - m[1].length - 1);
        const comp = compositionOf(comps, compPath, e.instancePath);
        if (!comp || comp === e) continue;
        const branches = branchesOf.get(comp) ?? new Map<number, ErrorObject[]>();
        branchesOf.set(comp, branches);
        const n = Number(m[1]);
        const list = branches.get(n);
        if (list) list.push(e);
        else branches.set(n, [e]);
      }
    }
    // Outer compositions first, so a nested one inside a dropped branch goes with it.
    for (const comp of [...branchesOf.keys()].sort((a, b) => a.schemaPath.length - b.schemaPath.length)) {
      if (dropped.has(comp)) continue;
      const live = [...branchesOf.get(comp)!.entries()]
        .map(([n, errs]) => [n, errs.filter((e) => !dropped.has(e))] as const)
        .filter(([, errs]) => errs.length > 0);
      // No branch errors left: several branches matched (oneOf), and the summary is the whole story.
      if (!live.length) continue;
      live.sort(([ia, ea], [ib, eb]) => {
        const ma = mismatched(ea, comp.instancePath),
          mb = mismatched(eb, comp.instancePath);
        if (ma !== mb) return ma ? 1 : -1;
        return missing(ea) - missing(eb) || ea.length - eb.length || ia - ib;
      });
      dropped.add(comp);
      for (const [, errs] of live.slice(1)) for (const e of errs) dropped.add(e);
    }
  }
  const kept = dropped.size ? errors.filter((e) => !dropped.has(e)) : errors;
  // An `if` that failed its `then`/`else`: that branch's errors say what is wrong, 'must match "then" schema' adds nothing.
  if (!kept.some((e) => e.keyword === "if")) return kept;
  return kept.filter((e) => {
    if (e.keyword !== "if") return true;
    const base = e.schemaPath.replace(/\/if$/, "");
    return !kept.some((o) => o !== e && (o.schemaPath.startsWith(`${base}/then/`) || o.schemaPath.startsWith(`${base}/else/`)));
  });
}

/** The composition at `schemaPath` that the value at `instancePath` (or the nearest value above it) failed. */
function compositionOf(comps: Map<string, ErrorObject>, schemaPath: string, instancePath: string): ErrorObject | undefined {
  for (let at = instancePath; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const comp = comps.get(`${schemaPath}\0${at}`);
    if (comp || at === "") return comp;
  }
}

/** How many required members a branch found missing. */
function missing(errors: ErrorObject[]): number {
  return errors.filter((e) => e.keyword === "required").length;
}

/** A branch whose discriminator does not match the value: a wrong type, or a wrong `const` on a direct member. */
function mismatched(errors: ErrorObject[], at: string): boolean {
  return errors.some((e) => {
    if (e.keyword === "type" && e.instancePath === at) return true;
    // A one-value enum is a discriminator too; a longer one is an ordinary field the caller got wrong.
    const discriminator = e.keyword === "const" || (e.keyword === "enum" && (e.params as { allowedValues?: unknown[] }).allowedValues?.length === 1);
    if (!discriminator) return false;
    if (e.instancePath === at) return true;
    return e.instancePath.startsWith(`${at}/`) && !e.instancePath.slice(at.length + 1).includes("/");
  });
}
