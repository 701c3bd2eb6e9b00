// Keeps this instance's config file and the database's config revisions in step. The rule:
//   - The database holds the config every instance uses; each change is a revision.
//   - A save through the API or the UI appends a revision (refused when the config moved past the
//     version the editor loaded, whichever instance that was), then writes the file.
//   - An edit of the file that parses is imported as a new revision on top of the latest one
//     (the file is a first-class way to edit; its author is the machine's user). An edit that
//     does not parse is not imported; it stays on disk, reported, until it is fixed or a newer
//     revision made elsewhere replaces it (the broken text is then kept beside the file).
//   - A revision made on another instance reaches this one by NOTIFY (a safety poll and a re-read
//     after every reconnect catch missed ones) and is written to the file, which the file store
//     then serves.
//   - At start: no revision yet -> the file is the first one; a file equal to an older revision is
//     stale and is replaced by the latest; a file that was never a revision was edited while the
//     studio was stopped and is imported.
// Every step runs one at a time, in order, so a file event and a remote revision cannot interleave.
import fs from "node:fs";
import type { AuditAppend } from "../audit/log";
import type { PgNotifier } from "../db/notify";
import { ConfigConflictError, ConfigUnchangedError, CONFIG_CHANNEL, type ConfigRevision, type ConfigRevisions, type RevisionInfo } from "./revisions";
import { conflictError, displayPath, parseConfigText, type ConfigStore, type SaveResult } from "./store";

export interface ConfigSaveRequest {
  author: string;
  from: string | null;
  /** The version the editor loaded: refused (conflict) when the config has moved past it. */
  expectedVersion?: string;
  /** Audit entries that commit with the new revision or not at all (lib/servers/apply.ts). */
  audit?: readonly AuditAppend[];
}

/** What a config edit needs: the file store (what this instance serves) and a way to save. */
export interface ConfigWriter {
  readonly store: ConfigStore;
  save(text: string, req: ConfigSaveRequest): Promise<SaveResult>;
}

export interface ConfigSyncOptions {
  store: ConfigStore;
  revisions: ConfigRevisions;
  /** Who an edit of the file is attributed to (the studio cannot know who edited it). */
  fileAuthor: () => string;
  /** PostgreSQL: how other instances' revisions arrive. None on PGlite (one process). */
  notifier?: PgNotifier | null;
  /** How often to look for a revision a lost notification did not announce (ms; 0 = never). */
  pollMs?: number;
}

type Reason = "boot" | "file" | "remote";

export class ConfigSync implements ConfigWriter {
  readonly store: ConfigStore;
  private readonly revisions: ConfigRevisions;
  /** The version the file and the database last agreed on (null until the first reconcile). */
  private synced: string | null = null;
  private latest: RevisionInfo | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly stops: (() => void)[] = [];

  constructor(private readonly opts: ConfigSyncOptions) {
    this.store = opts.store;
    this.revisions = opts.revisions;
  }

  /** Reconciles the file with the latest revision, then follows both. */
  async start(): Promise<void> {
    // Listening comes first: a revision committed between the boot's read and a later LISTEN
    // would be heard of only at the next poll (seconds on a just-started instance). A
    // notification that arrives before the boot's reconcile is queued behind it.
    this.stops.push(this.store.subscribe(this.later("file")));
    const n = this.opts.notifier;
    if (n) {
      this.stops.push(await n.listen(CONFIG_CHANNEL, this.later("remote")));
      this.stops.push(n.onReconnect(this.later("remote")));
    }
    await this.step("boot");
    if (this.opts.pollMs) {
      let seen = this.latest?.id ?? 0;
      const timer = setInterval(() => {
        this.revisions.headId().then(
          (id) => {
            if (id !== seen) this.later("remote")();
            seen = id;
          },
          () => {}, // the database is away: the next tick asks again
        );
      }, this.opts.pollMs);
      timer.unref?.();
      this.stops.push(() => clearInterval(timer));
    }
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
  }

  /** The latest revision this instance knows of (null before the first). */
  head(): RevisionInfo | null {
    return this.latest;
  }

  /** Resolves when every step queued so far has run. */
  idle(): Promise<void> {
    return this.queue.then(() => {});
  }

