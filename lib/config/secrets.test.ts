import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnection } from "../mcp/connection";
import { McpManager } from "../mcp/source";
import { RuntimeConfigSchema, type AuthSettingsConfig, type RuntimeConfig } from "./schema";
import { parseConfigText } from "./store";
import {
  EnvRefError,
  isEnvReference,
  redactConfig,
  redactConfigText,
  redactMcpServer,
  resolveEnvRecord,
  resolveEnvRefs,
  restoreSecrets,
  secretState,
  SECRET_PLACEHOLDER,
} from "./secrets";

const P = JSON.stringify(SECRET_PLACEHOLDER);

// A config text with comments, odd formatting, env references and every kind of secret.
const TEXT = `// Tool Studio config
{
  "$schema": "../public/schemas/runtime-config.schema.json",
  /* servers */
  "mcpServers": [
    {
      "name": "github",
      "transport": "stdio",
      "command": "npx",
      "args": ["-y", "server-github"], // args are not secret
      "env": {
        "GITHUB_TOKEN": "ghp_literal_secret", // the token
        "FROM_ENV":   "\${env:GH_TOKEN}",
        "MIXED": "x-\${env:GH_TOKEN}",
        "EMPTY": ""
      }
    },
    {
      "name": "remote",
      "transport": "http",
      "url": "https://mcp.example.com/mcp",
      "headers": { "Authorization": "Bearer hunter2", "X-Ref": "\${env:REMOTE_KEY}" },
    },
  ],
  "auth": { "oidc": { "issuer": "https://id.example.com", "clientId": "studio", "clientSecret": "oidc-shh" } },
  "lists": { "colors": ["red", "ghp_literal_secret_is_not_here"] }
}
`;

const SECRETS = ['ghp_literal_secret"', "x-${env:GH_TOKEN}", "Bearer hunter2", "oidc-shh"];

describe("resolveEnvRefs", () => {
  const env = { TOKEN: "t0k", USER_2: "ann", EMPTY: "" };

  it("resolves a value that is exactly a reference, and references inside a string", () => {
    expect(resolveEnvRefs("${env:TOKEN}", env)).toBe("t0k");
    expect(resolveEnvRefs("Bearer ${env:TOKEN}", env)).toBe("Bearer t0k");
    expect(resolveEnvRefs("${env:USER_2}:${env:TOKEN}!", env)).toBe("ann:t0k!");
  });

  it("leaves values without references alone, and does not resolve twice", () => {
    expect(resolveEnvRefs("plain $TOKEN ${TOKEN} {env:TOKEN}", env)).toBe("plain $TOKEN ${TOKEN} {env:TOKEN}");
    expect(resolveEnvRefs("${env:A}", { A: "${env:TOKEN}" })).toBe("${env:TOKEN}");
  });

  it("reads process.env by default", () => {
    process.env.TS_SECRETS_TEST_DEFAULT = "from-process";
    try {
      expect(resolveEnvRefs("${env:TS_SECRETS_TEST_DEFAULT}")).toBe("from-process");
    } finally {
      delete process.env.TS_SECRETS_TEST_DEFAULT;
    }
  });

  it("throws a clear error naming the variable and where it was used when it is unset", () => {
    let err: unknown;
    try {
      resolveEnvRefs("Bearer ${env:NOPE_NOT_SET}", env, "/mcpServers/remote/headers/Authorization");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EnvRefError);
    expect((err as EnvRefError).variable).toBe("NOPE_NOT_SET");
    expect((err as EnvRefError).where).toBe("/mcpServers/remote/headers/Authorization");
    expect((err as Error).message).toMatch(/NOPE_NOT_SET is not set/);
    expect((err as Error).message).toContain("/mcpServers/remote/headers/Authorization");
    expect((err as Error).message).not.toContain("Bearer");
  });

  it("treats an empty variable as an error too (never silently empty)", () => {
    expect(() => resolveEnvRefs("${env:EMPTY}", env, "/x")).toThrow(/EMPTY is set but empty/);
  });

  it("rejects a malformed reference without quoting the value", () => {
    expect(() => resolveEnvRefs("${env:1BAD}", env, "/mcpServers/a/env/K")).toThrow(/Malformed environment variable reference in \/mcpServers\/a\/env\/K/);
    expect(() => resolveEnvRefs("${env:bad-name}", env)).toThrow(EnvRefError);
    try {
      resolveEnvRefs("${env:TOKEN hunter2", env);
    } catch (e) {
      expect((e as Error).message).not.toContain("hunter2");
    }
  });

  it("resolves a record, naming the key in errors", () => {
    expect(resolveEnvRecord({ A: "${env:TOKEN}", B: "lit" }, "/mcpServers/s/env", env)).toEqual({ A: "t0k", B: "lit" });
    expect(() => resolveEnvRecord({ "A/B": "${env:MISSING_X}" }, "/mcpServers/s/env", env)).toThrow("/mcpServers/s/env/A~1B");
  });

  it("isEnvReference is true only for values made of references alone", () => {
    expect(isEnvReference("${env:A}")).toBe(true);
    expect(isEnvReference("${env:A}${env:B_2}")).toBe(true);
    expect(isEnvReference("Bearer ${env:A}")).toBe(false);
    expect(isEnvReference("${env:A} ")).toBe(false);
    expect(isEnvReference("${env:9}")).toBe(false);
    expect(isEnvReference("")).toBe(false);
  });
});

