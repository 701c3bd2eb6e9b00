import { expect, test } from "@playwright/test";
import { createDatabase, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";

// The client's address through the real production server (scripts/server.mjs + Next), issue 37
// item 6: the per-address sign-in limit trusted any X-Forwarded-For. Now the address is the socket
// peer, which the server writes on every request (a client's own x-studio-peer is overwritten),
// and X-Forwarded-For counts only from STUDIO_TRUSTED_PROXIES. `/api/auth/*` has the body limit.

test.describe.configure({ mode: "serial" });

let db: Awaited<ReturnType<typeof createDatabase>>;
test.beforeAll(async () => {
  db = await createDatabase();
});
test.afterAll(async () => {
  await db?.drop();
});

async function withStudio(env: Record<string, string>, fn: (s: StudioProcess) => Promise<void>) {
  const studio = await startStudioProcess({ databaseUrl: db.url, env: { STUDIO_SIGNIN_RATE_LIMIT: "5/60", ...env } });
  try {
    await fn(studio);
  } finally {
    await studio.stop();
  }
}

/** A password sign-in for an account that does not exist (so only the per-address limit applies). */
const signIn = (s: StudioProcess, i: number, headers: Record<string, string>) =>
  fetch(`${s.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.url, ...headers },
    body: JSON.stringify({ email: `nobody-${i}-${Date.now()}@example.com`, password: "not-the-password" }),
  });

test("a client's own X-Forwarded-For and x-studio-peer do not get it around the per-address limit", async () => {
  await withStudio({}, async (s) => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn(s, i, { "x-forwarded-for": `198.51.100.${i}`, "x-studio-peer": `203.0.113.${i}` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // The audit log names the address the connection came from, not the claims.
    const audit = await fetch(`${s.url}/api/audit?action=auth.sign-in-failed&limit=1`, { headers: { authorization: `Bearer ${s.adminToken}` } });
    const { entries } = (await audit.json()) as { entries: { from: string | null }[] };
    expect(entries[0]!.from).toMatch(/^addr 127\.0\.0\.1(;|$)/);

    // Over the body limit: 413 in the one error shape, before better-auth reads anything.
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(2 * 1024 * 1024) });
    const tooLarge = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: big,
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { kind: "payload_too_large", message: expect.stringContaining("STUDIO_MAX_BODY_BYTES") } });
  });
});

test("behind a trusted proxy (STUDIO_TRUSTED_PROXIES), each forwarded client has its own budget", async () => {
  await withStudio({ STUDIO_TRUSTED_PROXIES: "127.0.0.1,::1" }, async (s) => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn(s, i, { "x-forwarded-for": `198.51.100.${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401]);
    // One client is still one client, whatever it prepends.
    const one: number[] = [];
    for (let i = 0; i < 6; i++) one.push((await signIn(s, 100 + i, { "x-forwarded-for": `6.6.6.${i}, 198.51.100.200` })).status);
    expect(one).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
