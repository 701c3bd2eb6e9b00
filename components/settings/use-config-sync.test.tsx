import fs from "node:fs";
import { parse } from "jsonc-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { useConfigSync, type ConfigSnapshot } from "./use-config-sync";
import { installFetch } from "@/tests/helpers/render";
import { bootStudio, type InProcessStudio } from "@/tests/helpers/studio-in-process";

// The config editor's sync state machine against the real /api/config routes and event stream,
// with the file on disk changed behind its back as another editor would.
let s: InProcessStudio;
beforeAll(async () => {
  s = await bootStudio("config-sync");
  installFetch(s.fetch);
});
afterAll(async () => s?.close());
afterEach(cleanup);

const snapshot = async () => (await (await s.fetch("/api/config")).json()) as ConfigSnapshot;
/** The same document keeping `n` runs per tool: a change each editor can tell apart (secrets stay masked, as the editor shows them). */
const keeping = (raw: string, n: number) => {
  const doc = parse(raw) as { retention?: object };
  return JSON.stringify({ ...doc, retention: { ...doc.retention, maxRunsPerTool: n } }, null, 2);
};
/** What the file on disk keeps now. */
const onDisk = () => (parse(fs.readFileSync(s.studio.config.store.path, "utf8")) as { retention?: { maxRunsPerTool?: number } }).retention?.maxRunsPerTool;
/** A change made on disk by another editor, secrets and all. */
const writeOnDisk = (n: number) => {
  const file = s.studio.config.store.path;
  const doc = parse(fs.readFileSync(file, "utf8")) as { retention?: object };
  fs.writeFileSync(file, JSON.stringify({ ...doc, retention: { ...doc.retention, maxRunsPerTool: n } }, null, 2));
};

describe("useConfigSync", () => {
  it("goes live, saves an edit, keeps edits over a change on disk, refuses the stale save, then overwrites on request", async () => {
    const initial = await snapshot();
    const { result } = renderHook(() => useConfigSync(initial, { canSave: true }));
    await waitFor(() => expect(result.current.live).toBe("live"));
    expect(result.current.dirty).toBe(false);

    // An edit, saved: the server's state is the answer and the file holds the change.
    act(() => result.current.setText(keeping(initial.raw, 101)));
    expect(result.current.dirty).toBe(true);
    await act(() => result.current.save());
    expect(result.current.problem).toBeNull();
    expect(result.current.dirty).toBe(false);
    expect(result.current.savedAt).not.toBeNull();
    expect(result.current.server.version).not.toBe(initial.version);
    expect(result.current.server.config.retention.maxRunsPerTool).toBe(101);
    expect(onDisk()).toBe(101);

    // Clean, and the file changes on disk: the text follows it.
    writeOnDisk(102);
    await waitFor(() => expect((parse(result.current.text) as { retention: { maxRunsPerTool: number } }).retention.maxRunsPerTool).toBe(102), {
      timeout: 10_000,
    });
    expect(result.current.newerOnDisk).toBeNull();
    expect(result.current.dirty).toBe(false);

    // Dirty, and the file changes again: the edits stay, and the newer version is named.
    const edit = keeping(result.current.text, 103);
    act(() => result.current.setText(edit));
    writeOnDisk(104);
    await waitFor(() => expect(result.current.newerOnDisk).not.toBeNull(), { timeout: 10_000 });
    expect(result.current.text).toBe(edit);

    // Saving over it is refused (409) and nothing is written; overwrite saves the edits.
    await act(() => result.current.save());
    expect(result.current.problem?.kind).toBe("conflict");
    expect(onDisk()).toBe(104);
    await act(() => result.current.save({ overwrite: true }));
    expect(result.current.problem).toBeNull();
    expect(result.current.newerOnDisk).toBeNull();
    expect(onDisk()).toBe(103);
    // The editor only ever saw masked secrets; the file keeps the real ones.
    expect(result.current.text).toContain("••••••(set)");
    const servers = (parse(fs.readFileSync(s.studio.config.store.path, "utf8")) as { mcpServers: { name: string; headers?: Record<string, string> }[] })
      .mcpServers;
    expect(servers.find((x) => x.name === "docs-search")?.headers).toEqual({ "X-Team": "ops" });
  });

  it("says which field of a bad config is wrong, keeps the text, and drops it only on request", async () => {
    const initial = await snapshot();
    const { result } = renderHook(() => useConfigSync(initial, { canSave: true }));
    const before = fs.readFileSync(s.studio.config.store.path, "utf8");
    const bad = JSON.stringify({ ...parse(initial.raw), retention: { maxAgeDays: -3 } });
    act(() => result.current.setText(bad));
    await act(() => result.current.save());
    expect(result.current.problem?.details.map((d) => d.path)).toContainEqual(expect.stringMatching(/retention.*maxAgeDays/));
    expect(result.current.text).toBe(bad);
    expect(fs.readFileSync(s.studio.config.store.path, "utf8")).toBe(before);

    act(() => result.current.revert());
    expect(result.current.text).toBe(initial.raw);
    expect(result.current.problem).toBeNull();

    act(() => result.current.setText(bad));
    await act(() => result.current.loadFromDisk());
    expect(result.current.text).toBe(initial.raw);
    expect(result.current.dirty).toBe(false);
  });
});
