// The request of a run and what every verb of execution is given: the call, its caller, what
// the checks need and the caller's live channel, each a small named part, so a verb takes only
// the parts it uses (a queued run carries no live channel).
import type { Prisma } from "../db/generated/client";
import type { Registry } from "../registry/registry";
import type { InFinalTransaction, RunStore } from "../runs/store";
import type { Run, RunOrigin } from "../runs/types";
import type { LogLevel, LogMessage, ProgressUpdate, RegisteredTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import type { ToolSpec } from "../tools/spec";
import type { InputEvent, InputRelay } from "./pending-input";
import type { DomainService } from "../domains/service";
import type { FieldError } from "../tools/errors";
import type { Role } from "../auth/roles";
import type { QueueRuleConfig, RunPolicyRuleConfig } from "../config/schema";
import type { ConcurrencyLimit } from "../queue/policy";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 10 * 60_000;

/** What is called. */
export interface RunCall {
  tool: string;
  arguments: unknown;
  timeoutMs?: number;
  /** The agent the call is for: option domains are checked for it (default agent when unset). */
  agent?: string;
  replayOf?: string;
  /** The caller's Idempotency-Key: a call with a key this actor already used gets that run back (lib/execution/idempotency.ts). */
  idempotencyKey?: string;
}

/** Who calls, as the server established it (lib/auth): what runs and audit entries name. */
export interface RunCaller {
  origin: RunOrigin;
  actor: string;
  actorId?: string | null;
  tokenId?: string | null;
  /** The caller's role: when set, the run policy is applied (refused runs are captured as rejected). */
  role?: Role;
  clientName?: string;
}

/** What the checks need besides the call (./checks.ts). */
export interface RunChecks {
  /** The caller confirmed a destructive tool; without it, `requireConfirmation` refuses such tools. */
  confirmed?: boolean;
  /** Destructive tools need `confirmed` (the HTTP API, the UI, and /api/mcp through elicitation). */
  requireConfirmation?: boolean;
  /** How this caller confirms, or why it could not, for the refusal's message (default: send `"confirm": true`). */
  confirmHow?: string;
  /**
   * The arguments as sent could not be stored (U+0000, invalid Unicode, past the limits): the
   * run is rejected at once, its arguments (already made storable by the caller) kept as a record.
   * Unset: the arguments were not inspected, and are here (an MCP client's tools/call); `[]`: the
   * caller inspected them (lib/http/input.ts) and found nothing.
   */
  inputProblems?: FieldError[];
}

/** The caller's live channel while a run runs now in this process; never carried to a worker. */
export interface RunLive {
  /** Aborts the run as cancelled (e.g. the caller went away). */
  signal?: AbortSignal;
  onStart?(runId: string): void;
  onProgress?(update: ProgressUpdate): void;
  /** A server asked the caller for input during the run (elicitation, sampling), or such a request ended. */
  onInput?(event: InputEvent): void;
  /**
   * The caller takes the log messages a server sends during the run, from `level` up (an MCP
   * client of /api/mcp). Not stored with the run; not carried to a worker (delegated runs).
   */
  logs?: { level: LogLevel; send(message: LogMessage): void };
  /**
   * The MCP client calling through /api/mcp declared elicitation and/or sampling: its servers'
   * requests of those kinds are relayed to it (the run waits as for a person). Without it, an
   * MCP client's servers are refused at once.
   */
  relay?: InputRelay;
}

/** A call as every verb is given it before its tool runs (prepare, enqueue). */
export type CallRequest = RunCall & RunCaller & RunChecks;

/** A call to run now: what prepare needs, and the caller's live channel. */
export type ExecuteRequest = CallRequest & RunLive;

/** Told about every captured run, once it is final (inference, audit). */
export interface RunObserver {
  name: string;
  onRunCaptured(run: Run, tool: ToolSpec): Promise<void> | void;
}

export interface ExecuteDeps {
  registry: Registry;
  runs: RunStore;
  /** Called in order after each run is captured; a failing observer is logged, the run stands. */
  observers?: RunObserver[];
  /** Re-checks option-domain values against the live config; without it they are not checked. */
  domains?: DomainService;
  /** The config's run policy rules, read at each call. */
  runPolicy?: () => readonly RunPolicyRuleConfig[];
  /** Resolves once the tool sources that connect (MCP servers) have connected or failed: a worker that just started waits for them before calling a queued run's tool unknown. */
  sourcesSettled?: () => Promise<void>;
  /** Tools this process cannot call itself (MCP servers held by the workers): their runs are queued for a worker and waited for. */
  delegate?: RunDelegate;
}

/** Where a run goes when its tool is held by another process (lib/execution/delegate.ts). */
export interface RunDelegate {
  wanted(tool: RegisteredTool): boolean;
  queue: RunQueueSender;
  wait(runId: string, opts: { signal?: AbortSignal; onProgress?(update: ProgressUpdate): void; startWithinMs: number }): Promise<Run>;
}

/** Thrown for a tool name the registry does not know: nothing ran, nothing is captured. */
export class UnknownToolError extends ToolError {
  static override readonly tag: string = "UnknownToolError";
  constructor(name: string) {
    super("not_found", `No tool named "${name}" is registered.`);
  }
}

export const isUnknownToolError = (err: unknown): err is UnknownToolError => UnknownToolError.isInstance(err);

/** Where queued runs go: the job is written in the transaction that writes the run's row. */
export interface RunQueueSender {
  /** `waited`: a caller waits for this run (no retries). */
  send(tx: Prisma.TransactionClient, runId: string, priority: number, opts?: { startAfter?: Date; waited?: boolean }): Promise<void>;
}

/** What the job queue needs besides a run's deps: where retries go, and the config's queue policy read at each use. */
export interface QueueDeps {
  queue: RunQueueSender;
  queuePolicy?: () => readonly QueueRuleConfig[];
  /** Written in each queued run's final transaction (PostgreSQL: the NOTIFY a waiting instance hears). */
  onQueuedFinal?: (runId: string) => InFinalTransaction;
}

/** What a worker made of a job: the run it ran, a limit that holds it back, or nothing to do. */
export type QueuedRunResult = { run: Run } | { held: ConcurrencyLimit; running: number } | null;
