import { specHash } from "../tools/hash";
import type { ToolSpec } from "../tools/spec";

/**
 * Notices when the tools the endpoint lists change (a server added or removed, an upstream
 * `list_changed`, tools edited in the config, a server going down or up) and says so once per
 * change. Sources signal "may have changed" (Registry.subscribe); the list is then compared by
 * each tool's name and definition, so a signal that changes nothing sends nothing. While someone
 * listens it also looks every `pollMs`, for sources without a signal.
 */
export interface ListWatcherOptions<T> {
  list(): Promise<T[]>;
  /** The list as one string: the same list gives the same string. */
  fingerprint(items: readonly T[]): string;
  subscribe?(listener: () => void): () => void;
  onChange(): void;
  /** Whether anyone listens (polling only then). */
  active?(): boolean;
  /** How often to look while someone listens (default 2 s; 0: only on signals). */
  pollMs?: number;
  /** Signals within this many ms are looked at together. */
  debounceMs?: number;
}

const hashes = new WeakMap<ToolSpec, string>();
const hashOf = (spec: ToolSpec): string => {
  let h = hashes.get(spec);
  if (h === undefined) hashes.set(spec, (h = specHash(spec)));
  return h;
};

/** Names and definitions of a list, as one string (the same list gives the same string). */
export function toolsFingerprint(specs: readonly ToolSpec[]): string {
  return specs.map((s) => `${s.name}\u0000${hashOf(s)}`).join("\u0001");
}

export type ToolListWatcherOptions = Omit<ListWatcherOptions<ToolSpec>, "fingerprint">;

/** Follows a list (tools, or the configured servers' prompts or resources) and says when it changed. */
export class ListWatcher<T> {
  private last: string | undefined;
  private timer?: ReturnType<typeof setTimeout>;
  private poller?: ReturnType<typeof setInterval>;
  private unsubscribe?: () => void;
  private checking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly opts: ListWatcherOptions<T>) {}

  /** Takes the current list as the baseline and starts following changes. */
  start(): Promise<void> {
    this.unsubscribe = this.opts.subscribe?.(() => this.schedule());
    const pollMs = this.opts.pollMs ?? 2_000;
    if (pollMs > 0) {
      this.poller = setInterval(() => {
        if (this.opts.active?.() ?? true) this.schedule();
      }, pollMs);
      this.poller.unref?.();
    }
    return this.check();
  }

  /** Compares the list now with the last one seen; calls onChange if it differs. */
  check(): Promise<void> {
    this.checking = this.checking.then(async () => {
      if (this.closed) return;
      let now: string;
      try {
        now = this.opts.fingerprint(await this.opts.list());
      } catch (err) {
        console.warn("[tool-studio] MCP endpoint: could not list to look for changes:", err instanceof Error ? err.message : err);
        return;
      }
      const changed = this.last !== undefined && now !== this.last;
      this.last = now;
      if (changed) this.opts.onChange();
    });
    return this.checking;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    clearInterval(this.poller);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // check() reports its own failures; nothing reaches here
      this.check().catch(() => {});
    }, this.opts.debounceMs ?? 50);
    this.timer.unref?.();
  }
}

/** The tools the endpoint lists, compared by each tool's name and definition. */
export class ToolListWatcher extends ListWatcher<ToolSpec> {
  constructor(opts: ToolListWatcherOptions) {
    super({ ...opts, fingerprint: toolsFingerprint });
  }
}
