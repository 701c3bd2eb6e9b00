/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite must load its wasm and data files from node_modules at run time, not from a bundle.
  experimental: { authInterrupts: true },
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "pg-boss", "json-schema-to-typescript", "json-schema-to-zod"],
  allowedDevOrigins: ["127.0.0.1"],
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
