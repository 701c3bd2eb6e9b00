import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.dirname(fileURLToPath(import.meta.url)),
      // The "server-only" marker throws outside React's server build; tests run server code as such.
      "server-only": path.join(path.dirname(fileURLToPath(import.meta.url)), "node_modules/server-only/empty.js"),
    },
  },
  test: {
    // Two projects on one config: the core and the server in Node; the components in a DOM (happy-dom,
    // with Node's fetch classes: the studio they call runs in the same process, tests/helpers/route-fetch.ts).
    projects: [
      { extends: true, test: { name: "node", include: ["lib/**/*.test.ts", "tests/**/*.test.ts"], environment: "node" } },
      { extends: true, test: { name: "components", include: ["components/**/*.test.tsx"], environment: "./tests/helpers/dom-environment.ts" } },
    ],
    testTimeout: 30000,
    hookTimeout: 30000,
    pool: "forks",
    // lib/ and components/: their coverage is reported by `npm test` (text summary, and coverage/ for detail).
    coverage: {
      provider: "v8",
      include: ["lib/**/*.ts", "components/**/*.{ts,tsx}"],
      exclude: ["lib/**/*.test.ts", "components/**/*.test.tsx", "lib/db/generated/**"],
      reporter: ["text-summary", "json-summary"],
      reportsDirectory: "coverage",
      // Per folder, what the suite met when the floor was set, less one point (and, for functions,
      // one function where that is more): a few paths depend on timing. Raise a floor when you
      // raise its coverage; never lower one.
      thresholds: {
        "lib/audit/**": { lines: 96, functions: 92 },
        "lib/auth/**": { lines: 90, functions: 88 },
        "lib/builtin-tools/**": { lines: 96, functions: 96 },
        "lib/config/**": { lines: 94, functions: 97 },
        "lib/db/**": { lines: 94, functions: 83 },
        "lib/domains/**": { lines: 99, functions: 96 },
        "lib/execution/**": { lines: 88, functions: 92 },
        "lib/forms/**": { lines: 99, functions: 80 },
        "lib/http/**": { lines: 97, functions: 96 },
        "lib/inference/**": { lines: 94, functions: 91 },
        "lib/jsonata/**": { lines: 96, functions: 90 },
        "lib/mcp/**": { lines: 91, functions: 88 },
        "lib/mcp-server/**": { lines: 91, functions: 82 },
        "lib/model-view/**": { lines: 91, functions: 91 },
        "lib/outbox/**": { lines: 74, functions: 60 },
        "lib/queue/**": { lines: 95, functions: 85 },
        "lib/registry/**": { lines: 99, functions: 85 },
        "lib/runs/**": { lines: 89, functions: 90 },
        "lib/runtime-tools/**": { lines: 76, functions: 80 },
        "lib/schema/**": { lines: 98, functions: 97 },
        "lib/servers/**": { lines: 99, functions: 88 },
        "lib/studio/**": { lines: 51, functions: 51 },
        "lib/tools/**": { lines: 92, functions: 88 },
        "lib/triggers/**": { lines: 99, functions: 92 },
        "lib/url/**": { lines: 100, functions: 100 },
        // The components with state machines are tested against an in-process studio (components/**/*.test.tsx).
        "components/**": { lines: 38, functions: 30 },
        "components/auth/**": { lines: 57, functions: 56 },
        "components/runs/**": { lines: 32, functions: 39 },
        "components/servers/**": { lines: 21, functions: 18 },
        "components/settings/**": { lines: 63, functions: 28 },
        "components/tools/**": { lines: 45, functions: 43 },
        "components/triggers/**": { lines: 86, functions: 78 },
        "components/ui/**": { lines: 40, functions: 41 },
        "components/workbench/**": { lines: 34, functions: 21 },
      },
    },
  },
});
