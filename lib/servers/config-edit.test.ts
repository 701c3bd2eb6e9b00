import { describe, expect, it } from "vitest";
import { parse } from "jsonc-parser";
import { addServerToConfigText, removeServerFromConfigText } from "./config-edit";

const text = `{
  // agents
  "agents": [],
  // servers
  "mcpServers": [
    { "name": "a", "transport": "stdio", "command": "x" }
  ]
}
`;

describe("server edits of the config text", () => {
  it("adds and removes a server, keeping comments", () => {
    const added = addServerToConfigText(text, { name: "b", transport: "http", url: "http://127.0.0.1:1/mcp" });
    expect(added).toContain("// agents");
    expect(parse(added).mcpServers.map((s: { name: string }) => s.name)).toEqual(["a", "b"]);
    const removed = removeServerFromConfigText(added, "a")!;
    expect(removed).toContain("// servers");
    expect(parse(removed).mcpServers.map((s: { name: string }) => s.name)).toEqual(["b"]);
    expect(removeServerFromConfigText(removed, "zzz")).toBeNull();
  });

  it("creates the section when missing and refuses a duplicate name", () => {
    const added = addServerToConfigText('{\n  "agents": []\n}\n', { name: "b", transport: "stdio", command: "y" });
    expect(parse(added).mcpServers).toEqual([{ name: "b", transport: "stdio", command: "y" }]);
    expect(() => addServerToConfigText(text, { name: "a" })).toThrow(/already in the config/);
    // A disabled entry holding the name: the refusal says how to enable it instead.
    const held = addServerToConfigText("{}", { name: "off", transport: "stdio", command: "y", enabled: false });
    expect(() => addServerToConfigText(held, { name: "off" })).toThrow('already in the config, disabled: enable it (PATCH /api/servers/off {"enabled": true}');
    expect(() => addServerToConfigText(text, { name: "a" })).not.toThrow(/disabled/);
  });
});
