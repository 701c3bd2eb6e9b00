// npm run seed:runs -- [count]: adds synthetic runs to DATABASE_URL (or the PGlite data dir) for trying the history at scale.
import { createPrisma } from "../lib/db/client";
import { seedRuns } from "../bench/seed-runs";

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 1) {
  console.error("usage: npm run seed:runs -- <count>");
  process.exit(1);
}
const db = await createPrisma();
try {
  await db.migrate();
  const t = performance.now();
  await seedRuns(db.prisma, count, { log: (m) => console.log(m) });
  console.log(`${count} runs seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
} finally {
  await db.close();
}
