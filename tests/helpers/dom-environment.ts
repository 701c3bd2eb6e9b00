// The test environment of component tests: happy-dom's DOM for React and Testing Library, with
// Node's own fetch classes kept. The studio under test runs in the same process (routeFetch), and
// its route handlers need Node's Request: happy-dom's, as a browser's, drops the Host header.
import { builtinEnvironments, type Environment } from "vitest/runtime";

const NODE_KEPT = [
  "fetch",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "AbortController",
  "AbortSignal",
  "Blob",
  "File",
  "ReadableStream",
  "TextEncoder",
  "TextDecoder",
];

export default {
  name: "studio-dom",
  viteEnvironment: "client",
  async setup(global: Record<string, unknown>, options) {
    const kept = NODE_KEPT.map((k) => [k, global[k]] as const);
    const env = await builtinEnvironments["happy-dom"].setup(global, options);
    for (const [k, v] of kept) if (v !== undefined) global[k] = v;
    return env;
  },
} satisfies Environment;
