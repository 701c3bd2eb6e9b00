import { processSlot } from "../process/slots";
import { HttpError } from "../http/http";
import type { McpConnection } from "../mcp/connection";
import { isObject } from "../mcp/mapping";
import { type BrowseView, BROWSE_TIMEOUT_MS, liveConnection, upstreamError } from "./browse";

/**
 * Following a resource: the studio subscribes upstream (resources/subscribe on a 2025-era server,
 * a subscriptions/listen stream filtered to the URI on 2026-07-28) once per server and
 * URI however many people follow it, tells each follower when the server says it changed
 * (notifications/resources/updated), subscribes again after a reconnect, and unsubscribes when
 * the last follower leaves. Bounded: at most `maxFollowers` followers in this process.
 */
export interface ResourceUpdate {
  server: string;
  uri: string;
  /** When the studio heard it (ISO time). */
  at: string;
}
export type ResourceUpdateListener = (update: ResourceUpdate) => void;

interface Entry {
  server: string;
  uri: string;
  connection: McpConnection;
  listeners: Set<ResourceUpdateListener>;
  /** Settles once the first subscription has been taken. */
  ready: Promise<void>;
  /** Stops listening and ends the upstream subscription (if it was taken). */
  stop: () => void;
}

export const MAX_FOLLOWERS = 200;

/** Does the server say it takes resources/subscribe (capabilities.resources.subscribe)? */
export function offersSubscriptions(capabilities: Record<string, unknown> | undefined): boolean {
  return isObject(capabilities?.resources) && capabilities.resources.subscribe === true;
}

export class ResourceFollows {
  private readonly entries = new Map<string, Entry>();
  private followers = 0;

  constructor(
    private readonly maxFollowers = MAX_FOLLOWERS,
    private readonly log: (message: string) => void = (m) => console.warn(`[tool-studio] ${m}`),
  ) {}

  /** How many upstream subscriptions are held (one per server and URI followed). */
  get subscriptions(): number {
    return this.entries.size;
  }

  /**
   * Follows `uri` of `server`: resolves once the server has taken the subscription, with the
   * function that stops following. 404 for an unknown server or one without subscriptions, 503
   * when it is down or too many follow already, the server's own refusal as 400/404/502.
   */
  async follow(view: BrowseView, server: string, uri: string, listener: ResourceUpdateListener): Promise<() => void> {
    const connection = liveConnection(view, server);
    if (!offersSubscriptions(connection.status().capabilities)) {
      throw new HttpError("not_found", `MCP server "${server}" offers no resource subscriptions (it did not declare resources.subscribe).`);
    }
    if (this.followers >= this.maxFollowers)
      throw new HttpError("unavailable", `The studio follows at most ${this.maxFollowers} resources at once; try again later.`);
    const key = `${server}\n${uri}`;
    let entry = this.entries.get(key);
    if (entry && entry.connection !== connection) {
      // The server entry was replaced (a config change): start over on the new connection.
      this.end(entry);
      entry = undefined;
    }
    entry ??= this.open(key, server, uri, connection);
    entry.listeners.add(listener);
    this.followers++;
    let followed = true;
    const unfollow = () => {
      if (!followed) return;
      followed = false;
      this.followers--;
      const e = this.entries.get(key);
      if (!e?.listeners.delete(listener) || e.listeners.size) return;
      this.end(e);
    };
    try {
      await entry.ready;
    } catch (err) {
      unfollow();
      throw upstreamError(err, server);
    }
    return unfollow;
  }

  private open(key: string, server: string, uri: string, connection: McpConnection): Entry {
    // The current upstream subscription's end, once taken.
    let unsubscribe: (() => Promise<void>) | undefined;
    let ended = false;
    const release = (end: (() => Promise<void>) | undefined) => {
      end?.().catch((err: unknown) => this.log(`MCP server "${server}": ending the subscription to ${uri} failed: ${(err as Error).message}`));
    };
    const subscribe = async () => {
      const end = await connection.subscribeResource(uri, BROWSE_TIMEOUT_MS);
      // Everyone left while it was being taken: end it at once.
      if (ended) return release(end);
      unsubscribe = end;
    };
    const listeners = new Set<ResourceUpdateListener>();
    const offUpdates = connection.onResourceUpdated((updated) => {
      if (updated !== uri) return;
      const update = { server, uri, at: new Date().toISOString() };
      for (const l of [...listeners]) l(update);
    });
    // A reconnected server has forgotten the subscription: ask again.
    let wasConnected = true;
    const offState = connection.subscribe((event) => {
      if (event.type !== "state") return;
      const connected = event.status.state === "connected";
      if (connected && !wasConnected && !ended)
        subscribe().catch((err: unknown) => this.log(`MCP server "${server}": resources/subscribe ${uri} after a reconnect failed: ${(err as Error).message}`));
      wasConnected = connected;
    });
    const ready = subscribe();
    // The first follower awaits it; a failure ends the entry there.
    ready.catch(() => {});
    const entry: Entry = {
      server,
      uri,
      connection,
      listeners,
      ready,
      stop: () => {
        ended = true;
        offUpdates();
        offState();
        release(unsubscribe);
        unsubscribe = undefined;
      },
    };
    this.entries.set(key, entry);
    return entry;
  }

  private end(entry: Entry): void {
    entry.stop();
    const key = `${entry.server}\n${entry.uri}`;
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}

const followsSlot = processSlot<ResourceFollows>("resourceFollows");

/** This process's follows (one per process: Next may load lib/ more than once). */
export function resourceFollows(): ResourceFollows {
  return followsSlot.use(() => new ResourceFollows());
}