/** `auth.oidc` of a config. */
const oidcOf = (c: RuntimeConfig) => c.auth.oidc;

function parsed(): RuntimeConfig {
  const cfg = RuntimeConfigSchema.parse({
    mcpServers: [
      { name: "github", transport: "stdio", command: "npx", env: { GITHUB_TOKEN: "ghp_literal_secret", FROM_ENV: "${env:GH_TOKEN}", EMPTY: "" } },
      { name: "remote", transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer hunter2" } },
    ],
  });
  // Set by hand, so the test does not depend on the auth schema's other fields.
  const auth: AuthSettingsConfig = { oidc: { issuer: "https://id.example.com", clientId: "studio", clientSecret: "oidc-shh", defaultRole: "viewer" } };
  return Object.freeze({ ...cfg, auth });
}

describe("redactConfig", () => {
  it("hides env, headers and the OIDC client secret, shows env references, leaves the rest", () => {
    const cfg = parsed();
    const r = redactConfig(cfg);
    const [gh, remote] = r.mcpServers;
    expect(gh.transport === "stdio" && gh.env).toEqual({ GITHUB_TOKEN: SECRET_PLACEHOLDER, FROM_ENV: "${env:GH_TOKEN}", EMPTY: "" });
    expect(remote.transport === "http" && remote.headers).toEqual({ Authorization: SECRET_PLACEHOLDER });
    expect(oidcOf(r)).toEqual({ issuer: "https://id.example.com", clientId: "studio", clientSecret: SECRET_PLACEHOLDER, defaultRole: "viewer" });
    expect(gh.transport === "stdio" && gh.command).toBe("npx");
    expect(remote.transport === "http" && remote.url).toBe("https://mcp.example.com/mcp");
    const json = JSON.stringify(r);
    for (const s of ["ghp_literal_secret", "hunter2", "oidc-shh"]) expect(json).not.toContain(s);
  });

  it("returns a copy: the config in use keeps its values", () => {
    const cfg = parsed();
    redactConfig(cfg);
    expect(cfg.mcpServers[0].transport === "stdio" && cfg.mcpServers[0].env.GITHUB_TOKEN).toBe("ghp_literal_secret");
    expect(oidcOf(cfg)?.clientSecret).toBe("oidc-shh");
  });

  it.skipIf(!("auth" in RuntimeConfigSchema.shape))("hides the client secret of a config the schema parsed (once it declares auth)", () => {
    const r = parseConfigText(TEXT, "studio.jsonc");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const red = redactConfig(r.config);
    expect(oidcOf(red)?.clientSecret).toBe(SECRET_PLACEHOLDER);
    expect(oidcOf(r.config)?.clientSecret).toBe("oidc-shh");
    const json = JSON.stringify(red);
    for (const s of ['"ghp_literal_secret"', "hunter2", "oidc-shh"]) expect(json).not.toContain(s);
  });

  it("works without an auth section", () => {
    const cfg = RuntimeConfigSchema.parse({});
    expect(redactConfig(cfg)).toEqual(cfg);
  });
});

describe("redactMcpServer / secretState", () => {
  it("redacts one server entry for display, keeping its keys", () => {
    const s = parsed().mcpServers[0];
    const r = redactMcpServer(s);
    expect(r.transport === "stdio" && r.env).toEqual({ GITHUB_TOKEN: SECRET_PLACEHOLDER, FROM_ENV: "${env:GH_TOKEN}", EMPTY: "" });
    expect(s.transport === "stdio" && s.env.GITHUB_TOKEN).toBe("ghp_literal_secret");
  });

  it("says set or unset", () => {
    expect(secretState("abc", {})).toBe("set");
    expect(secretState("", {})).toBe("unset");
    expect(secretState("${env:X}", {})).toBe("unset");
    expect(secretState("${env:X}", { X: "1" })).toBe("set");
  });
});

describe("redactConfigText", () => {
  it("hides every secret and keeps comments, formatting and everything else byte for byte", () => {
    const out = redactConfigText(TEXT);
    const expected = TEXT.replace('"ghp_literal_secret"', P).replace('"x-${env:GH_TOKEN}"', P).replace('"Bearer hunter2"', P).replace('"oidc-shh"', P);
    expect(out).toBe(expected);
    for (const s of SECRETS) expect(out).not.toContain(s);
    expect(out).toContain("// the token");
    expect(out).toContain("/* servers */");
    expect(out).toContain('"FROM_ENV":   "${env:GH_TOKEN}"');
    expect(out).toContain('"X-Ref": "${env:REMOTE_KEY}"');
    expect(out).toContain('"EMPTY": ""');
    expect(out).toContain('"ghp_literal_secret_is_not_here"');
  });

  it("hides duplicate keys, non-string values and a whole env that is not an object", () => {
    const text = `{"mcpServers":[{"name":"a","transport":"stdio","command":"x","env":{"K":"one","K":"two","N":12345}},
      {"name":"b","transport":"stdio","command":"x","env":["K=secret-array"]}]}`;
    const out = redactConfigText(text);
    for (const s of ["one", "two", "12345", "secret-array"]) expect(out).not.toContain(s);
    expect(out).toContain(`"env":${P}`);
  });

  it("keeps CRLF line ends", () => {
    const text = '{\r\n  "mcpServers": [{"name":"a","transport":"http","url":"http://x/","headers":{"A":"s3cret"}}]\r\n}\r\n';
    expect(redactConfigText(text)).toBe(text.replace('"s3cret"', P));
  });

  it("hides secrets in text with syntax errors (a file being edited)", () => {
    const broken = [
      `{"mcpServers":[{"name":"a","env":{"TOKEN":"abc1" "X":"abc2"}}]}`,
      `{"mcpServers":[{"name":"a","env":{"TOKEN":"abc1", "X":"abc2"`,
      `{"mcpServers":[{"name":"a","env":{"TOKEN" "abc1", "X":"abc2"}}]}`,
      `{"mcpServers":[{"name":"a","env":{"TOKEN": abc1, "X":"abc2"}}]}`,
      `{"mcpServers":[{"name":"a", env:{"TOKEN": "abc1", "X":"abc2"}}]}`,
      `{"mcpServers":[{"name":"a", "env":{TOKEN: "abc1", "X":"abc2"}}]}`,
      `{"mcpServers" [{"name":"a", "headers":{"TOKEN": "abc1", "X":"abc2"}}]}`,
      `{"auth":{"oidc":{"clientSecret": "abc1" "clientId": "abc2"}}, "mcpServers":[{"env":{"X":"\${env:OK}"}}`,
    ];
    for (const text of broken) {
      const out = redactConfigText(text);
      expect(out, text).not.toContain("abc1");
      if (!text.includes("clientId")) expect(out, text).not.toContain("abc2");
    }
    expect(redactConfigText(broken[7])).toContain("${env:OK}");
    expect(redactConfigText("")).toBe("");
  });
});

describe("restoreSecrets", () => {
  it("round-trips: the redacted text comes back as the original", () => {
    const r = restoreSecrets(redactConfigText(TEXT), TEXT);
    expect(r).toEqual({ ok: true, text: TEXT });
  });

  it("keeps edits made elsewhere and values typed anew", () => {
    const edited = redactConfigText(TEXT)
      .replace('"command": "npx"', '"command": "node"')
      .replace(`"Authorization": ${P}`, '"Authorization": "Bearer new-one"')
      .replace("// the token", "// still the token");
    const r = restoreSecrets(edited, TEXT);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toContain('"command": "node"');
    expect(r.text).toContain('"GITHUB_TOKEN": "ghp_literal_secret", // still the token');
    expect(r.text).toContain('"Authorization": "Bearer new-one"');
    expect(r.text).toContain('"clientSecret": "oidc-shh"');
    expect(r.text).not.toContain(SECRET_PLACEHOLDER);
  });

  it("finds a server's secrets by its name, not its position", () => {
    const current = `{"mcpServers":[{"name":"a","transport":"stdio","command":"x","env":{"K":"sa"}},{"name":"b","transport":"stdio","command":"x","env":{"K":"sb"}}]}`;
    const swapped = `{"mcpServers":[{"name":"b","transport":"stdio","command":"x","env":{"K":${P}}},{"name":"a","transport":"stdio","command":"x","env":{"K":${P}}}]}`;
    const r = restoreSecrets(swapped, current);
    expect(r.ok && r.text).toBe(swapped.replace(P, '"sb"').replace(P, '"sa"'));
  });

  it("keeps the saved source text exactly (escapes included)", () => {
    const current = `{"mcpServers":[{"name":"a","transport":"http","url":"http://x/","headers":{"A":"caf\\u00e9 \\"q\\""}}]}`;
    const r = restoreSecrets(redactConfigText(current), current);
    expect(r.ok && r.text).toBe(current);
  });

  it("fails, naming the JSON path, when a hidden value has nothing to come back from", () => {
    const renamed = redactConfigText(TEXT).replace('"name": "github"', '"name": "gh"');
    const r = restoreSecrets(renamed, TEXT);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.path).toBe("/mcpServers/gh/env/GITHUB_TOKEN");
    expect(r.message).toContain("/mcpServers/gh/env/GITHUB_TOKEN");
    expect(r.message).toMatch(/type the value again/);
    expect(r.line).toBe(TEXT.split("\n").findIndex((l) => l.includes('"GITHUB_TOKEN"')) + 1);
    expect(r.column).toBe(
      TEXT.split("\n")
        .find((l) => l.includes('"GITHUB_TOKEN"'))!
        .indexOf('"ghp_literal_secret"') + 1,
    );
  });

  it("fails for a new key whose value is the placeholder, and when there is no saved text", () => {
    const r = restoreSecrets(redactConfigText(TEXT).replace('"EMPTY": ""', `"EMPTY": "", "NEW": ${P}`), TEXT);
    expect(!r.ok && r.path).toBe("/mcpServers/github/env/NEW");
    expect(restoreSecrets(redactConfigText(TEXT), "").ok).toBe(false);
  });

  it("escapes path segments as JSON pointers", () => {
    const current = `{"mcpServers":[{"name":"a","transport":"stdio","command":"x","env":{"A/B~C":"v"}}]}`;
    const r = restoreSecrets(redactConfigText(current).replace('"name":"a"', '"name":"z"'), current);
    expect(!r.ok && r.path).toBe("/mcpServers/z/env/A~1B~0C");
  });

  it("returns text with syntax errors as it is (saving it fails anyway)", () => {
    const broken = `{"mcpServers": [ ${P} `;
    expect(restoreSecrets(broken, TEXT)).toEqual({ ok: true, text: broken });
  });

  it("leaves text without placeholders untouched", () => {
    expect(restoreSecrets(TEXT, "")).toEqual({ ok: true, text: TEXT });
  });
});

