import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// Browsing an MCP server (issue 13 item 2): the example server with its conformance fixtures,
// added through the API; its page lists resources, templates and prompts, reads a text resource,
// previews an image, expands a template, gets a prompt with arguments; reads and gets are audited.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, original));

test("a server's resources, templates and prompts: read, expand, get, audited", async ({ page, request }) => {
  const add = await request.post("/api/servers", { data: { name: "browse", transport: "stdio", command: process.execPath, args: ["examples/mcp-server/server.mjs", "--conformance"] } });
  expect(add.status(), await add.text()).toBe(201);
  await expect
    .poll(async () => ((await (await request.get("/api/servers")).json()).servers as { name: string; state: string }[]).find((s) => s.name === "browse")?.state, { timeout: 30_000 })
    .toBe("connected");

  await page.goto("/servers");
  await page.getByRole("link", { name: "Browse resources and prompts of browse" }).click();
  await expect(page).toHaveURL(/\/servers\/browse$/);
  await expect(page.getByTestId("resource")).toHaveCount(5);

  // A text resource: shown as text.
  await page.getByRole("button", { name: "Read test://static-text" }).click();
  await expect(page.getByTestId("read-view")).toContainText("This is the content of the static text resource.");

  // A binary image: previewed through a data: URL.
  await page.getByRole("button", { name: "Read test://static-binary" }).click();
  await expect(page.getByTestId("read-view").locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);

  // A template: its variable as a form, the URI expanded as typed, then read.
  const template = page.getByTestId("resource-template");
  await template.getByLabel("template-data: id").fill("item 42");
  await expect(template.getByTestId("expanded-uri")).toHaveText("test://template/item%2042/data");
  await template.getByRole("button", { name: "Read template-data" }).click();
  await expect(page.getByTestId("read-view")).toContainText("Data for ID: item%2042"); // the example server takes the segment as it is

  // A prompt: its arguments (required marked) as a form; the messages it returns.
  const prompt = page.getByTestId("prompt").filter({ hasText: "test_prompt_with_arguments" });
  const get = prompt.getByRole("button", { name: "Get test_prompt_with_arguments" });
  await expect(get).toBeDisabled();
  await prompt.getByLabel("test_prompt_with_arguments: arg1").fill("paris");
  await prompt.getByLabel("test_prompt_with_arguments: arg2").fill("<b>red</b>");
  await get.click();
  await expect(page.getByTestId("prompt-message")).toContainText("Prompt with arguments: arg1='paris', arg2='<b>red</b>'");
  // The answer is in view where the button was pressed, far down the list of prompts.
  await expect(page.getByTestId("prompt-message")).toBeInViewport();
  await page.screenshot({ path: "e2e/.artifacts/screens/browse-prompt-viewport.png" });
  await page.screenshot({ path: "e2e/.artifacts/screens/browse-prompt.png", fullPage: true });

  // A prompt that returns an image and text.
  await page.getByTestId("prompt").filter({ hasText: "test_prompt_with_image" }).getByRole("button", { name: "Get test_prompt_with_image" }).click();
  await expect(page.getByTestId("prompt-message").first().locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(page.getByTestId("prompt-message").nth(1)).toContainText("Please analyze the image above.");
  await page.screenshot({ path: "e2e/.artifacts/screens/browse-image.png", fullPage: true });

  // Audited: who read what and who got which prompt (not the arguments' values).
  const reads = (await (await request.get("/api/audit?action=resource.read&limit=5")).json()).entries as { target: string }[];
  expect(reads.map((e) => e.target)).toContain("browse test://template/item%2042/data");
  const gets = (await (await request.get("/api/audit?action=prompt.get&limit=5")).json()).entries as { target: string; detail: unknown }[];
  expect(gets.map((e) => e.target)).toContain("browse test_prompt_with_arguments");
  expect(JSON.stringify(gets)).not.toContain("paris");

  // The API's errors: unknown server 404, no such capability 404, the server's own error passed on.
  expect((await request.get("/api/servers/nope/prompts")).status()).toBe(404);
  const badPrompt = await request.post("/api/servers/browse/prompts/get", { data: { name: "missing" } });
  expect(badPrompt.status()).toBe(400);
  expect((await badPrompt.json()).error.message).toContain("Unknown prompt: missing");
  expect((await request.post("/api/servers/browse/prompts/get", { data: { name: 7 } })).status()).toBe(400);
});
