import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TokenInfo } from "@/lib/auth/tokens";
import { TokensView } from "./TokensView";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// A person's tokens page, as that person (their own API token), against the real tokens routes.
let s: InProcessStudio;
let seed: { token: string; info: TokenInfo };
beforeAll(async () => {
  s = await bootStudio("tokens-view");
  const tara = await s.studio.users.create({ email: "tara@example.com", name: "Tara", role: "runner", password: "tara-password-1" });
  seed = await s.studio.identity.tokens.create({ id: tara.id, role: "runner" }, { name: "seed" });
});
afterAll(async () => s?.close());
afterEach(cleanup);

/** Whether `token` opens the API now. */
const works = async (token: string) => (await s.fetchAs(token)("/api/tokens")).status === 200;

describe("TokensView", () => {
  it("checks the form, creates a token shown once that works, and revokes it after asking", async () => {
    const user = userEvent.setup();
    renderInApp(<TokensView tokens={[seed.info]} role="runner" />, { fetch: s.fetchAs(seed.token) });
    const form = screen.getByRole("form", { name: "Create an API token" });
    // A runner may give a token at most their own role.
    expect(
      within(form)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(expect.arrayContaining(["viewer", "runner"]));
    expect(within(form).queryByRole("option", { name: "admin" })).toBeNull();

    // Nothing is sent without a name, or with a date in the past.
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(within(form).getByText("must not be empty")).toBeTruthy();
    await user.type(within(form).getByLabelText(/^Name/), "ci");
    await user.selectOptions(within(form).getByLabelText(/^Expires/), "custom");
    await user.type(within(form).getByLabelText(/^Expiry date/), "2020-01-01");
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(within(form).getByText("The date must be in the future.")).toBeTruthy();
    expect((await s.studio.identity.tokens.list(seed.info.userId)).map((t) => t.name)).toEqual(["seed"]);

    await user.selectOptions(within(form).getByLabelText(/^Expires/), "never");
    await user.selectOptions(within(form).getByLabelText(/^Role/), "viewer");
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    const created = await screen.findByTestId("new-token");
    expect(within(created).getByText("Token “ci” created")).toBeTruthy();
    expect(within(created).getByText("never expires")).toBeTruthy();
    const secret = (within(created).getByTestId("new-token-value") as HTMLInputElement).value;
    expect(await works(secret)).toBe(true);
    expect(within(created).getByText(new RegExp(`Authorization: Bearer ${secret}`))).toBeTruthy();
    // The list was reloaded from the API: both tokens, the new one a viewer's.
    await waitFor(() => expect(screen.getAllByRole("button", { name: /^Revoke the token / })).toHaveLength(2));
    await user.click(within(created).getByRole("button", { name: "Done, hide it" }));
    expect(screen.queryByTestId("new-token")).toBeNull();
    expect(screen.queryByDisplayValue(secret)).toBeNull(); // shown once

    await user.click(screen.getByRole("button", { name: "Revoke the token ci" }));
    await user.click(screen.getByRole("button", { name: "Confirm revoking the token ci" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Confirm revoking the token ci" })).toBeNull());
    // The list comes back from the API with "ci" revoked: only the seed is left to revoke.
    await waitFor(() => expect(screen.getAllByRole("button", { name: /^Revoke the token / })).toHaveLength(1));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(await works(secret)).toBe(false);
    expect(await works(seed.token)).toBe(true);
    const ci = (await s.studio.identity.tokens.list(seed.info.userId)).find((t) => t.name === "ci");
    expect(ci).toMatchObject({ role: "viewer", state: "revoked", expiresAt: null });
  });
});