describe("MCP servers use resolved references and never show secrets", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const opts = { backoff: { initialMs: 60_000 }, healthCheckMs: 0, connectTimeoutMs: 5_000 };

  it("a stdio server whose env references an unset variable fails with a clear error, not a crash", async () => {
    delete process.env.TS_SECRETS_TEST_UNSET;
    const conn = new McpConnection(
      { name: "gh", transport: "stdio", command: process.execPath, args: ["-e", ""], env: { TOKEN: "${env:TS_SECRETS_TEST_UNSET}" }, enabled: true },
      opts,
    );
    cleanups.push(() => conn.close());
    await expect(conn.connect(10_000)).rejects.toThrow(/TS_SECRETS_TEST_UNSET is not set.*\/mcpServers\/gh\/env\/TOKEN/);
    const s = conn.status();
    expect(s.state).toBe("failed");
    expect(s.error).toContain("TS_SECRETS_TEST_UNSET");
    expect(s.pid).toBeUndefined();
  });

  it("a stdio server gets the resolved value in its environment", async () => {
    process.env.TS_SECRETS_TEST_SET = "resolved-value";
    cleanups.push(() => void delete process.env.TS_SECRETS_TEST_SET);
    const conn = new McpConnection(
      {
        name: "echo",
        transport: "stdio",
        command: process.execPath,
        // It says whether it got the value rather than the value: its stderr tail hides what it was given.
        args: ["-e", "process.stderr.write('GOT=' + (process.env.TOKEN === 'pre-resolved-value') + '\\n'); setTimeout(() => process.exit(1), 200)"],
        env: { TOKEN: "pre-${env:TS_SECRETS_TEST_SET}" },
        enabled: true,
      },
      opts,
    );
    cleanups.push(() => conn.close());
    conn.start();
    const s = await conn.waitFor((st) => st.stderrTail.some((l) => l.startsWith("GOT=")), 10_000);
    expect(s.stderrTail).toContain("GOT=true");
  });

  it("an HTTP server gets the resolved headers", async () => {
    process.env.TS_SECRETS_TEST_KEY = "k3y";
    cleanups.push(() => void delete process.env.TS_SECRETS_TEST_KEY);
    const seen: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as AddressInfo;
    const conn = new McpConnection(
      {
        name: "remote",
        transport: "http",
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: "Bearer ${env:TS_SECRETS_TEST_KEY}" },
        enabled: true,
      },
      opts,
    );
    cleanups.push(() => conn.close());
    await expect(conn.connect(10_000)).rejects.toThrow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toBe("Bearer k3y");
  });

  it("server states (the Servers page and /api/servers) carry no env or header values", async () => {
    const fake = (config: { name: string; transport: "stdio" | "http" }): McpConnection => {
      const stub = {
        start() {},
        subscribe: () => () => {},
        close: async () => {},
        tools: () => [],
        status: () => ({
          name: config.name,
          transport: config.transport,
          state: "failed",
          error: "boom",
          stderrTail: ["line"],
          toolCount: 0,
          excluded: [],
          failures: 1,
        }),
      };
      // eslint-disable-next-line no-restricted-syntax -- a stand-in with only the methods McpManager calls (McpConnection has private state)
      return stub as unknown as McpConnection;
    };
    const mgr = new McpManager({ createConnection: fake });
    cleanups.push(() => mgr.close());
    await mgr.sync(parsed().mcpServers);
    const json = JSON.stringify([mgr.states(), mgr.state("github"), mgr.state("remote")]);
    for (const s of ["ghp_literal_secret", "hunter2", "GITHUB_TOKEN", "Authorization"]) expect(json).not.toContain(s);
    expect(mgr.state("github")?.stderrTail).toEqual(["line"]);
  });
});
