// The history's text search (`q`) at scale: the ids of the newest runs whose search text holds a
// term, in a time bounded whatever the number of runs and however common the term.
//
// Two plans answer "the newest N matches", and each is fast where the other is slow:
// - Walking the started_at index from the newest run and checking each row: fast when the term is
//   common (a page fills after a few thousand rows), a full scan when it is rare.
// - The trigram GIN index (runs_search_text_idx): finds rare terms in a few ms, but must fetch and
//   sort every match, so a common term costs a heap page per match. A term mixing a common word
//   and a rare one ("result 999983") is slow too: GIN intersects the long posting lists of the
//   common word's trigrams (tens of ms at a million runs), so the index is asked for the rarest
//   word only and the whole term is checked on the rows it returns.
// So: first check the newest SEARCH_WINDOW runs (one bounded index range scan), which also counts
// how often each word of the term occurs there. A page found there is the answer. Otherwise the
// counts say which plan is cheaper for the rest: a longer walk (the term is somewhat common) or
// the index on the rarest word (it is rare). Both are exact; only the time differs.
import { Prisma, type PrismaClient } from "../db/generated/client";
import { filterConditions, likePattern, type RunFilter } from "./query";

/** Runs checked first, newest first. */
export const SEARCH_WINDOW = 2000;
/** The longest walk of the started_at index a search makes before it asks the trigram index. */
const MAX_WALK = 200_000;
/** Measured at a million runs (bench/history.ts): checking a row in a walk, and fetching a GIN match. */
const WALK_US_PER_ROW = 0.75;
const GIN_US_PER_MATCH = 12;

interface Window {
  ids: string[] | null;
  scanned: number;
  words: number[];
  total: number;
}

/** The words pg_trgm makes trigrams of (runs of letters and digits), 3 characters or more. */
export function searchWords(q: string): string[] {
  return [
    ...new Set(
      q
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length >= 3),
    ),
  ];
}

function like(pattern: string): Prisma.Sql {
  return Prisma.sql`search_text LIKE lower(${pattern})`;
}

function where(parts: Prisma.Sql[]): Prisma.Sql {
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

/** The ids (newest first) of the first `want` runs matching f (with f.q set) after the cursor. */
export async function searchIds(
  prisma: PrismaClient,
  f: RunFilter & { q: string },
  cursor: { startedAt: Date; id: string } | undefined,
  want: number,
): Promise<string[]> {
  const others = filterConditions({ ...f, q: undefined }, cursor);
  const term = likePattern(f.q);
  const words = searchWords(f.q);

  const walk = async (rows: number, countWords: boolean): Promise<Window> => {
    const wordCounts =
      countWords && words.length
        ? Prisma.sql`ARRAY[${Prisma.join(words.map((w) => Prisma.sql`count(*) FILTER (WHERE ${like(likePattern(w))})::int`))}]`
        : Prisma.sql`'{}'::int[]`;
    const [r] = await prisma.$queryRaw<Window[]>`
      SELECT (array_agg(id::text ORDER BY started_at DESC, id DESC) FILTER (WHERE ${like(term)}))[1:${want}] AS ids,
             count(*)::int AS scanned, ${wordCounts} AS words,
             (SELECT reltuples FROM pg_class WHERE oid = 'runs'::regclass)::float8 AS total
      FROM (SELECT id, started_at, search_text FROM runs ${where(others)} ORDER BY started_at DESC, id DESC LIMIT ${rows}) AS newest`;
    return r!;
  };

  const first = await walk(SEARCH_WINDOW, true);
  const found = first.ids ?? [];
  // A full page, or every candidate checked: that is the answer.
  if (found.length >= want || first.scanned < SEARCH_WINDOW) return found;

  // The rarest word in the window (ties: the longest) is what the index is asked for.
  let best = -1;
  words.forEach((w, i) => {
    if (best < 0 || first.words[i]! < first.words[best]! || (first.words[i] === first.words[best] && w.length > words[best]!.length)) best = i;
  });
  const runs = Math.max(first.total, SEARCH_WINDOW);
  const ginMatches = best < 0 ? runs : (Math.max(first.words[best]!, 0.5) / SEARCH_WINDOW) * runs;
  const walkRows = found.length ? Math.ceil(((want * SEARCH_WINDOW) / found.length) * 1.5) : Infinity;
  if (walkRows <= MAX_WALK && walkRows * WALK_US_PER_ROW < ginMatches * GIN_US_PER_MATCH) {
    const longer = await walk(walkRows, false);
    if ((longer.ids ?? []).length >= want || longer.scanned < walkRows) return longer.ids ?? [];
  }

  // Ordered by an expression, so the planner cannot walk the started_at index: the trigram index it is.
  const index = best < 0 ? like(term) : like(likePattern(words[best]!));
  const recheck = best >= 0 && `%${words[best]}%` !== term.toLowerCase() ? [Prisma.sql`(search_text || '') LIKE lower(${term})`] : [];
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM runs ${where([...others, index, ...recheck])}
    ORDER BY started_at + interval '0 s' DESC, id DESC LIMIT ${want}`;
  return rows.map((r) => r.id);
}