  /** Saves through the database first (the conflict check is global), then writes the file. */
  save(text: string, req: ConfigSaveRequest): Promise<SaveResult> {
    return this.serial(async () => {
      const shown = displayPath(this.store.path);
      const parsed = parseConfigText(text, this.store.path);
      if (!parsed.ok) return parsed;
      let local = this.store.current();
      // An edit of the file not imported yet (its change event is still on its way): it is the
      // version the editor may have loaded, so it becomes a revision first.
      if (local.error === null && this.synced !== null && local.version !== this.synced) {
        await this.importFile(this.store.raw());
        local = this.store.current();
      }
      // The editor loaded this instance's file: when that file is broken (not a revision), fixing
      // it is not a conflict with the revision in use.
      const fixingBrokenFile = req.expectedVersion !== undefined && local.error !== null && req.expectedVersion === local.version;
      let rev: ConfigRevision;
      try {
        rev = await this.revisions.append({
          text: stripBom(text),
          author: req.author,
          source: "api",
          expected: fixingBrokenFile ? undefined : req.expectedVersion,
          from: req.from,
          target: shown,
          also: req.audit,
        });
      } catch (err) {
        if (ConfigConflictError.isInstance(err)) {
          return { ok: false, error: conflictError(shown, req.expectedVersion ?? "", (err as ConfigConflictError).head.hash) };
        }
        if (!ConfigUnchangedError.isInstance(err)) throw err;
        rev = (err as ConfigUnchangedError).head; // the same text as the latest revision: nothing new to record
      }
      this.latest = info(rev);
      return this.writeFile(rev);
    });
  }

  /** Queues a reconcile; a failure is logged (the next event, poll or reconnect tries again). */
  private step(reason: Reason): Promise<void> {
    return this.serial(() => this.reconcile(reason)).catch((err: unknown) => {
      console.error(`[tool-studio] config: could not reconcile the file with the database (${reason})`, err);
    });
  }

  private later = (reason: Reason) => (): void => {
    // step() chains on the queue and never rejects (it logs its failures): it is the queue's new tail.
    this.queue = this.step(reason);
  };

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }

  private async reconcile(reason: Reason): Promise<void> {
    const text = this.store.raw();
    const file = this.store.current();
    const head = await this.revisions.head();
    if (head) this.latest = info(head);
    const valid = file.error === null;
    if (head && file.version === head.hash) {
      this.synced = head.hash;
      return;
    }
    // A valid text this instance has not agreed on yet: an edit of the file.
    const edited = valid && file.version !== this.synced;
    if (!head) {
      if (valid) await this.importFile(text);
      return;
    }
    if (edited && !(reason === "boot" && (await this.revisions.hasHash(file.version)))) {
      await this.importFile(text);
      return;
    }
    // A broken edit in progress is left alone until a newer revision arrives from elsewhere.
    if (!valid && reason === "file") return;
    if (!valid && file.error?.kind !== "not_found" && file.version !== this.synced) keepBrokenCopy(this.store.path, text);
    const r = this.writeFile(head);
    if (!r.ok) console.error(`[tool-studio] config: could not write revision ${head.id} to the file: ${r.error.message}`);
  }

  private async importFile(text: string): Promise<void> {
    let rev: ConfigRevision;
    try {
      rev = await this.revisions.append({ text, author: this.opts.fileAuthor(), source: "file", target: displayPath(this.store.path) });
    } catch (err) {
      if (!ConfigUnchangedError.isInstance(err)) throw err;
      rev = (err as ConfigUnchangedError).head; // another instance sharing this file imported it first
    }
    this.latest = info(rev);
    this.synced = rev.hash;
  }

  private writeFile(rev: ConfigRevision): SaveResult {
    // Agreed before writing: the store's own change event must not read our write as an edit.
    this.synced = rev.hash;
    return this.store.save(rev.text);
  }
}

const stripBom = (t: string) => (t.charCodeAt(0) === 0xfeff ? t.slice(1) : t);
const info = ({ text: _text, ...rest }: ConfigRevision): RevisionInfo => rest;

/** A broken file about to be replaced is kept beside it, so an edit in progress is never lost. */
function keepBrokenCopy(file: string, text: string): void {
  const copy = `${file}.broken-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  try {
    fs.writeFileSync(copy, text, { flag: "wx" });
    console.warn(`[tool-studio] config: ${displayPath(file)} did not parse and a newer revision replaces it; its text is kept in ${displayPath(copy)}`);
  } catch (err) {
    console.warn(`[tool-studio] config: could not keep a copy of the broken ${displayPath(file)}: ${(err as Error).message}`);
  }
}
