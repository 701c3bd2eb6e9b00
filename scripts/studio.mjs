#!/usr/bin/env node
// Installs nothing; builds the app when the build is missing or older than the sources,
// applies migrations, then serves the studio (127.0.0.1:3000 unless STUDIO_HOST / PORT say otherwise).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const args = new Set(process.argv.slice(2));
const host = process.env.STUDIO_HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
const bin = (name) => path.join(root, "node_modules", ".bin", name);
// PORT and STUDIO_HOST go to the server too: the first-admin link and sign-in URLs are built from them.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: port, STUDIO_HOST: host };

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "generated" || entry.name.startsWith(".")) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsStale() {
  const stamp = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(stamp) || !existsSync(path.join(root, ".next", "studio", "fast-routes.mjs"))) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = ["app", "components", "lib", "public", "prisma"].map((d) => newestMtime(path.join(root, d)));
  const files = ["next.config.mjs", "package.json", "postcss.config.mjs", "proxy.ts", "instrumentation.ts", "scripts/fast-routes.ts"].map((f) =>
    existsSync(path.join(root, f)) ? statSync(path.join(root, f)).mtimeMs : 0,
  );
  return Math.max(...sources, ...files) > built;
}

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// Off loopback anyone on the network reaches the studio: the names it answers to must be stated.
const loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host.toLowerCase());
if (!loopback && !process.env.STUDIO_PUBLIC_URL && !process.env.STUDIO_ALLOWED_HOSTS) {
  console.error(`Refusing to listen on ${host} without STUDIO_PUBLIC_URL or STUDIO_ALLOWED_HOSTS: set the URL or host names people use to reach the studio.`);
  process.exit(1);
}
if (!existsSync(path.join(root, "node_modules"))) {
  console.error("Dependencies are missing: run `npm install` first.");
  process.exit(1);
}
if (!args.has("--no-build") && buildIsStale()) {
  console.log("Building the studio…");
  run(bin("next"), ["build"]);
  run(process.execPath, [path.join(root, "scripts", "build-fast-routes.mjs")]);
}
// The test script builds first, outside Playwright's server start timeout.
if (args.has("--build-only")) process.exit(0);
if (args.has("--no-build") && !existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.error("There is no build to serve: run `npm run build` first, or `npm run studio`, which builds when needed.");
  process.exit(1);
}
// react-server: the server modules carry the "server-only" marker (see lib/db/client.ts).
run(bin("tsx"), ["--conditions=react-server", "scripts/migrate.ts"]);
const where = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${process.env.STUDIO_DATA_DIR || "./data/pglite"}`;
console.log(`Tool Studio on http://${host === "0.0.0.0" ? "localhost" : host}:${port} — database: ${where}`);
// scripts/server.mjs: Next with the hot routes handed to their handlers directly (see there).
const child = spawn(process.execPath, [path.join(root, "scripts", "server.mjs")], { cwd: root, stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
