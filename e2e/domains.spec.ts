import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "jsonc-parser";

// Live option domains: choices come from the config file the running studio reads.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");

type Config = { channels: { type: string; alias: string; peers: string[] }[] };

/** Edits the config on disk the way an editor does: write a temp file, rename over. */
function editConfig(change: (c: Config) => void) {
  const c = parse(readFileSync(configPath, "utf8")) as Config;
  change(c);
  writeFileSync(configPath + ".tmp", JSON.stringify(c, null, 2));
  renameSync(configPath + ".tmp", configPath);
}

async function choose(page: Page, param: string, option: RegExp | string) {
  await page.getByTestId(`domain-${param}`).getByRole("button").first().click();
  await page.getByRole("option", { name: option }).click();
}

const options = (page: Page) => page.getByRole("listbox").getByRole("option");

test.afterEach(() => writeFileSync(configPath, original));

test("choices come from the config; choosing a channel narrows the targets", async ({ page }) => {
  await page.goto("/tools/send_message");
  await expect(page.getByLabel("Agent")).toBeVisible();
  await page.getByTestId("domain-channel").getByRole("button").first().click();
  await expect(options(page)).toHaveText([/slack\.ops/, /telegram\.oncall/, /email\.alerts/, /matrix\.infra.*disabled/]);
  await expect(page.getByRole("option", { name: /matrix\.infra/ })).toHaveAttribute("aria-disabled", "true");
  await page.keyboard.press("Escape");

  await page.getByTestId("domain-target").getByRole("button").first().click();
  await expect(page.getByRole("option", { name: /@noor/ })).toBeVisible(); // reachable on email.alerts
  await page.keyboard.press("Escape");

  await choose(page, "channel", /telegram\.oncall/);
  await page.getByTestId("domain-target").getByRole("button").first().click();
  await expect(options(page)).toHaveText([/@diego.*external peer/, /Marta.*external peer/, /Sam.*external peer/]);
  await page.getByRole("option", { name: /Marta/ }).click();
  await page.locator("#root_text").fill("pager test");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await page.screenshot({ path: "e2e/.artifacts/screens/tool-page-domains.png", fullPage: true });

  await page.getByRole("link", { name: "Outbox", exact: true }).click();
  await expect(page.getByTestId("outbox-message").first()).toContainText("telegram.oncall");
  await expect(page.getByTestId("outbox-message").first()).toContainText("pager test");
});

test("editing the config file changes the form's choices without a restart", async ({ page }) => {
  await page.goto("/tools/send_message");
  await choose(page, "channel", /telegram\.oncall/);
  await page.getByTestId("domain-target").getByRole("button").first().click();
  await expect(options(page)).toHaveCount(3);
  await page.keyboard.press("Escape");

  editConfig((c) => c.channels.find((ch) => ch.alias === "oncall")!.peers.push("@zoe"));
  await page.getByTestId("domain-target").getByRole("button").first().click();
  await expect(page.getByRole("option", { name: /@zoe/ })).toBeVisible();
  await expect(options(page)).toHaveCount(4);
});

test("a value that left the domain is flagged and rejected by the server with the valid choices", async ({ page, request }) => {
  await page.goto("/tools/send_message");
  await choose(page, "channel", /telegram\.oncall/);
  await choose(page, "target", /@diego/);
  await page.locator("#root_text").fill("still there?");

  editConfig((c) => {
    const ch = c.channels.find((x) => x.alias === "oncall")!;
    ch.peers = ch.peers.filter((p) => p !== "@diego");
  });
  const stale = page.getByTestId("domain-target").getByTestId("stale-value");
  await expect(stale).toContainText("@diego");
  await expect(stale).toContainText("no longer a choice");
  await expect(page.getByTestId("json-preview")).toContainText("@diego"); // kept, not silently dropped

  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "rejected");
  await expect(output.getByTestId("error-details")).toContainText(
    '/target "@diego" is not a valid choice for peer_targets (agent ops); valid choices: @marta, @sam',
  );

  // the API says the same
  const res = await request.post("/api/tools/send_message/run", { data: { arguments: { channel: "telegram.oncall", target: "@diego", text: "x" } } });
  expect(res.status()).toBe(400);
  expect((await res.json()).error.details[0].path).toBe("/target");
});

test("param-options and per-tool options APIs", async ({ request }) => {
  const res = await request.post("/api/tools/param-options", { data: { domain: "peer_groups", agent: "ops" } });
  expect(res.status()).toBe(200);
  expect((await res.json()).options).toEqual([
    { value: "leads", hint: "group: 5 members" },
    { value: "oncall", hint: "group: 3 members" },
    { value: "qa", hint: "group: 1 member" },
  ]);
  const unknown = await request.post("/api/tools/param-options", { data: { domain: "nope" } });
  expect(unknown.status()).toBe(400);
  expect((await unknown.json()).error.message).toMatch(/Unknown option domain "nope"/);
  const badAgent = await request.post("/api/tools/param-options", { data: { domain: "channel_refs", agent: "ghost" } });
  expect(badAgent.status()).toBe(400);
  expect((await badAgent.json()).error.message).toMatch(/Unknown agent "ghost"/);

  const args = encodeURIComponent(JSON.stringify({ channel: "email.billing" }));
  const tool = await (await request.get(`/api/tools/send_message/options?agent=billing&args=${args}`)).json();
  expect(tool.agent).toBe("billing");
  const target = tool.params.find((p: { path: string }) => p.path === "target");
  expect(target.occurrences[0].options.map((o: { value: string }) => o.value)).toEqual(["ops", "@priya", "@sam"]);
});
