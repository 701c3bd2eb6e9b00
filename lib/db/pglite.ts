// The embedded database with the extensions the migrations use (pg_trgm: the history's trigram
// search index). Every PGlite the project opens — the studio's, the schema diff's shadow
// databases, tests — comes from here, so `CREATE EXTENSION pg_trgm` works on each.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export const pgliteExtensions = { pg_trgm };

/** A PGlite database (in memory without a data dir) that can load the project's extensions. */
export function openPGlite(dataDir?: string): PGlite {
  // (PGlite(undefined, options) drops the options: pass them alone for an in-memory database.)
  return dataDir === undefined ? new PGlite({ extensions: pgliteExtensions }) : new PGlite(dataDir, { extensions: pgliteExtensions });
}
