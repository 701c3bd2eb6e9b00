import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { displayName } from "@/lib/tools/spec";
import { TriggerTester, type TriggerTool } from "./TriggerTester";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The triggers page against the real match route over the studio's registry: what a message
// nudges toward, with the phrase marked, and a whole-word rule the server applies.
let s: InProcessStudio;
let tools: TriggerTool[];
beforeAll(async () => {
  s = await bootStudio("trigger-tester");
  tools = (await s.studio.registry.list()).map((t) => ({ name: t.name, title: displayName(t), triggers: [...new Set(t.invocationTriggers ?? [])] }));
});
afterAll(async () => s?.close());
afterEach(cleanup);

const matched = () => screen.queryAllByTestId("trigger-match").map((m) => m.dataset.tool);

describe("TriggerTester", () => {
  it("matches a typed message on the server, marks the phrase, and refuses part of a longer word", async () => {
    const user = userEvent.setup();
    renderInApp(<TriggerTester tools={tools} />, { fetch: s.fetch });
    await user.type(screen.getByRole("textbox", { name: "Message" }), "please add 2 and 40");
    await waitFor(() => expect(matched()).toContain("add"));
    expect(within(screen.getByTestId("trigger-preview")).getByText("add").tagName).toBe("MARK");

    // "addition" is a trigger of add, "additional" is not: a longer word does not match.
    await user.clear(screen.getByRole("textbox", { name: "Message" }));
    await user.type(screen.getByRole("textbox", { name: "Message" }), "an additional note");
    await waitFor(() => expect(screen.getByTestId("no-trigger-match")).toBeTruthy());
    expect(matched()).toEqual([]);
  });
});
