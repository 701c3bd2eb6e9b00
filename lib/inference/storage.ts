/**
 * Storage of the shape statistics: the rows of `shape_stats` (one per tool and kind), merged
 * and replaced under a row lock, and the runs table read back to recount them.
 *
 * Concurrency: a merge reduces a batch to one set of statistics per kind and merges that into
 * the row in a transaction holding the row with `SELECT ... FOR UPDATE` (after
 * `INSERT ... ON CONFLICT DO NOTHING` creates it), so concurrent merges — of this process or
 * another — serialize on the row and no sample is lost.
 *
 * Exactly once: each run carries `shape_counted`. A merge, holding the rows, sets it on the
 * batch's runs and merges only the runs it changed; a rebuild, holding the same rows, recounts
 * and sets it on exactly the runs it read. So a run is counted once whichever process captured
 * it, queued it or rebuilt its tool, and a run queued elsewhere during a rebuild is either in the
 * recount (its merge then finds it counted) or not (its merge counts it). Locks: the tool's
 * `shape_stats` rows first (in SHAPE_KINDS order), then runs, in every writer.
 */
import type { AuditAppend, AuditLog } from "../audit/log";
import { Prisma, type PrismaClient, type ShapeStats } from "../db/generated/client";
import { prismaSql } from "../db/sql";
import type { RunStatus } from "../runs/types";
import { EXECUTED, outputSample, samplesOf, sampleValue, SHAPE_KINDS, type Queued, type ShapeKind } from "./samples";
import { diffSignatures, parseChanges, signatureOf, type ShapeChange } from "./revisions";
import { deriveSchema } from "./schema";
import { addSample, cloneStats, emptyStats, mergeInto, parseStats, statsOf, type ShapeStatsData } from "./stats";

/** A revision of a tool's observed output shape (a row of `shape_revisions`). */
export interface ShapeRevisionInfo {
  toolName: string;
  kind: ShapeKind;
  revision: number;
  runId: string | null;
  samples: number;
  changes: ShapeChange[];
  createdAt: string;
}

/** The kinds whose drift is recorded. */
const REVISED: readonly ShapeKind[] = ["output"];

const REBUILD_PAGE = 500;

/** The audit chain a new revision is written to: its entry commits with the revision, in the merge's transaction. */
export interface ShapeAudit {
  chain: Pick<AuditLog, "appendIn">;
  entryOf(revision: ShapeRevisionInfo): AuditAppend;
}

