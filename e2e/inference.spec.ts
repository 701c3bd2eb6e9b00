import fs from "node:fs";
import { expect, test } from "@playwright/test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

// A tool without an outputSchema: its shape is inferred from the captured runs.
test("the tool page shows the output shape observed in runs, and every output validates against it", async ({ page, request }) => {
  const tools = ["add", "chart_png", "fail", "slow_count"];
  for (const tool of tools) {
    const res = await request.post("/api/tools/describe_tool/run", { data: { arguments: { tool } } });
    expect(res.status()).toBe(200);
  }
  // inference is flushed in the background; poll the API until it has seen the runs
  let body: { output: { schema: Record<string, unknown>; samples: number } | null } = { output: null };
  await expect
    .poll(async () => {
      body = await (await request.get("/api/tools/describe_tool/inferred-schema")).json();
      return body.output?.samples ?? 0;
    })
    .toBeGreaterThanOrEqual(tools.length);

  const runs = (await (await request.get("/api/runs?tool=describe_tool&status=success&limit=200")).json()).runs as { output: { structuredContent: unknown } }[];
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const check = ajv.compile(body.output!.schema);
  for (const r of runs) expect(check(r.output.structuredContent), JSON.stringify(check.errors)).toBe(true);

  await page.goto("/tools/describe_tool");
  const panel = page.getByTestId("inferred-shape");
  await expect(panel).toContainText(/Observed in \d+ runs/);
  await expect(panel.getByTestId("inferred-field").first()).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/inferred-shape.png", fullPage: true });
});

// Maps, drift and downloads: json_query returns what it is given, so its output can be a map,
// then change type (a new shape revision, flagged on the tool list).
test("a map-shaped output is shown as a map, a shape change is a revision flagged on the tool list, and the shape downloads as TypeScript", async ({
  page,
  request,
}) => {
  for (let i = 0; i < 40; i++) {
    const data = { "content-type": "application/json", [`req-${i}`]: `v${i}`, [`trace-${i * 7}`]: "t" };
    expect((await request.post("/api/tools/json_query/run", { data: { arguments: { data, expression: "$" } } })).status()).toBe(200);
  }
  // the same field, another type: the shape changes
  expect((await request.post("/api/tools/json_query/run", { data: { arguments: { data: "just text", expression: "$" } } })).status()).toBe(200);

  type Body = {
    output: { schema: { properties: Record<string, Record<string, unknown>> }; truncated: unknown[] } | null;
    revisions?: { revision: number; changes: { path: string; change: string }[] }[];
  };
  let body: Body = { output: null };
  await expect
    .poll(async () => {
      body = await (await request.get("/api/tools/json_query/inferred-schema")).json();
      return body.revisions?.some((r) => r.changes.some((c) => c.path === "/result" && c.change === "type")) ?? false;
    })
    .toBe(true);
  expect(body.output?.schema.properties.result).toMatchObject({ additionalProperties: { type: "string" }, properties: { "content-type": { type: "string" } } });
  expect(body.output?.truncated).toEqual([]);

  await page.goto("/tools/json_query");
  const panel = page.getByTestId("inferred-shape");
  await expect(panel.getByTestId("shape-revision").first()).toContainText(/revision \d+/);
  await expect(panel.getByTestId("shape-revisions")).toContainText("/result type");
  await panel.getByText(/Observed output shape/).click();
  await expect(panel.getByTestId("inferred-output").getByText("{any other key}")).toBeVisible();
  await expect(panel.getByTestId("inferred-output").getByText("map", { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/inferred-map-revisions.png", fullPage: true });

  const download = page.waitForEvent("download");
  await panel.getByTestId("inferred-output").getByTestId("schema-download-ts").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("json_query.output.d.ts");
  expect(fs.readFileSync((await file.path())!, "utf8")).toContain("export interface JsonQueryOutput");
  const text = await (await request.get("/api/tools/json_query/inferred-schema/download?part=output&format=typescript")).text();
  expect(text).toContain("export interface JsonQueryOutput");
  const zod = await (await request.get("/api/tools/json_query/inferred-schema/download?part=output&format=zod")).text();
  expect(zod).toContain("export const jsonQueryOutput");

  await page.goto("/");
  const card = page.getByTestId("tool-card").filter({ hasText: "json_query" });
  await expect(card.getByTestId("shape-changed")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/tool-list-shape-changed.png", fullPage: true });
});
