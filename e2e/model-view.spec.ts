import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";

// Issue 31 in the browser: the tool page's model view (provider, strict mode beside the tool's own
// schema, lint a person can act on, tokens as the API counts them), the context budget page and a
// run's "what the model gets back"; the definitions out of the studio, from the tool list and from
// `npm run definitions`. Screenshots in e2e/.artifacts/screens/model-view-*.png.

const shot = (name: string) => `e2e/.artifacts/screens/model-view-${name}.png`;

test("the tool page shows each provider's definition, its tokens and lint, and strict mode beside the original", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/create_event");
  const view = page.getByTestId("model-view");
  await view.scrollIntoViewIfNeeded();
  await expect(page.getByTestId("model-view-target")).toHaveValue("openai-chat");

  // The count shown is the API's, which the unit tests hold to o200k_base.
  const api = await (await request.get("/api/tools/create_event/definition?for=openai-chat")).json();
  await expect(page.getByTestId("model-view-tokens")).toContainText(`${api.tokens.count.toLocaleString("en")} tokens`);
  await expect(page.getByTestId("model-view-tokens")).toContainText("exact for this JSON");

  await page.getByTestId("model-view-strict").check();
  await expect(page.getByText("The tool's input schema", { exact: true })).toBeVisible();
  await expect(page.getByText("Sent in strict mode", { exact: true })).toBeVisible();
  const strictApi = await (await request.get("/api/tools/create_event/definition?for=openai-chat&strict=true")).json();
  expect(strictApi.strict).toBe(true);
  // Grouped by what they say; every finding's place is shown.
  await expect(page.getByTestId("model-view-lint-at")).toHaveCount(strictApi.lint.length);
  const kinds = new Set(
    strictApi.lint.map((l: { severity: string; keyword: string; message: string; fix?: string; doc: string }) =>
      JSON.stringify([l.severity, l.keyword, l.message, l.fix ?? "", l.doc]),
    ),
  ).size;
  await expect(page.getByTestId("model-view-lint").locator("li")).toHaveCount(kinds);
  await expect(page.getByTestId("model-view-lint")).toContainText("changed");
  await expect(page.getByTestId("model-view-lint").getByRole("link", { name: "Provider documentation" }).first()).toHaveAttribute(
    "href",
    /^https:\/\/platform\.openai\.com\//,
  );
  await page.getByTestId("model-view").screenshot({ path: shot("tool-strict-openai") });

  // Gemini has no strict mode: the toggle says so, and what Gemini ignores is listed.
  await page.getByTestId("model-view-target").selectOption("gemini");
  await expect(page.getByTestId("model-view-strict")).toBeDisabled();
  await expect(page.getByText("Strict mode (Gemini has none)")).toBeVisible();
  const gemini = await (await request.get("/api/tools/create_event/definition?for=gemini")).json();
  await expect(page.getByTestId("model-view-tokens")).toContainText(`${gemini.tokens.count.toLocaleString("en")} tokens`);
  await expect(page.getByTestId("model-view-tokens")).toContainText("an estimate");
  if (gemini.lint.length) await expect(page.getByTestId("model-view-lint-at")).toHaveCount(gemini.lint.length);
  await page.getByTestId("model-view").screenshot({ path: shot("tool-gemini") });
});

test("the context budget page adds up the registry per provider, heaviest tool first", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/budget");
  const api = await (await request.get("/api/tools/budget?for=openai-chat")).json();
  await expect(page.getByTestId("budget-total")).toContainText(`${api.tokens.toLocaleString("en")} tokens for ${api.tools} tools`);
  await expect(page.getByTestId("budget-tools").locator("tbody tr")).toHaveCount(Math.min(100, api.tools));
  await expect(page.getByTestId("budget-tools").locator("tbody tr").first()).toContainText(api.byTool[0].name);
  await expect(page.getByTestId("budget-sources").locator("tbody tr")).toHaveCount(api.bySource.length);
  await page.screenshot({ path: shot("budget-openai"), fullPage: true });

  await page.getByRole("navigation", { name: "Provider" }).getByRole("link", { name: "Anthropic Messages" }).click();
  await expect(page).toHaveURL(/for=anthropic/);
  await expect(page.getByRole("link", { name: "Anthropic Messages" })).toHaveAttribute("aria-current", "page");
  const claude = await (await request.get("/api/tools/budget?for=anthropic")).json();
  await expect(page.getByTestId("budget-total")).toContainText(`${claude.tokens.toLocaleString("en")} tokens`);
  await expect(page.getByTestId("budget-total")).toContainText("an estimate");
});