export class ShapeStatsStorage {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly audit?: ShapeAudit,
  ) {}

  /**
   * Merges one batch into the rows: `created` when a row had to be created, and the revisions the
   * batch made (see the module comment).
   */
  async merge(tool: string, batch: Queued[]): Promise<{ created: boolean; revisions: ShapeRevisionInfo[] }> {
    const kinds = SHAPE_KINDS.filter((kind) => batch.some((q) => q.kind === kind));
    return this.prisma.$transaction(
      async (tx) => {
        let created = false;
        const revisions: ShapeRevisionInfo[] = [];
        // Rows are always locked in the order of SHAPE_KINDS, so two writers cannot deadlock.
        const held = new Map<ShapeKind, unknown>();
        for (const kind of kinds) {
          const { count } = await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
          if (count) created = true;
          const [row] = await tx.$queryRaw<{ stats: unknown }[]>`
            SELECT stats FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
          held.set(kind, row?.stats);
        }
        // Only the runs no merge or rebuild has counted yet (see the module comment).
        const fresh = await markCounted(tx, [...new Set(batch.map((q) => q.runId))]);
        const byKind = new Map<ShapeKind, { stats: ShapeStatsData; samples: { runId: string; value: unknown }[] }>();
        for (const kind of kinds) {
          const samples = batch
            .filter((q) => q.kind === kind && fresh.has(q.runId))
            .map((q) => ({ runId: q.runId, value: sampleValue(q) }))
            .filter((q) => q.value !== undefined);
          if (samples.length) byKind.set(kind, { stats: statsOf(samples.map((q) => q.value)), samples });
        }
        for (const [kind, { stats, samples }] of byKind) {
          const old = parseStats(held.get(kind));
          const revised = REVISED.includes(kind);
          const before = revised ? signatureOf(old) : null;
          const replay = revised ? cloneStats(old) : null;
          const merged = mergeInto(old, stats);
          await tx.shapeStats.update({
            where: { toolName_kind: { toolName: tool, kind } },
            data: { samples: merged.samples, stats: json(merged) },
          });
          if (!before || !replay) continue;
          const first = replay.samples === 0;
          const changes = diffSignatures(before, signatureOf(merged));
          if (!first && !changes.length) continue;
          // the run whose sample made the change: replay the batch on the statistics before it
          let runId = samples[0].runId;
          if (!first) {
            for (const q of samples) {
              addSample(replay, q.value);
              if (diffSignatures(before, signatureOf(replay)).length) {
                runId = q.runId;
                break;
              }
            }
          }
          revisions.push(await this.addRevision(tx, tool, kind, runId, merged, first ? [] : changes));
        }
        // Last, so the chain's lock is held only from here to the commit.
        if (revisions.length && this.audit)
          await this.audit.chain.appendIn(
            prismaSql(tx),
            revisions.map((r) => this.audit!.entryOf(r)),
          );
        return { created, revisions };
      },
      // READ COMMITTED (the database's default, said here): the chain's head is read after its lock is granted.
      { maxWait: 30_000, timeout: 60_000, isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted },
    );
  }

  private async addRevision(
    tx: Prisma.TransactionClient,
    tool: string,
    kind: ShapeKind,
    runId: string | null,
    stats: ShapeStatsData,
    changes: ShapeChange[],
  ): Promise<ShapeRevisionInfo> {
    const last = await tx.shapeRevision.findFirst({ where: { toolName: tool, kind }, orderBy: { revision: "desc" }, select: { revision: true } });
    const row = await tx.shapeRevision.create({
      data: {
        toolName: tool,
        kind,
        revision: (last?.revision ?? 0) + 1,
        runId,
        samples: stats.samples,
        schema: deriveSchema(stats) as Prisma.InputJsonValue,
        changes,
      },
    });
    return { toolName: tool, kind, revision: row.revision, runId, samples: row.samples, changes, createdAt: row.createdAt.toISOString() };
  }

  /** The revisions of a tool's shape, newest first (at most `limit`). */
  async revisions(tool: string, kind: ShapeKind = "output", limit = 50): Promise<(ShapeRevisionInfo & { schema: unknown })[]> {
    const rows = await this.prisma.shapeRevision.findMany({ where: { toolName: tool, kind }, orderBy: { revision: "desc" }, take: limit });
    return rows.map((r) => ({
      toolName: r.toolName,
      kind,
      revision: r.revision,
      runId: r.runId,
      samples: r.samples,
      changes: parseChanges(r.changes),
      createdAt: r.createdAt.toISOString(),
      schema: r.schema,
    }));
  }

  /** Tools whose output shape changed (a revision after the first) since `since`: name -> time of the latest change. */
  async changedSince(since: Date): Promise<Map<string, Date>> {
    const rows = await this.prisma.shapeRevision.groupBy({
      by: ["toolName"],
      where: { kind: "output", revision: { gt: 1 }, createdAt: { gte: since } },
      _max: { createdAt: true },
    });
    return new Map(rows.map((r) => [r.toolName, r._max.createdAt!]));
  }

  /**
   * Statistics of all the tool's executed runs in the runs table (oldest first, keyset-paged),
   * with the ids of the runs read, each marked counted as it is read (`db` is the rebuild's
   * transaction).
   */
  private async recount(db: Prisma.TransactionClient, tool: string): Promise<{ stats: Record<ShapeKind, ShapeStatsData>; seen: Set<string> }> {
    const stats: Record<ShapeKind, ShapeStatsData> = { output: emptyStats(), arguments: emptyStats() };
    const seen = new Set<string>();
    let after: { startedAt: Date; id: string } | null = null;
    for (;;) {
      const rows: { id: string; startedAt: Date; status: RunStatus; arguments: unknown; structuredContent: unknown; content: unknown }[] =
        await db.run.findMany({
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
      await markCounted(
        db,
        rows.map((r) => r.id),
      );
      if (rows.length < REBUILD_PAGE) break;
      const last = rows[rows.length - 1];
      after = { startedAt: last.startedAt, id: last.id };
    }
    return { stats, seen };
  }

  /**
   * Recounts the tool from the runs table and replaces its rows (every kind), in one transaction
   * holding the same row locks as `merge`: merges of the tool wait, and the runs read are marked
   * counted with it. Returns the statistics and the ids of the runs read.
   */
  async rebuild(tool: string): Promise<{ stats: Record<ShapeKind, ShapeStatsData>; seen: Set<string> }> {
    return this.prisma.$transaction(
      async (tx) => {
        for (const kind of SHAPE_KINDS) {
          await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
          await tx.$queryRaw`SELECT 1 FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
        }
        const counted = await this.recount(tx, tool);
        const { stats } = counted;
        for (const kind of SHAPE_KINDS) {
          await tx.shapeStats.update({
            where: { toolName_kind: { toolName: tool, kind } },
            data: { samples: stats[kind].samples, stats: json(stats[kind]) },
          });
          if (REVISED.includes(kind) && stats[kind].samples && !(await tx.shapeRevision.count({ where: { toolName: tool, kind } }))) {
            await this.addRevision(tx, tool, kind, null, stats[kind], []);
          }
        }
        return counted;
      },
      // A long history is read in this transaction: give it time (merges of the tool wait for it).
      { maxWait: 30_000, timeout: 300_000 },
    );
  }

  /**
   * Executed runs nobody has counted (their samples were queued in a process that died before
   * writing them): started since `since`, finished before `before`, oldest first, at most `limit`.
   */
  async uncounted(since: Date, before: Date, limit: number): Promise<{ tool: string; samples: Queued[] }[]> {
    const rows = await this.prisma.run.findMany({
      where: { startedAt: { gte: since }, finishedAt: { lt: before }, shapeCounted: false, status: { in: EXECUTED } },
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      take: limit,
      select: { id: true, toolName: true, status: true, arguments: true, structuredContent: true, content: true },
    });
    return rows.map((r) => ({
      tool: r.toolName,
      samples: samplesOf({ id: r.id, status: r.status, arguments: r.arguments, output: { content: r.content, structuredContent: r.structuredContent } }),
    }));
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

/** Marks these runs counted; returns the ids that were not yet (the ones to count now). */
async function markCounted(db: Prisma.TransactionClient, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE runs SET shape_counted = true
    WHERE id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))}) AND NOT shape_counted
    RETURNING id::text AS id`;
  return new Set(rows.map((r) => r.id));
}

// ShapeStatsData is plain JSON by construction (type aliases, so the compiler sees that too).
const json = (s: ShapeStatsData): Prisma.InputJsonValue => s;
