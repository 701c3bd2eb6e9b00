// npm run db:migrate: applies prisma/migrations to DATABASE_URL, or to the PGlite data dir
// (STUDIO_DATA_DIR, default ./data/pglite) when DATABASE_URL is unset.
import { createPrisma } from "../lib/db/client";

const db = await createPrisma();
try {
  const where = db.kind === "pg" ? "PostgreSQL (DATABASE_URL)" : `PGlite (${process.env.STUDIO_DATA_DIR ?? "./data/pglite"})`;
  const { applied, alreadyApplied } = await db.migrate({ log: (m) => console.log(m) });
  console.log(
    applied.length
      ? `${where}: applied ${applied.length} migration(s), ${alreadyApplied.length} already applied.`
      : `${where}: up to date (${alreadyApplied.length} migration(s) already applied).`,
  );
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  await db.close();
}
