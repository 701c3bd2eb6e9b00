import { createHash } from "node:crypto";
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import { Prisma, type PrismaClient } from "../../db/generated/client";
import type { SecretBox } from "./crypto";

/** Which server, reached at which URL: credentials obtained for another URL are not used. */
export interface OAuthTarget {
  server: string;
  url: string;
}

export interface StoredFlow {
  server: string;
  url: string;
  verifier: string;
  actor: string;
}

/** How long a started sign-in may take before its callback is refused. */
export const FLOW_TTL_MS = 10 * 60_000;

export const stateHash = (state: string): string => createHash("sha256").update(state, "utf8").digest("hex");

type Field = "client" | "tokens";

/**
 * The OAuth credentials of the studio's MCP servers in PostgreSQL (`mcp_oauth_credentials`,
 * `mcp_oauth_flows`): the registered client and the tokens sealed with SecretBox, the discovery
 * results as plain JSON, flows in progress by the SHA-256 of their `state` with the PKCE verifier
 * sealed. Every instance reads the same rows, so a callback may land on any of them.
 */
export class OAuthStore {
  constructor(
    private readonly prisma: PrismaClient | Prisma.TransactionClient,
    private readonly box: SecretBox,
  ) {}

  /** The same store inside a transaction (a sign-in's tokens and its audit entry commit together). */
  in(tx: Prisma.TransactionClient): OAuthStore {
    return new OAuthStore(tx, this.box);
  }

  async client(t: OAuthTarget): Promise<StoredOAuthClientInformation | undefined> {
    return this.readSealed<StoredOAuthClientInformation>(t, "client");
  }

  async tokens(t: OAuthTarget): Promise<StoredOAuthTokens | undefined> {
    return this.readSealed<StoredOAuthTokens>(t, "tokens");
  }

  async discovery(t: OAuthTarget): Promise<OAuthDiscoveryState | undefined> {
    const row = await this.row(t);
    return (row?.discovery ?? undefined) as OAuthDiscoveryState | undefined;
  }

  /** True when tokens are kept for the server (what the Servers page shows; never the tokens). */
  async signedIn(t: OAuthTarget): Promise<boolean> {
    const row = await this.row(t);
    return !!row?.tokens;
  }

  async saveClient(t: OAuthTarget, info: StoredOAuthClientInformation): Promise<void> {
    await this.write(t, { client: this.box.seal(JSON.stringify(info), aad(t, "client")) });
  }

  async saveTokens(t: OAuthTarget, tokens: StoredOAuthTokens): Promise<void> {
    await this.write(t, { tokens: this.box.seal(JSON.stringify(tokens), aad(t, "tokens")) });
  }

  async saveDiscovery(t: OAuthTarget, state: OAuthDiscoveryState): Promise<void> {
    await this.write(t, { discovery: JSON.parse(JSON.stringify(state)) as Prisma.InputJsonValue });
  }

  /** Drops what the server no longer accepts (or everything: sign-out); flows in progress too for "all". */
  async forget(server: string, what: "all" | "client" | "tokens" | "discovery"): Promise<void> {
    if (what === "all") {
      const both = (db: Prisma.TransactionClient) => [
        db.mcpOAuthCredential.deleteMany({ where: { server } }),
        db.mcpOAuthFlow.deleteMany({ where: { server } }),
      ];
      if ("$transaction" in this.prisma) await this.prisma.$transaction(both(this.prisma));
      else for (const q of both(this.prisma)) await q;
      return;
    }
    const data: Prisma.McpOAuthCredentialUpdateManyMutationInput =
      what === "client" ? { client: null, tokens: null } : what === "tokens" ? { tokens: null } : { discovery: Prisma.DbNull };
    await this.prisma.mcpOAuthCredential.updateMany({ where: { server }, data });
  }

  async dropFlows(server: string): Promise<void> {
    await this.prisma.mcpOAuthFlow.deleteMany({ where: { server } });
  }

  async createFlow(state: string, flow: StoredFlow, ttlMs = FLOW_TTL_MS): Promise<void> {
    const now = Date.now();
    await this.prisma.mcpOAuthFlow.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
    await this.prisma.mcpOAuthFlow.create({
      data: {
        stateHash: stateHash(state),
        server: flow.server,
        serverUrl: flow.url,
        verifier: this.box.seal(flow.verifier, `verifier:${flow.server}`),
        actor: flow.actor,
        expiresAt: new Date(now + ttlMs),
      },
    });
  }

  /** The flow this `state` started, removed so it is used once; null when unknown or expired. */
  async takeFlow(state: string): Promise<StoredFlow | null> {
    const rows = await this.prisma.mcpOAuthFlow.findMany({ where: { stateHash: stateHash(state) } });
    const row = rows[0];
    if (!row) return null;
    const { count } = await this.prisma.mcpOAuthFlow.deleteMany({ where: { stateHash: row.stateHash } });
    if (count !== 1 || row.expiresAt.getTime() < Date.now()) return null;
    return { server: row.server, url: row.serverUrl, actor: row.actor, verifier: this.box.open(row.verifier, `verifier:${row.server}`) };
  }

  private async row(t: OAuthTarget) {
    const row = await this.prisma.mcpOAuthCredential.findUnique({ where: { server: t.server } });
    return row && row.serverUrl === t.url ? row : null;
  }

  private async readSealed<T>(t: OAuthTarget, field: Field): Promise<T | undefined> {
    const sealed = (await this.row(t))?.[field];
    if (!sealed) return undefined;
    try {
      return JSON.parse(this.box.open(sealed, aad(t, field))) as T;
    } catch {
      // Sealed with another secret (BETTER_AUTH_SECRET changed) or altered: as good as absent.
      return undefined;
    }
  }

  /** One field of the server's row; a row kept for another URL starts over. */
  private async write(t: OAuthTarget, data: { client?: string; tokens?: string; discovery?: Prisma.InputJsonValue }): Promise<void> {
    const existing = await this.prisma.mcpOAuthCredential.findUnique({ where: { server: t.server } });
    if (existing && existing.serverUrl !== t.url) {
      await this.prisma.mcpOAuthCredential.delete({ where: { server: t.server } });
    }
    await this.prisma.mcpOAuthCredential.upsert({ where: { server: t.server }, create: { server: t.server, serverUrl: t.url, ...data }, update: data });
  }
}

const aad = (t: OAuthTarget, field: Field) => `${field}:${t.server}:${t.url}`;