test("a run page shows what each provider's model gets back, and a failed run's model-visible error", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const chart = await (await request.post("/api/tools/chart_png/run", { data: { arguments: { values: [3, 7, 4] } } })).json();
  await page.goto(`/runs/${chart.run.id}`);
  const carried = page.getByTestId("run-model-view-carried");
  await expect(carried).toContainText("image (image/png)");
  // OpenAI Chat tool messages take text only.
  await expect(carried.locator("li", { hasText: "image (image/png)" })).toContainText("dropped");
  await page.getByTestId("run-model-view-target").selectOption("anthropic");
  await expect(carried.locator("li", { hasText: "image (image/png)" })).toContainText("carried");
  await expect(page.getByTestId("run-model-view").getByTestId("json-view")).toContainText('"tool_result"');
  await page.getByTestId("run-model-view").scrollIntoViewIfNeeded();
  await page.getByTestId("run-model-view").screenshot({ path: shot("run-anthropic") });

  const failed = await request.post("/api/tools/fail/run", {
    data: { arguments: { kind: "not_found", mode: "crash", message: "secret internals of the crash" } },
  });
  const failedRun = (await failed.json()).run;
  await page.goto(`/runs/${failedRun.id}`);
  await expect(page.getByTestId("run-model-view-error")).toContainText("The model is told: other");
  await expect(page.getByTestId("run-model-view")).not.toContainText("secret internals");
  await page.getByTestId("run-model-view").screenshot({ path: shot("run-error") });
});

test("the tool list exports what it shows as a provider's file, and npm run definitions writes the same files", async ({ page, request, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/?source=builtin&hint=read-only");
  const cards = page.getByTestId("tool-card");
  await expect(cards.first()).toBeVisible();
  const shown = await cards.count();
  await page.getByRole("button", { name: "Export definitions" }).click();
  await expect(page.getByTestId("export-definitions")).toContainText(`${shown} tool${shown === 1 ? "" : "s"} (the list's filters)`);
  // The menu hangs below its button, outside the wrapper's box: shot together with it.
  const menuBox = (await page.getByTestId("export-definitions").locator("xpath=./div").boundingBox())!;
  const buttonBox = (await page.getByRole("button", { name: "Export definitions" }).boundingBox())!;
  const left = Math.min(menuBox.x, buttonBox.x) - 8;
  await page.screenshot({
    path: shot("export-menu"),
    clip: {
      x: left,
      y: buttonBox.y - 8,
      width: Math.max(menuBox.x + menuBox.width, buttonBox.x + buttonBox.width) + 8 - left,
      height: menuBox.y + menuBox.height + 8 - (buttonBox.y - 8),
    },
  });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /OpenAI Chat Completions \(strict\)/ }).click()]);
  expect(download.suggestedFilename()).toBe("openai-chat.strict.json");
  const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(file).toMatchObject({ for: "openai-chat", strict: true, filter: { source: "builtin", hints: ["read-only"] }, total: shown });
  const names = file.definitions.map((d: { function: { name: string } }) => d.function.name);
  for (const n of names) await expect(cards.filter({ hasText: n }).first()).toBeVisible();

  // The CLI against this studio: a file per target, the bytes the route sends.
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "definitions-"));
  const run = (token: string | undefined, args: string[]) =>
    promisify(execFile)("npx", ["tsx", "scripts/export-definitions.ts", "--url", baseURL!, "--out", out, ...args], {
      env: { ...process.env, STUDIO_TOKEN: token },
    });
  const cli = (...args: string[]) => run(process.env.E2E_ADMIN_TOKEN, args);
  try {
    await cli("--for", "mcp,anthropic,gemini", "--strict");
    expect(fs.readdirSync(out).sort()).toEqual(["anthropic.strict.json", "gemini.json", "mcp.json"]);
    for (const [name, qs] of [
      ["anthropic.strict.json", "for=anthropic&strict=true"],
      ["gemini.json", "for=gemini"],
      ["mcp.json", "for=mcp"],
    ]) {
      expect(fs.readFileSync(path.join(out, name), "utf8")).toBe(await (await request.get(`/api/tools/definitions/export?${qs}`)).text());
    }
    // --check passes on what it wrote, and fails when a file differs.
    await cli("--for", "mcp,anthropic,gemini", "--strict", "--check");
    fs.writeFileSync(path.join(out, "gemini.json"), "{}\n");
    const failed = await cli("--for", "mcp,anthropic,gemini", "--strict", "--check").catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("gemini.json differs");
    // A bad target is refused before anything is asked of the studio.
    const bad = await cli("--for", "claude").catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain('"claude" is not a target');
    const anonymous = await run("", ["--for", "mcp"]).catch((e: { code: number; stderr: string }) => e);
    expect(anonymous).toMatchObject({ code: 2 });
    expect((anonymous as { stderr: string }).stderr).toMatch(/answered 401: .*set STUDIO_TOKEN/);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
