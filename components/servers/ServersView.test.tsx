import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { McpServerState } from "@/lib/mcp/source";
import { ServersView } from "./ServersView";
import { cleanup, renderInApp } from "@/tests/helpers/render";
import { everythingServerPath } from "@/tests/helpers/mcp";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The servers page against the real servers routes: a real MCP server from npm (server-everything
// over stdio) is added, connects and lists its tools, is refused a second time under its name,
// disabled and removed; without the admin role the controls say why.
let s: InProcessStudio;
beforeAll(async () => {
  s = await bootStudio("servers-view");
});
afterAll(async () => s?.close());
afterEach(cleanup);

const listed = async () => (await (await s.fetch("/api/servers")).json()) as { servers: McpServerState[] };
const entry = (name: string) => screen.getAllByTestId("server").find((li) => within(li).queryByText(name));

describe("ServersView", () => {
  it("adds a stdio server that connects, refuses its name twice, disables and removes it", async () => {
    const user = userEvent.setup();
    renderInApp(<ServersView initial={(await listed()).servers} canAdmin />, { fetch: s.fetch });
    await waitFor(() => expect((screen.getByTestId("add-server-toggle") as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByTestId("add-server-toggle"));
    const form = screen.getByRole("form", { name: "Add an MCP server" });
    await user.type(within(form).getByLabelText("Server name"), "kitchen");
    await user.type(within(form).getByLabelText("Command"), process.execPath);
    await user.type(within(form).getByLabelText("Arguments"), everythingServerPath());
    await user.click(within(form).getByRole("button", { name: "Add and connect" }));

    // Connected through the page's own polling of GET /api/servers, with the server's tools.
    await waitFor(() => expect(entry("kitchen")?.dataset.state).toBe("connected"), { timeout: 30_000 });
    expect(within(entry("kitchen")!).getByRole("link", { name: /^\d+ tools$/ })).toBeTruthy();
    expect((await s.studio.registry.list()).some((t) => t.source.id === "mcp:kitchen")).toBe(true);

    // The same name again is refused by the route, and the page says why.
    await user.click(screen.getByTestId("add-server-toggle"));
    const again = screen.getByRole("form", { name: "Add an MCP server" });
    await user.type(within(again).getByLabelText("Server name"), "kitchen");
    await user.type(within(again).getByLabelText("Command"), process.execPath);
    await user.click(within(again).getByRole("button", { name: "Add and connect" }));
    expect((await within(again).findByRole("alert")).textContent).toMatch(/kitchen/);

    await user.click(screen.getByRole("button", { name: "Disable kitchen" }));
    await waitFor(() => expect(within(entry("kitchen")!).getByText("disabled")).toBeTruthy(), { timeout: 10_000 });
    expect((await listed()).servers.find((x) => x.name === "kitchen")?.enabled).toBe(false);

    window.confirm = () => true;
    await user.click(screen.getByRole("button", { name: "Remove kitchen" }));
    await waitFor(() => expect(entry("kitchen")).toBeUndefined());
    expect((await listed()).servers.some((x) => x.name === "kitchen")).toBe(false);
  }, 90_000); // a real server starts, connects and lists its tools: give a busy machine its time

  it("without the admin role, keeps the controls in place, disabled, with the reason", async () => {
    const { servers } = await listed();
    renderInApp(<ServersView initial={servers} canAdmin={false} reason="Changing servers needs the admin role." />, { fetch: s.fetch });
    expect((screen.getByTestId("add-server-toggle") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("servers-admin-reason").textContent).toContain("admin role");
    for (const b of screen.queryAllByRole("button", { name: /^(Disable|Enable|Remove) / })) expect((b as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole("form", { name: "Add an MCP server" })).toBeNull();
  });
});
