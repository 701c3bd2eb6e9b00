/** @type {import('next').NextConfig} */
const nextConfig = {
  // Next loads every route's module in the background right after it starts (about 2 s of
  // synchronous work here): the requests a just-started instance is already answering stall
  // behind it, past their database timeouts. Each route loads on its first request instead.
  experimental: { authInterrupts: true, preloadEntriesOnStart: false },
  // PGlite must load its wasm and data files from node_modules at run time, not from a bundle.
  // The MCP SDK too: the production server's own router (scripts/server.mjs) loads it from there,
  // and its error classes must be one class each in the process, whichever router served a request.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "pg-boss",
    "json-schema-to-typescript",
    "json-schema-to-zod",
    "@modelcontextprotocol/client",
    "@modelcontextprotocol/server",
  ],
  allowedDevOrigins: ["127.0.0.1"],
  // RJSF imports markdown-to-jsx in every form (a sixth of the tool page's script) for messages
  // with a little inline Markdown: a small renderer of that subset stands in for it, on the server
  // too, so both render the same.
  turbopack: { resolveAlias: { "markdown-to-jsx/react": "./components/workbench/rjsf-markdown.tsx" } },
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};
export default nextConfig;
