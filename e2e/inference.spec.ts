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
  await expect.poll(async () => {
    body = await (await request.get("/api/tools/describe_tool/inferred-schema")).json();
    return body.output?.samples ?? 0;
  }).toBeGreaterThanOrEqual(tools.length);

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
