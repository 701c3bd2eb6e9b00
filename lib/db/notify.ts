// LISTEN on PostgreSQL for the messages instances send each other (a new config revision, a
// cancel for a run another instance owns). One dedicated connection per process (LISTEN belongs
// to a session, so it cannot come from a pool). Notifications sent while the connection is down
// are lost: after every reconnect the `onReconnect` callbacks run, so their owners re-read what
// they might have missed.
import pg from "pg";
import { dbTimeouts } from "./faults";

export type NotifyHandler = (payload: string) => void;

export interface NotifierOptions {
  /** First wait before reconnecting; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export class PgNotifier {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<NotifyHandler>>();
  private readonly reconnectHooks = new Set<() => void>();
  private connecting: Promise<void> | null = null;
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private backoff: number;
  /** A connection failed or was lost since the last good one: missed notifications are owed a re-read. */
  private owed = false;

  constructor(
    private readonly url: string,
    private readonly opts: NotifierOptions = {},
  ) {
    this.backoff = opts.backoffMs ?? 250;
  }

  /** Calls `handler` with each payload sent on `channel`; resolves once the LISTEN is in place (or the connection is down: it is retried). */
  async listen(channel: string, handler: NotifyHandler): Promise<() => void> {
    let set = this.handlers.get(channel);
    const fresh = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    await this.connect();
    if (fresh && this.client) await this.client.query(`LISTEN ${quoteIdent(channel)}`).catch(() => this.lost());
    return () => {
      set.delete(handler);
    };
  }

  /** Runs after each reconnect (not the first connect): notifications may have been missed. */
  onReconnect(fn: () => void): () => void {
    this.reconnectHooks.add(fn);
    return () => this.reconnectHooks.delete(fn);
  }

  /** Sends a notification outside any transaction (inside one, use pg_notify in that transaction). */
  async notify(channel: string, payload: string): Promise<void> {
    await this.connect();
    if (!this.client) throw new Error("not connected to PostgreSQL");
    await this.client.query("SELECT pg_notify($1, $2)", [channel, payload]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(ignore);
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    return (this.connecting ??= this.open().finally(() => (this.connecting = null)));
  }

  private async open(): Promise<void> {
    const t = dbTimeouts();
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: t.connectMs, keepAlive: true, application_name: "tool-studio-listen" });
    c.on("error", () => this.lost(c));
    c.on("end", () => this.lost(c));
    c.on("notification", (m) => {
      for (const h of this.handlers.get(m.channel) ?? []) {
        try {
          h(m.payload ?? "");
        } catch (err) {
          console.error(`[tool-studio] notify: a handler of ${m.channel} failed`, err);
        }
      }
    });
    try {
      await c.connect();
      for (const ch of this.handlers.keys()) await c.query(`LISTEN ${quoteIdent(ch)}`);
    } catch {
      await c.end().catch(ignore);
      this.owed = true;
      this.scheduleRetry();
      return;
    }
    if (this.closed) {
      await c.end().catch(ignore);
      return;
    }
    this.client = c;
    this.backoff = this.opts.backoffMs ?? 250;
    if (this.owed) for (const fn of this.reconnectHooks) safely(fn);
    this.owed = false;
  }

  private lost(c?: pg.Client): void {
    if (c && this.client !== c) return;
    const old = this.client;
    this.client = null;
    old?.end().catch(ignore);
    // A lost connection means missed notifications from now on: reconnect and tell the owners.
    this.owed = true;
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, this.opts.maxBackoffMs ?? 5000);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(ignore);
    }, wait);
    this.retry.unref?.();
  }
}

/** For closing a connection that is already failing: its own error is not news. */
function ignore(): void {}

function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error("[tool-studio] notify: a reconnect hook failed", err);
  }
}

/** Channel names are ours, but quote them anyway: LISTEN takes an identifier, not a parameter. */
function quoteIdent(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
