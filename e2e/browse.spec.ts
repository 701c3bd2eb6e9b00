import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// Browsing an MCP server (issue 13 item 2): the example server with its conformance fixtures,
// added through the API; its page lists resources, templates and prompts, reads a text resource,
// previews an image, expands a template, gets a prompt with arguments; reads and gets are audited.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, original));

test("a server's resources, templates and prompts: read, expand, get, audited", async ({ page, request }) => {
  const add = await request.post("/api/servers", {
    data: { name: "browse", transport: "stdio", command: process.execPath, args: ["examples/mcp-server/server.mjs", "--conformance"] },
  });
  expect(add.status(), await add.text()).toBe(201);
  await expect
    .poll(
      async () => ((await (await request.get("/api/servers")).json()).servers as { name: string; state: string }[]).find((s) => s.name === "browse")?.state,
      { timeout: 30_000 },
    )
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
  // The server completes arg1 (completion/complete): suggestions as you type, in a listbox.
  const arg1 = prompt.getByRole("combobox", { name: "test_prompt_with_arguments: arg1" });
  await arg1.pressSequentially("pa");
  const suggestions = prompt.getByRole("listbox", { name: "Suggestions for arg1" });
  await expect(suggestions.getByRole("option")).toHaveText(["paris", "park", "party"]);
  await expect(arg1).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: "e2e/.artifacts/screens/browse-completions.png" });
  await arg1.press("ArrowDown");
  await arg1.press("ArrowDown");
  await expect(arg1).toHaveAttribute("aria-activedescendant", /option-1$/);
  await arg1.press("Enter");
  await expect(arg1).toHaveValue("park");
  await expect(arg1).toHaveAttribute("aria-expanded", "false");
  await arg1.fill("");
  await arg1.pressSequentially("pari");
  await expect(suggestions.getByRole("option")).toHaveText(["paris"]);
  await suggestions.getByRole("option", { name: "paris" }).click();
  await expect(arg1).toHaveValue("paris");
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

test("server-everything: completions narrowed by the arguments already filled in, for prompts and template variables", async ({ page, request }) => {
  const on = await request.patch("/api/servers/everything", { data: { enabled: true } });
  expect(on.status(), await on.text()).toBe(200);
  await expect
    .poll(
      async () => ((await (await request.get("/api/servers")).json()).servers as { name: string; state: string }[]).find((s) => s.name === "everything")?.state,
      { timeout: 45_000 },
    )
    .toBe("connected");

  // The API: context.arguments narrows the choices; a bad body is a 400 naming the field.
  const complete = (data: unknown) => request.post("/api/servers/everything/complete", { data });
  const ref = { type: "ref/prompt", name: "completable-prompt" };
  expect((await (await complete({ ref, argument: { name: "name", value: "" }, context: { arguments: { department: "Sales" } } })).json()).values).toEqual([
    "David",
    "Eve",
    "Frank",
  ]);
  const bad = await complete({ ref: { type: "ref/tool", name: "x" }, argument: { name: "a", value: "" } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toContain('ref.type must be "ref/prompt"');
  expect((await complete({ ref, argument: { name: "a" } })).status()).toBe(400);
  expect((await request.post("/api/servers/nope/complete", { data: { ref, argument: { name: "a", value: "" } } })).status()).toBe(404);

  await page.goto("/servers/everything");
  const prompt = page.getByTestId("prompt").filter({ hasText: "Team Management" });
  const department = prompt.getByRole("combobox", { name: "completable-prompt: department" });
  await department.pressSequentially("S");
  await prompt.getByRole("listbox", { name: "Suggestions for department" }).getByRole("option", { name: "Support" }).click();
  await expect(department).toHaveValue("Support");
  const name = prompt.getByRole("combobox", { name: "completable-prompt: name" });
  await name.focus();
  await expect(prompt.getByRole("listbox", { name: "Suggestions for name" }).getByRole("option")).toHaveText(["John", "Kim", "Lee"]);
  await page.screenshot({ path: "e2e/.artifacts/screens/browse-completions-context.png" });
  await name.press("ArrowDown");
  await name.press("Enter");
  await expect(name).toHaveValue("John");
  await prompt.getByRole("button", { name: "Get completable-prompt" }).click();
  await expect(page.getByTestId("prompt-message")).toContainText("John");

  // A template variable: the server suggests the id typed when it is a positive integer.
  const template = page.getByTestId("resource-template").filter({ hasText: "demo://resource/dynamic/text/{resourceId}" });
  const id = template.getByRole("combobox", { name: /: resourceId$/ });
  await expect(id).toBeVisible();
  await id.pressSequentially("12");
  await expect(template.getByTestId("expanded-uri")).toHaveText("demo://resource/dynamic/text/12");

  // Following a resource: subscribed upstream; server-everything sends updates once its
  // toggle-subscriber-updates tool is on; the page reads it again and says when it changed.
  await template.getByRole("button", { name: /^Read / }).click();
  const view = page.getByTestId("read-view");
  await expect(view).toContainText("demo://resource/dynamic/text/12");
  const followButton = view.getByRole("button", { name: "Follow updates" });
  await followButton.click();
  const status = view.getByTestId("follow-status");
  await expect(status).toContainText("Following");
  const toggle = () => request.post("/api/tools/everything__toggle-subscriber-updates/run", { data: { arguments: {} } });
  expect(JSON.stringify(await (await toggle()).json())).toContain("Started simulated resource updated notifications");
  try {
    await expect(status).toContainText(/Updated at .+ \(\d+ updates? while following\)/, { timeout: 15_000 });
    await expect(view).toContainText("demo://resource/dynamic/text/12");
    await page.screenshot({ path: "e2e/.artifacts/screens/browse-follow.png" });
    await view.getByRole("button", { name: "Stop following" }).click();
    await expect(view.getByRole("button", { name: "Follow updates" })).toHaveAttribute("aria-pressed", "false");
  } finally {
    await toggle();
  }
});
