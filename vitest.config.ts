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
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 30000,
    hookTimeout: 30000,
    pool: "forks",
    // lib/ is the core: its coverage is reported by `npm test` (text summary, and coverage/ for detail).
    coverage: {
      provider: "v8",
      include: ["lib/**/*.ts"],
      exclude: ["lib/**/*.test.ts", "lib/db/generated/**"],
      reporter: ["text-summary", "json-summary"],
      reportsDirectory: "coverage",
      // Per folder, what the suite met when the floor was set, less 1 point for timing-dependent
      // paths. Raise a floor when you raise its coverage; never lower one.
      thresholds: {
        "lib/audit/**": { lines: 96, functions: 93 },
        "lib/auth/**": { lines: 90, functions: 88 },
        "lib/builtin-tools/**": { lines: 96, functions: 96 },
        "lib/config/**": { lines: 94, functions: 97 },
        "lib/db/**": { lines: 94, functions: 83 },
        "lib/domains/**": { lines: 99, functions: 97 },
        "lib/execution/**": { lines: 86, functions: 99 },
        "lib/forms/**": { lines: 99, functions: 99 },
        "lib/http/**": { lines: 96, functions: 93 },
        "lib/inference/**": { lines: 94, functions: 91 },
        "lib/jsonata/**": { lines: 96, functions: 99 },
        "lib/mcp/**": { lines: 91, functions: 88 },
        "lib/mcp-server/**": { lines: 91, functions: 83 },
        "lib/outbox/**": { lines: 74, functions: 79 },
        "lib/registry/**": { lines: 99, functions: 99 },
        "lib/runs/**": { lines: 88, functions: 91 },
        "lib/runtime-tools/**": { lines: 76, functions: 99 },
        "lib/schema/**": { lines: 95, functions: 99 },
        "lib/servers/**": { lines: 99, functions: 99 },
        "lib/studio/**": { lines: 51, functions: 54 },
        "lib/tools/**": { lines: 92, functions: 93 },
        "lib/triggers/**": { lines: 99, functions: 99 },
      },
    },
  },
});
