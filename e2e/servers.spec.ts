import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// MCP servers as tool sources: add one on the Servers page, run its image tool, find the run.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, original));

test("add a server on the Servers page, run its image tool, find the run in history", async ({ page }) => {
  await page.goto("/servers");
  await page.getByTestId("add-server-toggle").click();
  await page.getByLabel("Server name").fill("demo");
  await page.getByLabel("Command").fill(process.execPath);
  await page.getByLabel("Arguments").fill("examples/mcp-server/server.mjs");
  await page.getByRole("button", { name: "Add and connect" }).click();

  const server = page.getByTestId("server").filter({ hasText: "demo" });
  await expect(server).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  await expect(server).toContainText("2026-07-28");
  await expect(server).toContainText("bad_header"); // excluded, with its reason
  await page.screenshot({ path: "e2e/.artifacts/screens/servers.png", fullPage: true });

  // it persisted in the runtime config
  expect(readFileSync(configPath, "utf8")).toContain('"demo"');

  await page.getByRole("link", { name: "Tools", exact: true }).click();
  await page.getByLabel("Search tools").fill("demo__");
  await expect(page.getByTestId("tool-card").first()).toBeVisible();
  await page.getByTestId("tool-card").filter({ hasText: "demo__tiny_image" }).click();
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  await expect(output.getByTestId("content-image").locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);

  const runId = (await output.getByRole("link", { name: /^run / }).getAttribute("href"))!.split("/").pop()!;
  await page.goto("/runs?source=mcp%3Ademo");
  await expect(page.getByRole("link", { name: `Open run ${runId}` })).toBeVisible();
});

test("every content kind of an MCP tool renders, audio and resources included", async ({ page, request }) => {
  const tools = (await (await request.get("/api/tools")).json()).tools as { name: string }[];
  test.skip(!tools.some((t) => t.name === "demo__tiny_audio"), "needs the server added by the previous test");
  await page.goto("/tools/demo__tiny_audio");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output").locator("audio")).toHaveAttribute("src", /^data:audio\/wav;base64,/);
  await page.goto("/tools/demo__resources");
  await page.getByTestId("run-button").click();
  const out = page.getByTestId("run-output");
  await expect(out.getByTestId("content-resource_link")).toBeVisible();
  await expect(out.getByTestId("content-resource").first()).toBeVisible();
  await expect(out.getByRole("link", { name: /Download/ })).toBeVisible();
});
