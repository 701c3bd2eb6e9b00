import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ToolSpec } from "@/lib/tools/spec";
import { Workbench } from "./Workbench";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The tool page's workbench against the real run route: the form, the run, its result, its
// field errors, progress and cancel, and the recent runs, as the page renders it.
let s: InProcessStudio;
beforeAll(async () => {
  s = await bootStudio("workbench");
});
afterAll(async () => s?.close());
afterEach(cleanup);

/** The tool as the page hands it to the client component (serialized). */
const specOf = async (name: string) => JSON.parse(JSON.stringify((await s.studio.registry.get(name))!.spec)) as ToolSpec;

const props = { initialArgs: {}, recentRuns: [], canRun: true, canSavePresets: false, confirmBeforeRun: false };

describe("Workbench", () => {
  it("runs the form's arguments and shows the result, the stored run and the recent runs", async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<Workbench tool={await specOf("add")} {...props} />, { fetch: s.fetch });
    await user.type(screen.getByLabelText(/First number/), "2");
    await user.type(screen.getByLabelText(/Second number/), "40");
    await user.click(screen.getByTestId("run-button"));
    await waitFor(() => expect(screen.getByTestId("run-announcer").textContent).toMatch(/^Run success in \d+ ms\.$/), { timeout: 10_000 });
    const result = screen.getByRole("region", { name: "Result" });
    await waitFor(() => expect(within(result).getAllByText(/42/).length).toBeGreaterThan(0));
    const { runs } = await s.studio.runs.list({ tool: "add", limit: 5 });
    expect(runs[0]).toMatchObject({ status: "success", arguments: { a: 2, b: 40 }, output: { structuredContent: { sum: 42 } }, outputValid: true });
    // The recent runs were read back from the API, and the server parts asked to refresh.
    await waitFor(() => expect(screen.getAllByTestId("run-row").map((r) => r.dataset.href)).toContain(`/runs/${runs[0]!.id}`));
    expect(router.calls).toContainEqual({ method: "refresh" });
  });

  it("puts the tool's field errors beside the fields and focuses the first", async () => {
    const user = userEvent.setup();
    renderInApp(<Workbench tool={await specOf("add")} {...props} />, { fetch: s.fetch });
    await user.type(screen.getByLabelText(/First number/), "9007199254740993");
    await user.type(screen.getByLabelText(/Second number/), "1");
    await user.click(screen.getByTestId("run-button"));
    await waitFor(() => expect(screen.getByTestId("run-announcer").textContent).toMatch(/field error/), { timeout: 10_000 });
    // Beside the field (RJSF's error of /a, named by the field's id) and in the result's list.
    const a = screen.getByLabelText(/First number/);
    await waitFor(() => expect(document.getElementById(`${a.id}__error`)?.textContent).toMatch(/must be a safe integer/));
    await waitFor(() => expect(document.activeElement).toBe(a));
  });

  it("shows progress while a run is in flight and cancels it", async () => {
    const user = userEvent.setup();
    renderInApp(<Workbench tool={await specOf("slow_count")} {...props} initialArgs={{ steps: 100, delayMs: 100 }} />, { fetch: s.fetch });
    await user.click(screen.getByTestId("run-button"));
    const progress = await screen.findByRole("progressbar", { name: "Run progress" }, { timeout: 10_000 });
    await waitFor(() => expect(Number(progress.getAttribute("aria-valuenow"))).toBeGreaterThan(0));
    await waitFor(() => expect((screen.getByTestId("cancel-button") as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByTestId("cancel-button"));
    await waitFor(() => expect(screen.getByTestId("run-announcer").textContent).toMatch(/^Run cancelled/), { timeout: 10_000 });
    expect((await s.studio.runs.list({ tool: "slow_count", limit: 1 })).runs[0]).toMatchObject({ status: "cancelled" });
  });

  it("without the role to run, says why and sends nothing", async () => {
    const user = userEvent.setup();
    const before = (await s.studio.runs.list({ tool: "add", limit: 50 })).runs.length;
    renderInApp(<Workbench tool={await specOf("add")} {...props} canRun={false} runReason="Running tools needs the runner role." />, { fetch: s.fetch });
    const run = screen.getByTestId("run-button") as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    expect(screen.getByTestId("run-disabled-reason").textContent).toContain("runner role");
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect((await s.studio.runs.list({ tool: "add", limit: 50 })).runs.length).toBe(before);
  });
});
