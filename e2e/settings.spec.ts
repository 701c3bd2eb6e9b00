import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// The runtime config: shown live, a bad edit on disk keeps the last good config and says where.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterEach(() => writeFileSync(configPath, original));

test("the settings page shows the live config and flags a bad edit on disk with its line", async ({ page, request }) => {
  await page.goto("/settings");
  await expect(page.getByTestId("config-path")).toContainText("studio.jsonc");
  await expect(page.getByTestId("config-summary")).toContainText("telegram");
  await expect(page.getByTestId("live-status")).toHaveText("live");

  // break the file: the alias of the first agent loses its closing quote (line of "alias": "ops")
  const lines = original.split("\n");
  const line = lines.findIndex((l) => l.includes('"alias": "ops"')) + 1;
  writeFileSync(configPath, original.replace('"alias": "ops"', '"alias": 42'));
  const banner = page.getByTestId("config-disk-error");
  await expect(banner).toContainText(`:${line}:`);
  await expect(banner).toContainText("agents[0].alias");
  await page.screenshot({ path: "e2e/.artifacts/screens/settings-error.png", fullPage: true });

  // the last good config is still the one in use
  const api = await (await request.get("/api/config")).json();
  expect(api.error.line).toBe(line);
  expect(api.config.agents[0].alias).toBe("ops");
  const opts = await (await request.post("/api/tools/param-options", { data: { domain: "agent_aliases" } })).json();
  expect(opts.options.map((o: { value: string }) => o.value)).toContain("ops");

  writeFileSync(configPath, original);
  await expect(banner).toBeHidden();
});

test("PUT /api/config refuses invalid text with line numbers and keeps the file", async ({ request }) => {
  const before = readFileSync(configPath, "utf8");
  const res = await request.put("/api/config", { data: { text: '{\n  "agents": [\n    { "alias": "x", "channels": ["nope.none"] }\n  ]\n}' } });
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(body.error.kind).toBe("invalid_config");
  expect(body.error.details[0]).toMatchObject({ line: 3, path: expect.stringContaining("channels") });
  expect(body.error.details[0].message).toMatch(/unknown channel "nope.none"/);
  expect(readFileSync(configPath, "utf8")).toBe(before);

  // a cross-site write is refused before it reaches the route
  const evil = await request.put("/api/config", { data: { text: "{}" }, headers: { origin: "https://evil.example" } });
  expect(evil.status()).toBe(403);
});
