import { defineConfig } from "prisma/config";

// generate never touches a database; the fallback keeps it working without DATABASE_URL.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://127.0.0.1:5432/tool_studio" },
});
