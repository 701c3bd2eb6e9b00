import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { UsersView } from "./UsersView";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The people page against the real users and tokens routes of a studio on a fresh database.
let s: InProcessStudio;
beforeAll(async () => {
  s = await bootStudio("users-view");
});
afterAll(async () => s?.close());
afterEach(cleanup);

const row = (email: string) => screen.getAllByTestId("user-row").find((r) => r.dataset.email === email);

describe("UsersView", () => {
  it("adds a person, says what the API refused in the field, changes a role, keeps the last admin, removes", async () => {
    const user = userEvent.setup();
    renderInApp(<UsersView users={[]} tokens={[]} me={null} welcome={false} />, { fetch: s.fetch });
    expect(screen.getByText("No users yet.")).toBeTruthy();

    const form = screen.getByRole("form", { name: "Add a user" });
    // Refused by the route: an address that is not one.
    await user.type(within(form).getByLabelText(/^Email/), "not-an-address");
    await user.type(within(form).getByLabelText(/^Password/), "ana-password-1");
    await user.click(within(form).getByRole("button", { name: "Add user" }));
    expect((await within(form).findByRole("alert")).textContent).toMatch(/email/);
    expect(await s.studio.users.list()).toEqual([]);

    await user.clear(within(form).getByLabelText(/^Email/));
    await user.type(within(form).getByLabelText(/^Email/), "ana@example.com");
    await user.selectOptions(within(form).getByLabelText(/^Role/), "admin");
    await user.click(within(form).getByRole("button", { name: "Add user" }));
    await waitFor(() => expect(row("ana@example.com")).toBeTruthy());
    expect(screen.getByText("1 person")).toBeTruthy();
    expect((await s.studio.users.list()).map((u) => [u.email, u.role])).toEqual([["ana@example.com", "admin"]]);

    // The only admin cannot be demoted: the API's reason is shown on that row, and nothing changed.
    await user.selectOptions(screen.getByLabelText("Role of ana@example.com"), "viewer");
    expect((await screen.findByTestId("user-row-note")).textContent).toContain("Cannot demote the last admin");
    expect((await s.studio.users.list())[0]!.role).toBe("admin");

    // A second person, made runner: the row says so and the database agrees.
    await user.clear(within(form).getByLabelText(/^Email/));
    await user.type(within(form).getByLabelText(/^Email/), "bo@example.com");
    await user.type(within(form).getByLabelText(/^Password/), "bo-password-1"); // the form was emptied by the last add
    await user.selectOptions(within(form).getByLabelText(/^Role/), "viewer");
    await user.click(within(form).getByRole("button", { name: "Add user" }));
    await waitFor(() => expect(row("bo@example.com")).toBeTruthy());
    await user.selectOptions(screen.getByLabelText("Role of bo@example.com"), "runner");
    await waitFor(() => expect(screen.getByText(/Role changed from viewer to runner; their browsers were signed out/)).toBeTruthy());
    expect((await s.studio.users.list()).find((u) => u.email === "bo@example.com")?.role).toBe("runner");

    // Remove asks first; cancel keeps the person, yes removes them.
    await user.click(screen.getByRole("button", { name: "Remove bo@example.com" }));
    const confirm = screen.getByRole("group", { name: "Confirm removing bo@example.com" });
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("group", { name: "Confirm removing bo@example.com" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Remove bo@example.com" }));
    await user.click(within(screen.getByRole("group", { name: "Confirm removing bo@example.com" })).getByRole("button", { name: "Yes, remove" }));
    await waitFor(() => expect(row("bo@example.com")).toBeUndefined());
    expect((await s.studio.users.list()).map((u) => u.email)).toEqual(["ana@example.com"]);
    // A new password: too short is refused by the route, a good one is saved and signs in.
    await user.click(screen.getByRole("button", { name: "Set password of ana@example.com" }));
    const pw = screen.getByRole("form", { name: "Set the password of ana@example.com" });
    await user.type(within(pw).getByLabelText("New password for ana@example.com"), "short");
    await user.click(within(pw).getByRole("button", { name: "Save password" }));
    expect((await within(pw).findByRole("alert")).textContent).toMatch(/8/);
    await user.type(within(pw).getByLabelText("New password for ana@example.com"), "-and-longer");
    await user.click(within(pw).getByRole("button", { name: "Save password" }));
    await waitFor(() => expect(screen.getByText("Password changed; ana@example.com was signed out of their browsers.")).toBeTruthy());
    expect(screen.queryByRole("form", { name: "Set the password of ana@example.com" })).toBeNull();

    // Each change is in the audit log.
    const actions = (await s.studio.audit.list({ limit: 50 })).entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["user.create", "user.role", "user.delete"]));
  });
});
