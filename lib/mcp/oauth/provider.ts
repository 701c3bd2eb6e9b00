import { randomBytes } from "node:crypto";
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthStore, OAuthTarget } from "./store";

export interface StudioOAuthOptions {
  /** Where the authorization server sends the browser back: /api/servers/{name}/oauth/callback. */
  redirectUrl: string;
  /** `scope` to ask for (default: what the server's protected resource metadata lists). */
  scope?: string;
  /** Sign-in start: the `state` sent to the authorization server. */
  state?: string;
  /** Callback: the PKCE verifier kept with the flow. */
  verifier?: string;
  /**
   * A person's sign-in: the tokens the SDK obtains are held here (`heldTokens`), not written, so
   * that the caller stores them with their audit entry in one transaction (lib/servers/oauth.ts).
   */
  holdTokens?: boolean;
}

/** The OAuth client name the studio registers under (dynamic client registration). */
export const CLIENT_NAME = "Tool Studio";

/** The callback URL of a server's sign-in, on the studio's public URL. */
export const redirectUrlFor = (baseUrl: string, server: string): string =>
  `${baseUrl.replace(/\/+$/, "")}/api/servers/${encodeURIComponent(server)}/oauth/callback`;

/**
 * The SDK's OAuthClientProvider for one MCP server, backed by OAuthStore (PostgreSQL, secrets
 * sealed). The SDK's `auth()` drives the protocol: RFC 9728 / RFC 8414 discovery, dynamic
 * client registration, authorization code with PKCE, refresh on a 401. Three uses:
 *
 * - a connection's transport: presents the access token, refreshes it through the SDK when the
 *   server answers 401; when a person has to sign in, it only notes so (`signInNeeded`): the
 *   PKCE verifier of such a background attempt is dropped, so it never replaces the one of a
 *   sign-in in progress;
 * - a sign-in start: the authorization URL and verifier are kept for the caller (lib/mcp/oauth/signin.ts)
 *   to store with the `state`;
 * - a callback: hands the SDK the verifier of the flow, which exchanges the code and saves the tokens.
 */
export class StudioOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK asked for a browser sign-in. */
  authorizationUrl?: URL;
  /** The PKCE verifier of the authorization URL above. */
  pendingVerifier?: string;
  /** The tokens obtained when `holdTokens` is set, for the caller to store. */
  heldTokens?: StoredOAuthTokens;
  /** The last tokens read or saved, for the per-request read; `null` once read as none. */
  private cached?: StoredOAuthTokens | null;

  constructor(
    private readonly store: OAuthStore,
    readonly target: OAuthTarget,
    private readonly opts: StudioOAuthOptions,
  ) {}

  get signInNeeded(): boolean {
    return this.authorizationUrl !== undefined;
  }

  get redirectUrl(): string {
    return this.opts.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.opts.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.opts.scope ? { scope: this.opts.scope } : {}),
    };
  }

  state(): string {
    return this.opts.state ?? randomBytes(32).toString("base64url");
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const info = await this.store.client(this.target);
    // Registered for another callback URL (the studio's public URL changed): register again.
    const uris = info && "redirect_uris" in info ? info.redirect_uris : undefined;
    if (Array.isArray(uris) && !uris.map(String).includes(this.opts.redirectUrl)) return undefined;
    return info;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    await this.store.saveClient(this.target, info);
  }

  /**
   * Without `ctx` this is the transport's read before every request: the tokens last seen by
   * this provider (one database read per connection attempt). With `ctx` it is the SDK's auth
   * flow (after a 401): read again, as another instance may have refreshed them meanwhile.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (this.heldTokens) return this.heldTokens;
    if (!ctx && this.cached !== undefined) return this.cached ?? undefined;
    const tokens = await this.store.tokens(this.target);
    this.cached = tokens ?? null;
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    if (this.opts.holdTokens) this.heldTokens = tokens;
    else await this.store.saveTokens(this.target, tokens);
    this.cached = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.pendingVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.opts.verifier) throw new Error(`No sign-in to MCP server "${this.target.server}" is in progress.`);
    return this.opts.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") return; // kept with its flow, used once
    await this.store.forget(this.target.server, scope);
    if (scope !== "discovery") this.cached = null;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const state = await this.store.discovery(this.target);
    // Protected resource metadata comes from the server's own origin only (fetch-guard.ts); a state
    // kept before that rule is discovered afresh.
    const prm = state?.resourceMetadataUrl;
    if (prm && URL.parse(prm)?.origin !== new URL(this.target.url).origin) return undefined;
    return state;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.store.saveDiscovery(this.target, state);
  }
}
