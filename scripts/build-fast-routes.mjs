// Bundles scripts/fast-routes.ts (the hot routes' handlers, see lib/http/fast-path.ts) for the
// production server, after `next build`: our own code in one ES module, every package loaded from
// node_modules as Node resolves it, so the SDK, Prisma and the rest are the copies Next's routes
// load too (next.config.mjs lists them in serverExternalPackages where that matters).
import path from "node:path";
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const FAST_ROUTES_BUNDLE = path.join(root, ".next", "studio", "fast-routes.mjs");

await build({
  entryPoints: [path.join(root, "scripts", "fast-routes.ts")],
  outfile: FAST_ROUTES_BUNDLE,
  tsconfig: path.join(root, "tsconfig.json"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [
    {
      // Packages stay in node_modules. A deep import Node's ES loader cannot resolve by itself (a
      // CommonJS package without an exports map, e.g. `ajv/dist/2019`) is written as its file.
      name: "node-modules",
      setup(b) {
        const requireFromRoot = createRequire(path.join(root, "package.json"));
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith("@/") || args.path === "server-only") return undefined;
          if (args.path.startsWith("node:")) return { path: args.path, external: true };
          let resolved = null;
          try {
            resolved = fileURLToPath(import.meta.resolve(args.path));
          } catch {
            // not resolvable as an ES import: its file is
          }
          if (resolved && existsSync(resolved) && statSync(resolved).isFile()) return { path: args.path, external: true };
          // Relative to the bundle, so a build moved with its checkout still finds it.
          const file = path.relative(path.dirname(FAST_ROUTES_BUNDLE), requireFromRoot.resolve(args.path));
          return { path: file.startsWith(".") ? file : `./${file}`, external: true };
        });
      },
    },
    {
      // The marker that keeps server modules out of client bundles (lib/db/client.ts): under Next's
      // react-server condition it is an empty module, and this bundle is server code only.
      name: "server-only",
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "server-only" }));
        b.onLoad({ filter: /.*/, namespace: "server-only" }, () => ({ contents: "", loader: "js" }));
      },
    },
  ],
});
