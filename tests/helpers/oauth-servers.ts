// An OAuth-protected MCP server and its authorization server, on loopback, for the OAuth tests
// (tests/mcp-oauth.test.ts, e2e/oauth.spec.ts): a real OpenID provider (oidc-provider, with its
// development login and consent screens: any login, any password) that registers clients
// dynamically, requires PKCE, issues refresh tokens and short-lived JWT access tokens for the
// resource named by the RFC 8707 resource indicator; and a Streamable HTTP MCP server that
// publishes its RFC 9728 protected resource metadata, answers 401 with
// `WWW-Authenticate: Bearer resource_metadata=...` and accepts only those JWTs (signature,
// issuer, audience, expiry checked with jose against the provider's JWKS).
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { errors } from "oidc-provider";
import { createRemoteJWKSet, jwtVerify } from "jose";
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  Server,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { serveFetch } from "./mcp-http";

export interface OAuthFixture {
  /** The authorization server's issuer URL. */
  issuer: string;
  /** The MCP endpoint (http://127.0.0.1:<port>/mcp). */
  mcpUrl: string;
  /** Access tokens the MCP server accepted, in order (a refreshed token is a new entry). */
  accepted: string[];
  /** Requests the MCP server refused with 401. */
  refused: number;
  /** Token requests served, by grant type. */
  grants: Record<string, number>;
  close(): Promise<void>;
}

export interface OAuthFixtureOptions {
  /** Access-token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** Fixed ports (default: any free ones). */
  asPort?: number;
  mcpPort?: number;
}

export async function startOAuthFixture(opts: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const asServer = http.createServer();
  await new Promise<void>((resolve) => asServer.listen(opts.asPort ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(asServer.address() as AddressInfo).port}`;

  let mcpUrl = "";
  const fixture: OAuthFixture = { issuer, mcpUrl, accepted: [], refused: 0, grants: {}, close: async () => {} };

  const provider = new Provider(issuer, {
    clients: [],
    scopes: ["openid", "offline_access", "mcp"],
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id }) };
    },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? mcpUrl,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource.replace(/\/$/, "") !== mcpUrl) throw new errors.InvalidTarget();
          return {
            scope: "mcp",
            audience: mcpUrl,
            accessTokenTTL: opts.accessTokenTtl ?? 3600,
            accessTokenFormat: "jwt" as const,
            jwt: { sign: { alg: "RS256" as const } },
          };
        },
      },
    },
    pkce: { required: () => true },
    issueRefreshToken: async () => true,
    cookies: { keys: ["oauth-fixture-cookie-key"] },
  });
  provider.proxy = false;
  provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    const type = String(ctx.oidc.params?.grant_type ?? "?");
    fixture.grants[type] = (fixture.grants[type] ?? 0) + 1;
  });
  const serveAs = provider.callback();
  asServer.on("request", (req, res) => {
    Promise.resolve(serveAs(req, res)).catch((err: unknown) => {
      console.error("[oauth fixture] the authorization server failed a request", err);
      res.destroy();
    });
  });

  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer, audience: mcpUrl });
        fixture.accepted.push(token);
        return {
          token,
          clientId: String(payload.client_id ?? ""),
          scopes: String(payload.scope ?? "")
            .split(" ")
            .filter(Boolean),
          expiresAt: payload.exp,
          resource: new URL(mcpUrl),
          extra: { sub: payload.sub },
        };
      } catch (err) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, `invalid access token: ${(err as Error).message}`);
      }
    },
  };

  const mcp = createMcpHandler(() => {
    const server = new Server({ name: "oauth-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({
      tools: [{ name: "whoami", description: "Says who the access token belongs to.", inputSchema: { type: "object", properties: {} } }],
    }));
    server.setRequestHandler("tools/call", (request, ctx) => {
      if (request.params.name !== "whoami") throw new OAuthError(OAuthErrorCode.InvalidRequest, "unknown tool");
      const sub = ctx.http?.authInfo?.extra?.sub;
      return { content: [{ type: "text", text: `signed in as ${String(sub)}` }] };
    });
    return server;
  });

  const rs = await serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/.well-known/oauth-protected-resource")) {
      return Response.json({
        resource: mcpUrl,
        authorization_servers: [issuer],
        scopes_supported: ["mcp"],
        bearer_methods_supported: ["header"],
        resource_name: "OAuth fixture",
      });
    }
    if (path !== "/mcp") return new Response("not found", { status: 404 });
    const auth = await gate(request);
    if (auth instanceof Response) {
      fixture.refused++;
      return auth;
    }
    return mcp.fetch(request, { authInfo: auth });
  }, "/mcp");
  mcpUrl = fixture.mcpUrl = rs.url.href;
  const gate = requireBearerAuth({ verifier, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(rs.url), expectedResource: rs.url });

  fixture.close = async () => {
    await rs.close();
    await mcp.close();
    asServer.closeAllConnections();
    await new Promise((resolve) => asServer.close(resolve));
  };
  return fixture;
}

/**
 * Plays the person at the provider's development screens: follows the authorization URL, logs in
 * as `login` and consents, and returns the URL the provider sends the browser back to (the
 * studio's callback, with `code`, `state` and `iss`), without requesting it.
 */
export async function consentAtProvider(authorizationUrl: string, callbackPrefix: string, login = "alice"): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let url = authorizationUrl;
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res: Response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: cookie(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ?? undefined,
    });
    keep(res);
    form = null;
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url).href;
      await res.body?.cancel();
      continue;
    }
    const html: string = await res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt: string | undefined = html.match(/name="prompt" value="([^"]+)"/)?.[1];
    if (!action || !prompt) throw new Error(`the provider answered ${res.status} without a form: ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    form = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
  }
  throw new Error("the provider never sent the browser back");
}
