/**
 * Storage of the shape statistics: the rows of `shape_stats` (one per tool and kind), merged
 * and replaced under a row lock, and the runs table read back to recount them.
 *
 * Concurrency: a merge reduces a batch to one set of statistics per kind and merges that into
 * the row in a transaction holding the row with `SELECT ... FOR UPDATE` (after
 * `INSERT ... ON CONFLICT DO NOTHING` creates it), so concurrent merges — of this process or
 * another — serialize on the row and no sample is lost or counted twice.
 */
import type { Prisma, PrismaClient, ShapeStats } from "../db/generated/client";
import type { RunStatus } from "../runs/types";
import { EXECUTED, outputSample, sampleValue, SHAPE_KINDS, type Queued, type ShapeKind } from "./samples";
import { addSample, emptyStats, mergeInto, parseStats, statsOf, type ShapeStatsData } from "./stats";

const REBUILD_PAGE = 500;

export class ShapeStatsStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** Merges one batch into the rows; true when a row had to be created. */
  async merge(tool: string, batch: Queued[]): Promise<boolean> {
    const byKind = new Map<ShapeKind, ShapeStatsData>();
    for (const kind of SHAPE_KINDS) {
      const values = batch.filter((q) => q.kind === kind).map(sampleValue).filter((v) => v !== undefined);
      if (values.length) byKind.set(kind, statsOf(values));
    }
    return this.prisma.$transaction(
      async (tx) => {
        let created = false;
        // Rows are always locked in the order of SHAPE_KINDS, so two writers cannot deadlock.
        for (const [kind, stats] of byKind) {
          const { count } = await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
          if (count) created = true;
          const [row] = await tx.$queryRaw<{ stats: unknown }[]>`
            SELECT stats FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
          const merged = mergeInto(parseStats(row?.stats), stats);
          await tx.shapeStats.update({
            where: { toolName_kind: { toolName: tool, kind } },
            data: { samples: merged.samples, stats: json(merged) },
          });
        }
        return created;
      },
      { maxWait: 30_000, timeout: 60_000 },
    );
  }

  /**
   * Statistics of all the tool's executed runs in the runs table (oldest first, keyset-paged),
   * with the ids of the runs read.
   */
  async recount(tool: string): Promise<{ stats: Record<ShapeKind, ShapeStatsData>; seen: Set<string> }> {
    const stats: Record<ShapeKind, ShapeStatsData> = { output: emptyStats(), arguments: emptyStats() };
    const seen = new Set<string>();
    let after: { startedAt: Date; id: string } | null = null;
    for (;;) {
      const rows: { id: string; startedAt: Date; status: RunStatus; arguments: unknown; structuredContent: unknown; content: unknown }[] =
        await this.prisma.run.findMany({
          where: {
            toolName: tool,
            status: { in: EXECUTED },
            ...(after ? { OR: [{ startedAt: { gt: after.startedAt } }, { startedAt: after.startedAt, id: { gt: after.id } }] } : {}),
          },
          orderBy: [{ startedAt: "asc" }, { id: "asc" }],
          take: REBUILD_PAGE,
          select: { id: true, startedAt: true, status: true, arguments: true, structuredContent: true, content: true },
        });
      for (const r of rows) {
        seen.add(r.id);
        const o = outputSample(r.status, r.structuredContent, r.content);
        if (o !== undefined) addSample(stats.output, o);
        addSample(stats.arguments, r.arguments ?? {});
      }
      if (rows.length < REBUILD_PAGE) break;
      const last = rows[rows.length - 1];
      after = { startedAt: last.startedAt, id: last.id };
    }
    return { stats, seen };
  }

  /** Replaces the tool's rows (every kind) with `stats`, under the same row locks as `merge`. */
  async replace(tool: string, stats: Record<ShapeKind, ShapeStatsData>): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        for (const kind of SHAPE_KINDS) {
          await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
          await tx.$queryRaw`SELECT 1 FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
          await tx.shapeStats.update({
            where: { toolName_kind: { toolName: tool, kind } },
            data: { samples: stats[kind].samples, stats: json(stats[kind]) },
          });
        }
      },
      { maxWait: 30_000, timeout: 60_000 },
    );
  }

  /** Whether the tool has an executed run. */
  async hasRuns(tool: string): Promise<boolean> {
    const run = await this.prisma.run.findFirst({
      where: { toolName: tool, status: { in: EXECUTED } },
      select: { id: true },
    });
    return run !== null;
  }

  /** How many executed runs the tool has. */
  countRuns(tool: string): Promise<number> {
    return this.prisma.run.count({ where: { toolName: tool, status: { in: EXECUTED } } });
  }

  /** The stored rows of one tool (every kind it has). */
  rows(tool: string): Promise<ShapeStats[]> {
    return this.prisma.shapeStats.findMany({ where: { toolName: tool } });
  }

  /** The raw statistics of one tool and kind (null when none are stored). */
  async stats(tool: string, kind: ShapeKind): Promise<{ samples: number; stats: ShapeStatsData; updatedAt: Date } | null> {
    const row = await this.prisma.shapeStats.findUnique({ where: { toolName_kind: { toolName: tool, kind } } });
    return row ? { samples: row.samples, stats: parseStats(row.stats), updatedAt: row.updatedAt } : null;
  }
}

// ShapeStatsData is plain JSON by construction (type aliases, so the compiler sees that too).
const json = (s: ShapeStatsData): Prisma.InputJsonValue => s;
