/**
 * Queries: the shapes of a tool as the API reads them. Schemas are derived from the stored
 * statistics on read, and compared with the tool's declared schemas when it has them.
 */
import type { PrismaClient, ShapeStats } from "../db/generated/client";
import { isFieldErrors } from "../tools/errors";
import type { JsonSchema } from "../tools/spec";
import { compareWithDeclared, type Difference } from "./compare";
import type { ShapeKind } from "./samples";
import type { ShapeRevisionInfo } from "./storage";
import { deriveSchema, describeFields, describeTruncations, type FieldSummary, type TruncationSummary } from "./schema";
import { parseStats } from "./stats";

export interface InferredPart {
  schema: JsonSchema;
  samples: number;
  fields: FieldSummary[];
  updatedAt: string;
  /** Where a limit was hit (keys folded, paths not tracked, too deep); empty when none was. */
  truncated: TruncationSummary[];
  /** Arguments only, when the caller passed the tool's inputSchema: observed vs declared. */
  differences?: Difference[];
}

export interface OutputViolation {
  id: string;
  startedAt: string;
  outputErrors: { path: string; message: string }[];
}

export interface InferredShapes {
  output: InferredPart | null;
  arguments: InferredPart | null;
  /** Only for a tool that declares an outputSchema (pass it to `get`). */
  declared?: JsonSchema;
  /** Where the observed output and the declared outputSchema differ. */
  differences?: Difference[];
  /** Recent runs whose structured content did not match the outputSchema, newest first. */
  violations?: OutputViolation[];
  /** How the observed output shape changed, newest first (see lib/inference/revisions.ts). */
  revisions?: ShapeRevisionInfo[];
}

/** A stored row of `shape_stats`, as far as reading shapes needs it. */
export type StatsRow = Pick<ShapeStats, "kind" | "samples" | "stats" | "updatedAt">;

/**
 * The inferred shapes in a tool's stored rows. With the tool's declared schemas, also compares:
 * `declared` and `differences` for an outputSchema (`violations` are the caller's to add),
 * `arguments.differences` for the inputSchema.
 */
export function shapesOf(rows: StatsRow[], declared: { outputSchema?: JsonSchema; inputSchema?: JsonSchema }): InferredShapes {
  const part = (kind: ShapeKind, against?: JsonSchema): InferredPart | null => {
    const row = rows.find((r) => r.kind === kind);
    if (!row || row.samples === 0) return null;
    const stats = parseStats(row.stats);
    return {
      schema: deriveSchema(stats),
      samples: stats.samples,
      fields: describeFields(stats),
      truncated: describeTruncations(stats),
      updatedAt: row.updatedAt.toISOString(),
      ...(against ? { differences: compareWithDeclared(against, stats) } : {}),
    };
  };
  const result: InferredShapes = { output: part("output"), arguments: part("arguments", declared.inputSchema) };
  if (declared.outputSchema) {
    const row = rows.find((r) => r.kind === "output");
    result.declared = declared.outputSchema;
    result.differences = row && row.samples ? compareWithDeclared(declared.outputSchema, parseStats(row.stats)) : [];
  }
  return result;
}

/** Recent runs whose structured content did not match the declared outputSchema, newest first. */
export async function recentViolations(prisma: PrismaClient, tool: string, limit: number): Promise<OutputViolation[]> {
  const rows = await prisma.run.findMany({
    where: { toolName: tool, outputValid: false },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, startedAt: true, outputErrors: true },
  });
  return rows.map((r) => ({
    id: r.id,
    startedAt: r.startedAt.toISOString(),
    outputErrors: isFieldErrors(r.outputErrors) ? r.outputErrors : [],
  }));
}
