import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { toolSummary, type ToolSummary } from "@/lib/tools/summary";
import { ToolList } from "./ToolList";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The tool list over the studio's own registry, as the home page builds it: search, source and
// annotation filters, the URL that keeps them, and the way back from "no tool matches".
let s: InProcessStudio;
let tools: ToolSummary[];
beforeAll(async () => {
  s = await bootStudio("tool-list");
  tools = (await s.studio.registry.snapshot()).tools.map((t) => toolSummary(t.spec));
});
afterAll(async () => s?.close());
afterEach(cleanup);

const cards = () => screen.queryAllByTestId("tool-card").map((c) => c.getAttribute("href"));

describe("ToolList", () => {
  it("filters by text, source and annotations, keeps them in the URL, and clears them", async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, "", "/");
    renderInApp(<ToolList tools={tools} />, { url: "/" });
    expect(cards()).toHaveLength(tools.length);
    expect(cards()).toContain("/tools/add");

    await user.type(screen.getByRole("searchbox", { name: "Search tools" }), "integers");
    await waitFor(() => expect(cards()).toEqual(["/tools/add"])); // "Add two integers", by its title
    expect(new URLSearchParams(window.location.search).get("q")).toBe("integers");

    await user.clear(screen.getByRole("searchbox", { name: "Search tools" }));
    await user.click(screen.getByRole("button", { name: "destructive" }));
    const destructive = tools.filter((t) => t.annotations?.destructiveHint === true && t.annotations.readOnlyHint !== true).map((t) => `/tools/${t.name}`);
    await waitFor(() => expect(cards().sort()).toEqual(destructive.sort()));
    expect(destructive.length).toBeGreaterThan(0);

    await user.selectOptions(screen.getByRole("combobox", { name: "Filter by source" }), "builtin");
    await user.type(screen.getByRole("searchbox", { name: "Search tools" }), "no tool is called this");
    await waitFor(() => expect(screen.getByText(/No tool matches these filters/)).toBeTruthy());
    await user.click(screen.getByRole("button", { name: /clear/i }));
    await waitFor(() => expect(cards()).toHaveLength(tools.length));
    expect(window.location.search).toBe("");
  });
});
