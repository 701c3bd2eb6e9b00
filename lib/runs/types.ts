import type { ContentBlock } from "../tools/output";
import type { ErrorKind, FieldError } from "../tools/errors";

export const RUN_STATUSES = ["queued", "running", "success", "error", "rejected", "timeout", "cancelled", "interrupted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_ORIGINS = ["ui", "api", "mcp"] as const;
export type RunOrigin = (typeof RUN_ORIGINS)[number];

/** A captured run as the API and the UI see it. The operator-only error detail is not part of it. */
export interface Run {
  id: string;
  tool: string;
  source: string;
  specHash: string;
  status: RunStatus;
  arguments: unknown;
  /** `_meta`: the tool's own result metadata, on the run this process just ran only (never stored). */
  output: { content: ContentBlock[]; structuredContent?: unknown; _meta?: Record<string, unknown> } | null;
  /** Did structuredContent match the outputSchema? null when there was nothing to check. */
  outputValid: boolean | null;
  outputErrors: FieldError[] | null;
  error: { kind: ErrorKind; message: string; details?: FieldError[] } | null;
  timeoutMs: number | null;
  durationMs: number | null;
  startedAt: string;
  finishedAt: string | null;
  origin: RunOrigin;
  actor: string;
  /** The signed-in user who made the call (null for the admin token and older runs). */
  actorId: string | null;
  /** The API token the call came with, if any. */
  tokenId: string | null;
  /** The agent the call was made for, when the tool's option domains needed one. */
  agent: string | null;
  clientName: string | null;
  replayOf: string | null;
  /** Runs sent to the job queue: when asked for (`startedAt` is when a worker began it) and their priority. */
  queuedAt?: string;
  priority?: number;
  /** A retry made by the queue policy: the failed run it repeats, and which attempt it is (2, 3...). */
  retryOf?: string;
  attempt?: number;
  /** The last progress the tool reported, whichever instance runs it. */
  progress?: { progress: number; total?: number; message?: string };
  /** The caller's Idempotency-Key, when the call came with one: a retry with it gets this run. */
  idempotencyKey?: string;
  /**
   * `pending`: the tool ran and this is its outcome, but the database was unreachable when it
   * was to be stored; the studio keeps trying, and GET /api/runs/{id} shows it once stored.
   * Absent on every stored run.
   */
  capture?: "pending";
  /** This answer is the run an Idempotency-Key already named (nothing ran for this request); never stored. */
  idempotentReplay?: true;
}
