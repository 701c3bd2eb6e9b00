import { expect, test } from "@playwright/test";
import { ROUTES } from "../lib/auth/routes";
import { createDatabase, startStudioProcess } from "../tests/helpers/studio-process";
import { bodySummary, buildCorpus, mcpCallProblem, pool, send, shapeProblem, shortPath, type Answer, type Case } from "./support/corpus";

// A generated corpus of bad input (e2e/support/corpus.ts) against every declared route and
// method, as the admin (so the door lets it through and the handlers see it): hostile path
// parameters, query strings and bodies, arguments no column can store sent to real tools (REST
// and /api/mcp: stored as rejected runs), values past what an index holds, cursors the studio
// never gave out, bodies far over the limit. Whatever comes, the studio answers: never a 5xx,
// never a dropped connection, and the API's 4xx carry the one error shape; nothing it logs is an
// exception. Afterwards it still lists its tools and its audit chain still verifies. It runs on a
// studio of its own on each database, embedded PGlite and PostgreSQL, whose drivers refuse
// different things (and whose rejected runs no other spec sees).

const CONCURRENCY = 8;

/** Sign-in endpoints are rate-limited per address: each better-auth case comes from its own (documentation) address. */
const headersFor = (auth: Record<string, string>, c: Case, i: number): Record<string, string> =>
  c.route.pattern === "/api/auth/[...all]" ? { ...auth, "x-forwarded-for": `198.51.100.${(i % 250) + 1}` } : auth;

/**
 * A page that caught a server error while rendering still answers its status, but Next puts the
 * error's numeric digest in the page (its own control flow, notFound() and redirect(), uses
 * NEXT_… digests): that is a 5xx in disguise.
 */
const SERVER_ERROR_DIGEST = /digest\\?"\s*:\s*\\?"(\d+)\\?"/;

/** What the server must never log, whatever it was sent: an exception a request caused. */
const THROWN =
  /Maximum call stack size exceeded|invalid input syntax for type json|unsupported Unicode escape|index row (size|requires)|unexpected error|failed outside its handler|MCP tools\/call failed/;

function problemOf(c: Case, a: Answer): string | null {
  if (a.error) return a.error;
  if (c.transport) return a.status >= 400 && a.status < 500 ? null : `expected Node's own 4xx, got ${a.status}`;
  if (a.status >= 500) return `server error ${a.status}`;
  if (a.status < 100) return `no status (${a.status})`;
  if (c.expectStatus && a.status !== c.expectStatus) return `expected ${c.expectStatus}, got ${a.status}`;
  if (c.mustRefuse && a.status >= 200 && a.status < 300) return `a destructive route accepted it (${a.status})`;
  if (c.rejectedRun && c.route.pattern === "/api/mcp") return mcpCallProblem(a);
  const digest = c.route.kind === "page" ? SERVER_ERROR_DIGEST.exec(a.body) : null;
  if (digest) return `a server error while rendering the page (digest ${digest[1]}; see the server log)`;
  return shapeProblem(c, a);
}

test.describe.configure({ mode: "serial" });

for (const where of ["PGlite", "PostgreSQL"] as const) {
  test(`a corpus of bad input gets 4xx answers in the one shape, never a 5xx, a reset or a thrown error, and the studio stays whole (${where})`, async () => {
    test.setTimeout(600_000);
    const db = where === "PostgreSQL" ? await createDatabase() : null;
    const thrown: string[] = [];
    const studio = await startStudioProcess({
      databaseUrl: db?.url,
      env: { STUDIO_SIGNIN_RATE_LIMIT: "200/60", STUDIO_TRUSTED_PROXIES: "127.0.0.1,::1" },
      onLine: (l) => void (THROWN.test(l) && thrown.push(l.slice(0, 300))),
    });
    try {
      await corpus(new URL(studio.url), { authorization: `Bearer ${studio.adminToken}` }, where);
      expect(thrown, "lines the server logged for exceptions a request caused").toEqual([]);
    } finally {
      await studio.kill();
      await db?.drop();
    }
  });
}

