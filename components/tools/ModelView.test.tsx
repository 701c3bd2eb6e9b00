import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ModelView } from "./ModelView";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The tool page's model view against the real definition route: per provider, strict or not,
// the count and the lint it shows are the route's.
let s: InProcessStudio;
beforeAll(async () => {
  s = await bootStudio("model-view");
});
afterAll(async () => s?.close());
afterEach(cleanup);

const definition = async (q: string) => (await (await s.fetch(`/api/tools/create_event/definition?${q}`)).json()) as { tokens: { count: number } };
const shownTokens = () => Number(screen.getByTestId("model-view-tokens").querySelector("span")!.textContent!.replace(/,/g, ""));

describe("ModelView", () => {
  it("shows each provider's definition with the route's count, strict where the provider has it", async () => {
    const user = userEvent.setup();
    const spec = (await s.studio.registry.get("create_event"))!.spec;
    renderInApp(<ModelView tool="create_event" inputSchema={spec.inputSchema} />, { fetch: s.fetch });
    await waitFor(() => expect(screen.getByTestId("model-view-tokens").textContent).toContain("exact for this JSON"));
    expect(shownTokens()).toBe((await definition("for=openai-chat")).tokens.count);

    const strict = screen.getByTestId("model-view-strict") as HTMLInputElement;
    await user.click(strict);
    const strictCount = (await definition("for=openai-chat&strict=true")).tokens.count;
    await waitFor(() => expect(shownTokens()).toBe(strictCount));

    // Gemini has no strict mode and no offline tokenizer: the box is off and the count an estimate.
    await user.selectOptions(screen.getByLabelText("Provider"), "gemini");
    await waitFor(() => expect(screen.getByTestId("model-view-tokens").textContent).toContain("an estimate"));
    expect((screen.getByTestId("model-view-strict") as HTMLInputElement).disabled).toBe(true);
    expect(shownTokens()).toBe((await definition("for=gemini")).tokens.count);
    expect(screen.getByText(/How the count is made/)).toBeTruthy();
  });

  it("says so when the definition cannot be had", async () => {
    renderInApp(<ModelView tool="no_such_tool" inputSchema={{}} />, { fetch: s.fetch });
    expect((await screen.findByRole("alert")).textContent).toMatch(/no_such_tool/);
  });
});
