import { afterEach, describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ADMIN_TOKEN_ACTOR } from "@/lib/auth/principal";
import { RunFilters } from "./RunFilters";
import { cleanup, renderInApp } from "@/tests/helpers/render";

// The history filters' state machine: each change moves the URL (text after a pause), a URL this
// form asked for never resets what was typed since, and a URL from elsewhere is followed.
const OPTIONS = {
  tool: ["add", "echo"],
  source: ["builtin", "mcp:everything"],
  status: ["success", "error"],
  errorKind: ["timeout"],
  origin: ["api", "mcp"],
  actor: ["local:ana", "user:bo@example.com", ADMIN_TOKEN_ACTOR],
};
afterEach(cleanup);

const field = (name: string) => screen.getByRole(name === "Text" ? "searchbox" : "combobox", { name }) as HTMLInputElement | HTMLSelectElement;

describe("RunFilters", () => {
  it("starts from the URL, applies a choice at once and text after a pause, and only 3 characters or more", async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<RunFilters options={OPTIONS} />, { url: "/runs?status=error" });
    expect(field("Status").value).toBe("error");
    expect(screen.getByRole("link", { name: "Clear" }).getAttribute("href")).toBe("/runs");

    await user.selectOptions(field("Tool"), "add");
    expect(router.calls).toEqual([{ method: "replace", href: "/runs?tool=add&status=error" }]);

    await user.type(field("Text"), "ab");
    await new Promise((r) => setTimeout(r, 450));
    expect(router.calls).toHaveLength(1); // two characters are not searched
    await user.type(field("Text"), "c");
    expect(router.calls).toHaveLength(1); // not yet: the pause
    await waitFor(() => expect(router.url()).toBe("/runs?tool=add&status=error&q=abc"));
    expect(router.calls).toHaveLength(2);
  });

  it("keeps what was typed while its own older URL arrives, and follows a URL from elsewhere", async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<RunFilters options={OPTIONS} />, { url: "/runs" });
    expect(screen.queryByRole("link", { name: "Clear" })).toBeNull();
    router.hold(); // a slow render: the replace is in flight while the user goes on
    await user.selectOptions(field("Origin"), "mcp");
    await user.selectOptions(field("Actor"), "user:bo@example.com");
    expect(router.calls.map((c) => c.href)).toEqual(["/runs?origin=mcp", "/runs?origin=mcp&actor=user%3Abo%40example.com"]);
    // The older URL arrives first: it is this form's own, so the newer choice stays.
    await router.release();
    expect(router.url()).toBe("/runs?origin=mcp");
    expect(field("Origin").value).toBe("mcp");
    expect(field("Actor").value).toBe("user:bo@example.com");
    await router.release();
    expect(router.url()).toBe("/runs?origin=mcp&actor=user%3Abo%40example.com");
    expect(field("Actor").value).toBe("user:bo@example.com");
    expect(screen.getByRole("option", { name: "Admin token (STUDIO_ADMIN_TOKEN)" })).toBeTruthy(); // the environment's tokens by what they are

    // Back (or Clear): the URL moves without the form, and the fields follow it.
    await router.navigate("/runs?status=success");
    expect(field("Status").value).toBe("success");
    expect(field("Origin").value).toBe("");
    expect(field("Actor").value).toBe("");
    expect(router.calls).toHaveLength(2); // following a URL asks for nothing
  });
});
