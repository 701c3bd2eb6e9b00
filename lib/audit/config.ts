// "config.change" entries: saves through the API (with the request's address) and changes made to
// the file on disk outside the studio (an editor, git, a deploy), each recorded once.
import { displayPath, type ConfigState, type ConfigStore } from "../config/store";
import { sha256Hex } from "../tools/hash";
import type { AuditLog } from "./log";

// Versions the API saved and recorded itself, per store, so the disk watcher skips them. On
// globalThis (like the store and the studio): Next may load this module more than once per
// process, and the route and the watcher must share one set.
const g = globalThis as typeof globalThis & { __toolStudioAuditApiVersions?: WeakMap<ConfigStore, Set<number>> };
const apiVersions = (g.__toolStudioAuditApiVersions ??= new WeakMap());

function markApiVersion(store: ConfigStore, version: number): void {
  let set = apiVersions.get(store);
  if (!set) apiVersions.set(store, (set = new Set()));
  set.add(version);
  // Unconsumed marks (no watcher running) must not pile up.
  if (set.size > 64) set.delete(set.values().next().value!);
}

function takeApiVersion(store: ConfigStore, version: number): boolean {
  return apiVersions.get(store)?.delete(version) ?? false;
}

const stripBom = (t: string) => (t.charCodeAt(0) === 0xfeff ? t.slice(1) : t);

export interface ConfigWatch {
  stop(): void;
  /** Resolves once every change noticed so far has been appended (or failed and was logged). */
  idle(): Promise<void>;
}

export interface WatchConfigOptions {
  /** Who disk changes are attributed to (the machine's user: the studio cannot know who edited the file). */
  actor: () => string;
  /**
   * At start, record the file in use when it differs from the last "config.change" recorded for
   * it (or none was): catches edits made while the studio was not running. Default true.
   */
  recordStartup?: boolean;
}

/**
 * Subscribes to the store and appends "config.change" with source "disk" whenever its version
 * changes, except for versions saved through the API (recorded by `auditConfigSave`).
 * Appends are queued so entries keep the order of the versions.
 */
export function watchConfigChanges(audit: AuditLog, store: ConfigStore, opts: WatchConfigOptions): ConfigWatch {
  const target = displayPath(store.path);
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (fn: () => Promise<unknown>) => {
    queue = queue.then(fn).then(
      () => {},
      (err) => console.error("[tool-studio] audit: could not record a config change", err),
    );
  };
  const detailOf = (state: ConfigState, text: string) => ({ source: "disk", version: state.version, sha256: sha256Hex(text), error: state.error?.kind ?? null });

  const unsubscribe = store.subscribe((state) => {
    const detail = detailOf(state, store.raw());
    // Decide after the current synchronous code: an API save emits from inside store.save(), and
    // the route marks its version right after save() returns, before it awaits anything.
    queueMicrotask(() => {
      if (takeApiVersion(store, state.version)) return;
      enqueue(() => audit.append({ actor: opts.actor(), action: "config.change", target, detail }));
    });
  });

  if (opts.recordStartup !== false) {
    enqueue(async () => {
      const state = store.current();
      const detail = { ...detailOf(state, store.raw()), atStartup: true };
      const { entries } = await audit.list({ action: "config.change", target, limit: 1 });
      const last = entries[0]?.detail as { sha256?: unknown } | null | undefined;
      if (last && last.sha256 === detail.sha256) return;
      await audit.append({ actor: opts.actor(), action: "config.change", target, detail });
    });
  }
  return { stop: unsubscribe, idle: () => queue };
}

/**
 * Records a successful save through the API. Call it right after `store.save()` returned ok and
 * before awaiting anything else, so the disk watcher knows this version is not a disk change.
 * A failure to append is logged, not thrown: the file is already saved.
 */
export async function auditConfigSave(
  audit: AuditLog,
  store: ConfigStore,
  saved: ConfigState,
  opts: { text: string; actor: string; from: string | null },
): Promise<void> {
  markApiVersion(store, saved.version);
  try {
    await audit.append({
      actor: opts.actor,
      action: "config.change",
      target: displayPath(store.path),
      detail: { source: "api", version: saved.version, sha256: sha256Hex(stripBom(opts.text)), error: null },
      from: opts.from,
    });
  } catch (err) {
    console.error(`[tool-studio] audit: could not record the config save (version ${saved.version})`, err);
  }
}
