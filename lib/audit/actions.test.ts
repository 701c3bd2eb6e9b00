import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "./log";

// AUDIT_ACTIONS is the audit filter's closed list (app/audit/page.tsx): every action the code
// writes must be in it, or the log holds entries nobody can filter for; and nothing else.
// AuditAppend.action is typed by it, so the compiler refuses an unlisted action; this scan checks
// the other half (and the literals the compiler cannot see, such as the OAuth `audited(…)` names).
const ROOTS = ["lib", "app", "components"];
// `action:` also names a person's answer to a server's request for input (elicitation, sampling):
// those values are never audit actions.
const INPUT_ANSWERS = new Set(["accept", "decline", "cancel", "approve", "reject"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

/** Every string literal given as an `action` (property, parameter type or ternary) or to the OAuth `audited(…)` helper. */
function writtenActions(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of ROOTS.flatMap(sources)) {
    const text = readFileSync(file, "utf8");
    const values = [...text.matchAll(/\baction\??:\s*([^,;}\n)]+(?:\)[^,;}\n]*)?)/g)].map((m) => m[1]!);
    values.push(...[...text.matchAll(/\baudited\([^,]+,\s*("[^"]+")/g)].map((m) => m[1]!));
    for (const v of values) for (const lit of v.matchAll(/(?<!\[)"([a-z][a-z0-9_.-]*)"/g)) if (!INPUT_ANSWERS.has(lit[1]!)) found.set(lit[1]!, file);
  }
  return found;
}

describe("AUDIT_ACTIONS", () => {
  const written = writtenActions();

  it("finds the actions the code writes (the scan works)", () => {
    for (const a of ["run", "auth.sign-in", "auth.sign-out-everywhere", "user.create", "prompt.get", "purge.preview", "server.oauth.signout", "mcp.refused"])
      expect(written.has(a), a).toBe(true);
  });

  it("lists every action written anywhere", () => {
    const missing = [...written].filter(([a]) => !(AUDIT_ACTIONS as readonly string[]).includes(a)).map(([a, f]) => `${a} (${f})`);
    expect(missing).toEqual([]);
  });

  it("lists nothing the code never writes, each once", () => {
    expect(AUDIT_ACTIONS.filter((a) => !written.has(a))).toEqual([]);
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });
});
