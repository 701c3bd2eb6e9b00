/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite must load its wasm and data files from node_modules at run time, not from a bundle.
  experimental: { authInterrupts: true },
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "pg-boss", "json-schema-to-typescript", "json-schema-to-zod"],
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
