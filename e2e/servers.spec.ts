import { readFileSync, writeFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";

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

test("adding a name a disabled server holds says so and offers to enable that one", async ({ page, request }) => {
  const name = `held-${Date.now().toString(36)}`;
  const add = await request.post("/api/servers", {
    data: { name, transport: "stdio", command: process.execPath, args: ["examples/mcp-server/server.mjs"], enabled: false },
  });
  expect(add.status(), await add.text()).toBe(201);
  const again = await request.post("/api/servers", { data: { name, transport: "stdio", command: "node" } });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.message).toContain(`disabled: enable it (PATCH /api/servers/${name} {"enabled": true}`);

  await page.goto("/servers");
  await page.getByTestId("add-server-toggle").click();
  await page.getByLabel("Server name").fill(name);
  await page.getByLabel("Command").fill("node");
  await page.getByRole("button", { name: "Add and connect" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "disabled" })).toContainText(`"${name}"`);
  await page.getByTestId("enable-held-server").click();
  const server = page.getByTestId("server").filter({ hasText: name });
  await expect(server).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  expect((await request.delete(`/api/servers/${name}`)).status()).toBe(200);
});

/** The example server as "demo": added through the API when an earlier test did not (this test runs alone too). */
async function ensureDemoServer(request: APIRequestContext): Promise<void> {
  const has = async () => ((await (await request.get("/api/tools")).json()).tools as { name: string }[]).some((t) => t.name === "demo__tiny_audio");
  if (await has()) return;
  const add = await request.post("/api/servers", {
    data: { name: "demo", transport: "stdio", command: process.execPath, args: ["examples/mcp-server/server.mjs"] },
  });
  expect(add.status(), await add.text()).toBe(201);
  await expect.poll(has, { timeout: 30_000 }).toBe(true);
}

test("every content kind of an MCP tool renders, audio and resources included", async ({ page, request }) => {
  await ensureDemoServer(request);
  await page.goto("/tools/demo__tiny_audio");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output").locator("audio")).toHaveAttribute("src", /^data:audio\/wav;base64,/);
  await page.goto("/tools/demo__resources");
  await page.getByTestId("run-button").click();
  const out = page.getByTestId("run-output");
  await expect(out.getByTestId("content-resource_link")).toHaveCount(3);
  await expect(out.getByTestId("content-resource")).toHaveCount(3);
  await page.screenshot({ path: "e2e/.artifacts/screens/resources.png", fullPage: true });

  // Embedded resources are previewed: the image (zoom and download) and the audio (a player).
  const embeddedImage = out.getByTestId("content-resource").nth(1);
  await expect(embeddedImage.getByTestId("content-annotations")).toContainText("for user");
  await expect(embeddedImage.getByTestId("content-annotations")).toContainText("priority 0.5");
  await expect(embeddedImage.getByTestId("image-download")).toHaveAttribute("download", "tiny.png");
  // The download hands over the image itself, under its name.
  const [download] = await Promise.all([page.waitForEvent("download"), embeddedImage.getByTestId("image-download").click()]);
  expect(download.suggestedFilename()).toBe("tiny.png");
  const saved = readFileSync((await download.path())!);
  expect(saved.subarray(1, 4).toString("latin1")).toBe("PNG");
  await embeddedImage.getByTestId("image-zoom").click();
  const dialog = page.getByTestId("image-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("image-full")).toHaveAttribute("src", /^data:image\/png;base64,/);
  expect((await dialog.getByTestId("image-full").boundingBox())!.width).toBeGreaterThanOrEqual(256);
  await page.screenshot({ path: "e2e/.artifacts/screens/image-zoom.png" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(embeddedImage.getByTestId("image-zoom")).toBeFocused(); // focus back where it was
  await expect(out.getByTestId("content-resource").nth(2).getByTestId("resource-audio")).toHaveAttribute("src", /^data:audio\/wav;base64,/);

  // Links of any scheme are read in place through the server that owns them; failures say why.
  const changelog = out.getByTestId("resource-link").filter({ hasText: "example://notes/changelog.md" });
  await expect(changelog.getByTestId("content-annotations")).toHaveCount(0); // annotations sit on the block
  await expect(out.getByTestId("content-resource_link").nth(1).getByTestId("content-annotations")).toContainText("for user and assistant");
  await expect(out.getByTestId("content-resource_link").nth(1).getByTestId("content-annotations")).toContainText("modified 2026-11-30 12:00Z");
  await changelog.getByTestId("resource-read").click();
  await expect(changelog.getByTestId("resource-read-result")).toContainText("# Changelog");
  const png = out.getByTestId("resource-link").filter({ hasText: "example://images/tiny.png" });
  await png.getByTestId("resource-read").click();
  await expect(png.getByTestId("resource-read-result").locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  const https = out.getByTestId("resource-link").filter({ hasText: "https://example.com/docs/readme.md" });
  await https.getByTestId("resource-read").click();
  await expect(https.getByRole("alert")).toContainText("Resource not found");
  await page.screenshot({ path: "e2e/.artifacts/screens/resource-read.png", fullPage: true });

  // Every read is audited, with who read what.
  const audit = await (await request.get("/api/audit?action=resource.read")).json();
  expect(audit.entries.map((e: { target: string }) => e.target)).toEqual(
    expect.arrayContaining(["demo example://notes/changelog.md", "demo example://images/tiny.png", "demo https://example.com/docs/readme.md"]),
  );
});