async function corpus(BASE: URL, AUTH: Record<string, string>, where: string) {
  const cases = buildCorpus();
  expect(cases.length).toBeGreaterThanOrEqual(1000);
  // every declared route and method is in the corpus
  for (const r of ROUTES) {
    for (const m of Object.keys(r.methods))
      expect(
        cases.some((c) => c.route === r && c.method === m),
        `${m} ${r.pattern} has no case`,
      ).toBe(true);
  }

  const started = Date.now();
  const answers = await pool(cases, CONCURRENCY, (c, i) => send(BASE, c, headersFor(AUTH, c, i)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  const statuses = new Map<number, number>();
  const problems: string[] = [];
  answers.forEach((a, i) => {
    const c = cases[i]!;
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const p = problemOf(c, a);
    if (p)
      problems.push(
        `${c.method} ${shortPath(c.path)} [${c.label}; ${bodySummary(c)}] → ${a.status}: ${p}; answer (${a.contentType || "no content-type"}): ${JSON.stringify(a.body.slice(0, 240))}`,
      );
  });
  const api = cases.filter((c) => c.route.kind === "api").length;
  const slowest = answers.reduce((m, a, i) => (a.ms > answers[m]!.ms ? i : m), 0);
  console.log(
    `bad-input corpus on ${where}: ${cases.length} cases (${api} API, ${cases.length - api} page) in ${seconds} s; statuses ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}; ` +
      `${problems.length} problems; slowest ${answers[slowest]!.ms} ms (${cases[slowest]!.method} ${shortPath(cases[slowest]!.path).slice(0, 60)} ${cases[slowest]!.label})`,
  );
  if (problems.length) console.log(problems.join("\n"));

  // the studio still answers, and nothing it wrote broke the audit chain
  const tools = await send(BASE, { method: "GET", path: "/api/tools", route: ROUTES.find((r) => r.pattern === "/api/tools")!, label: "after" }, AUTH);
  const verify = await send(
    BASE,
    { method: "GET", path: "/api/audit/verify", route: ROUTES.find((r) => r.pattern === "/api/audit/verify")!, label: "after" },
    AUTH,
  );
  expect.soft(problems, `${problems.length} of ${cases.length} cases answered wrongly`).toEqual([]);
  expect(tools.status).toBe(200);
  expect(JSON.parse(tools.body).tools.length).toBeGreaterThan(0);
  expect(verify.status).toBe(200);
  expect(JSON.parse(verify.body)).toMatchObject({ ok: true });
}

test("a 10 MB run body is answered 413, and the client reads it, 50 times of 50 (and 20 of 20 chunked)", async () => {
  test.setTimeout(300_000);
  const studio = await startStudioProcess();
  try {
    const run = ROUTES.find((r) => r.pattern === "/api/tools/[name]/run")!;
    // The whole body is written (node:http) while the server answers: what the client reads is the 413, never EPIPE or a reset.
    const body = `{"arguments":{"x":"${"a".repeat(10 * 1024 * 1024)}"}}`;
    const auth = { authorization: `Bearer ${studio.adminToken}` };
    const failures: string[] = [];
    for (const chunked of [false, true]) {
      for (let i = 0; i < (chunked ? 20 : 50); i++) {
        const a = await send(new URL(studio.url), { method: "POST", path: "/api/tools/add/run", route: run, label: "10 MB", body, chunked }, auth, 60_000);
        let kind: unknown;
        try {
          kind = JSON.parse(a.body).error?.kind;
        } catch {
          kind = undefined;
        }
        if (a.error || a.status !== 413 || kind !== "payload_too_large")
          failures.push(`${chunked ? "chunked" : "content-length"} #${i}: ${a.status} ${a.error ?? ""} ${a.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  } finally {
    await studio.kill();
  }
});
