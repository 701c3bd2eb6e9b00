import { expect, test } from "@playwright/test";
import { ROUTES } from "../lib/auth/routes";
import { createDatabase, startStudioProcess } from "../tests/helpers/studio-process";
import { bodySummary, buildCorpus, pool, send, shapeProblem, shortPath, type Answer, type Case } from "./support/corpus";

// A generated corpus of bad input (e2e/support/corpus.ts) against every declared route and
// method, as the admin (so the door lets it through and the handlers see it): hostile path
// parameters, query strings and bodies. Whatever comes, the studio answers: never a 5xx, never
// a dropped connection, and the API's 4xx carry the one error shape. Afterwards it still lists
// its tools and its audit chain still verifies. It runs twice: on the e2e studio (embedded
// PGlite) and on a studio of its own on PostgreSQL, whose drivers refuse different things.

const AUTH = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
const CONCURRENCY = 8;

/** Sign-in endpoints are rate-limited per address: each better-auth case comes from its own (documentation) address, through loopback as a trusted proxy. */
const headersFor = (c: Case, i: number): Record<string, string> =>
  c.route.pattern === "/api/auth/[...all]" ? { ...AUTH, "x-forwarded-for": `198.51.100.${(i % 250) + 1}` } : AUTH;

/**
 * A page that caught a server error while rendering still answers its status, but Next puts the
 * error's numeric digest in the page (its own control flow, notFound() and redirect(), uses
 * NEXT_… digests): that is a 5xx in disguise.
 */
const SERVER_ERROR_DIGEST = /digest\\?"\s*:\s*\\?"(\d+)\\?"/;

function problemOf(c: Case, a: Answer): string | null {
  if (a.error) return a.error;
  if (c.transport) return a.status >= 400 && a.status < 500 ? null : `expected Node's own 4xx, got ${a.status}`;
  if (a.status >= 500) return `server error ${a.status}`;
  if (a.status < 100) return `no status (${a.status})`;
  if (c.expectStatus && a.status !== c.expectStatus) return `expected ${c.expectStatus}, got ${a.status}`;
  if (c.mustRefuse && a.status >= 200 && a.status < 300) return `a destructive route accepted it (${a.status})`;
  const digest = c.route.kind === "page" ? SERVER_ERROR_DIGEST.exec(a.body) : null;
  if (digest) return `a server error while rendering the page (digest ${digest[1]}; see the server log)`;
  return shapeProblem(c, a);
}

test.describe.configure({ mode: "serial" });

test("a corpus of bad input gets 4xx answers in the one shape, never a 5xx or a reset, and the studio stays whole (PGlite)", async () => {
  test.setTimeout(480_000);
  await corpus(new URL(`http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`), "PGlite");
});

test("the same corpus on PostgreSQL", async () => {
  test.setTimeout(480_000);
  const db = await createDatabase();
  const studio = await startStudioProcess({ databaseUrl: db.url, adminToken: process.env.E2E_ADMIN_TOKEN, env: { STUDIO_SIGNIN_RATE_LIMIT: "200/60", STUDIO_TRUSTED_PROXIES: "127.0.0.1,::1" } });
  try {
    await corpus(new URL(studio.url), "PostgreSQL");
  } finally {
    await studio.kill();
    await db.drop();
  }
});

async function corpus(BASE: URL, where: string) {
  const cases = buildCorpus();
  expect(cases.length).toBeGreaterThanOrEqual(1000);
  // every declared route and method is in the corpus
  for (const r of ROUTES) {
    for (const m of Object.keys(r.methods)) expect(cases.some((c) => c.route === r && c.method === m), `${m} ${r.pattern} has no case`).toBe(true);
  }

  const started = Date.now();
  const answers = await pool(cases, CONCURRENCY, (c, i) => send(BASE, c, headersFor(c, i)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  const statuses = new Map<number, number>();
  const problems: string[] = [];
  answers.forEach((a, i) => {
    const c = cases[i]!;
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const p = problemOf(c, a);
    if (p) problems.push(`${c.method} ${shortPath(c.path)} [${c.label}; ${bodySummary(c)}] → ${a.status}: ${p}; answer (${a.contentType || "no content-type"}): ${JSON.stringify(a.body.slice(0, 240))}`);
  });
  const api = cases.filter((c) => c.route.kind === "api").length;
  const slowest = answers.reduce((m, a, i) => (a.ms > answers[m]!.ms ? i : m), 0);
  console.log(
    `bad-input corpus on ${where}: ${cases.length} cases (${api} API, ${cases.length - api} page) in ${seconds} s; statuses ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ")}; ` +
      `${problems.length} problems; slowest ${answers[slowest]!.ms} ms (${cases[slowest]!.method} ${shortPath(cases[slowest]!.path).slice(0, 60)} ${cases[slowest]!.label})`,
  );
  if (problems.length) console.log(problems.join("\n"));

  // the studio still answers, and nothing it wrote broke the audit chain
  const tools = await send(BASE, { method: "GET", path: "/api/tools", route: ROUTES.find((r) => r.pattern === "/api/tools")!, label: "after" }, AUTH);
  const verify = await send(BASE, { method: "GET", path: "/api/audit/verify", route: ROUTES.find((r) => r.pattern === "/api/audit/verify")!, label: "after" }, AUTH);
  expect.soft(problems, `${problems.length} of ${cases.length} cases answered wrongly`).toEqual([]);
  expect(tools.status).toBe(200);
  expect(JSON.parse(tools.body).tools.length).toBeGreaterThan(0);
  expect(verify.status).toBe(200);
  expect(JSON.parse(verify.body)).toMatchObject({ ok: true });
}
