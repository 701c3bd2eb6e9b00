import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { isObject } from "../mcp/mapping";
import { resourceFollows } from "../servers/follow";
import type { UpstreamView } from "./upstream";

/**
 * The resources one /api/mcp session (2025-era) subscribed to: each followed at every configured
 * server that takes subscriptions (shared with everyone else following it: lib/servers/follow.ts),
 * its updates relayed to the session. Released on unsubscribe or when the session closes; a
 * session that can no longer be told (gone) is released at the next update.
 */
export class SessionFollows {
  private readonly held = new Map<string, Promise<(() => void)[]>>();
  private closed = false;

  constructor(
    private readonly view: UpstreamView,
    private readonly notify: (uri: string) => Promise<void>,
  ) {}

  /** Subscribes; refused (method not found) when no configured server takes subscriptions or none took it. */
  async subscribe(uri: string): Promise<void> {
    if (this.closed) return;
    let pending = this.held.get(uri);
    if (!pending) {
      pending = this.follow(uri);
      this.held.set(uri, pending);
      pending.catch(() => this.held.get(uri) === pending && this.held.delete(uri));
    }
    await pending;
  }

  unsubscribe(uri: string): void {
    const pending = this.held.get(uri);
    this.held.delete(uri);
    pending?.then((stops) => stops.forEach((stop) => stop())).catch(() => {});
  }

  close(): void {
    this.closed = true;
    for (const uri of [...this.held.keys()]) this.unsubscribe(uri);
  }

  private async follow(uri: string): Promise<(() => void)[]> {
    const able = this.view
      .states()
      .filter((s) => s.state === "connected" && isObject(s.capabilities?.resources) && s.capabilities.resources.subscribe === true);
    if (!able.length) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "No configured MCP server supports resource subscriptions.");
    const relay = () => {
      this.notify(uri).catch(() => this.unsubscribe(uri));
    };
    const taken = await Promise.allSettled(able.map((s) => resourceFollows().follow(this.view, s.name, uri, relay)));
    const stops = taken.flatMap((t) => (t.status === "fulfilled" ? [t.value] : []));
    if (!stops.length) {
      const why = taken.find((t): t is PromiseRejectedResult => t.status === "rejected")?.reason as Error | undefined;
      throw new ProtocolError(ProtocolErrorCode.InternalError, `No configured MCP server took the subscription${why ? `: ${why.message}` : ""}.`);
    }
    if (this.closed || this.held.get(uri) === undefined) stops.forEach((stop) => stop());
    return stops;
  }
}
