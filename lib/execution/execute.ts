import { randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/client";
import type { Registry } from "../registry/registry";
import { RunNotRunningError, unstoredRun, type ClaimedRun, type InFinalTransaction, type RunStore, type RunOutcome, type RunStart } from "../runs/store";
import type { Run, RunOrigin } from "../runs/types";
import type { LogLevel, LogMessage, ProgressUpdate, RegisteredTool } from "../tools/define";
import { ToolError, toToolError, type ErrorKind } from "../tools/errors";
import { specHash } from "../tools/hash";
import type { ContentBlock, ToolOutput } from "../tools/output";
import type { ToolSpec } from "../tools/spec";
import { describeFieldErrors, SchemaCompileError, validate } from "../schema/validate";
import { holdRun, trackRun } from "./active-runs";
import { isKeyTaken, priorRun } from "./idempotency";
import { openInput, type InputEvent, type InputRelay } from "./pending-input";
import { isDatabaseUnavailable } from "../db/faults";
import { inspectJson, storableCopy } from "../http/input";
import type { DomainService } from "../domains/service";
import type { FieldError } from "../tools/errors";
import { describeRule, needsConfirmation, requiredRunRole } from "../auth/policy";
import { roleAtLeast, type Role } from "../auth/roles";
import type { QueueRuleConfig, RunPolicyRuleConfig } from "../config/schema";
import { limitsFor, priorityFor, retryDelay, retryPolicyFor, type ConcurrencyLimit } from "../queue/policy";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 10 * 60_000;

export interface ExecuteRequest {
  tool: string;
  arguments: unknown;
  origin: RunOrigin;
  /** Who called, as the server established it (lib/auth): what runs and audit entries name. */
  actor: string;
  actorId?: string | null;
  tokenId?: string | null;
  /** The caller's role: when set, the run policy is applied (refused runs are captured as rejected). */
  role?: Role;
  /** The caller confirmed a destructive tool; without it, `requireConfirmation` refuses such tools. */
  confirmed?: boolean;
  /**
   * The arguments as sent could not be stored (U+0000, invalid Unicode, past the limits): the
   * run is rejected at once, its arguments (already made storable by the caller) kept as a record.
   * Unset: the arguments were not inspected, and are here (an MCP client's tools/call); `[]`: the
   * caller inspected them (lib/http/input.ts) and found nothing.
   */
  inputProblems?: FieldError[];
  /** Destructive tools need `confirmed` (the HTTP API, the UI, and /api/mcp through elicitation). */
  requireConfirmation?: boolean;
  /** How this caller confirms, or why it could not, for the refusal's message (default: send `"confirm": true`). */
  confirmHow?: string;
  clientName?: string;
  /** The agent the call is for: option domains are checked for it (default agent when unset). */
  agent?: string;
  timeoutMs?: number;
  replayOf?: string;
  /** The caller's Idempotency-Key: a call with a key this actor already used gets that run back (lib/execution/idempotency.ts). */
  idempotencyKey?: string;
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

/** A waiting caller's run goes before every queued one. */
const DELEGATED_PRIORITY = 100;

/** Thrown for a tool name the registry does not know: nothing ran, nothing is captured. */
export class UnknownToolError extends ToolError {
  static override readonly tag: string = "UnknownToolError";
  constructor(name: string) {
    super("not_found", `No tool named "${name}" is registered.`);
  }
}

export const isUnknownToolError = (err: unknown): err is UnknownToolError => UnknownToolError.isInstance(err);

/**
 * Validates, runs and captures one tool call. Every call that reaches a known tool is
 * captured, whatever its outcome; invalid arguments are captured as `rejected` without running.
 */
export async function executeTool(deps: ExecuteDeps, req: ExecuteRequest): Promise<Run> {
  const p = await prepare(deps, req);
  if ("run" in p) return p.run;
  const { tool, start, timeoutMs } = p;
  const delegate = deps.delegate;
  if (delegate?.wanted(tool)) {
    // The worker claims it, runs it under the same timeout and stores it; retries are not for a caller who waits.
    try {
      await deps.runs.enqueue(start, DELEGATED_PRIORITY, (tx) => delegate.queue.send(tx, start.id, DELEGATED_PRIORITY, { waited: true }));
    } catch (err) {
      return sameKeyRun(deps, req, start, err);
    }
    req.onStart?.(start.id);
    return delegate.wait(start.id, { signal: req.signal, onProgress: req.onProgress, startWithinMs: timeoutMs });
  }

  try {
    await deps.runs.start(start);
  } catch (err) {
    if (start.idempotencyKey && isKeyTaken(err)) return sameKeyRun(deps, req, start, err);
    // The insert may have committed with its answer lost (a frozen or dropped connection): close
    // the row once the database is back, so it is not left `running`. No row, nothing to close.
    if (isDatabaseUnavailable(err)) finishLater(deps.runs, start, notStarted()).catch(() => null); // it settles with the stored run or null, never rejects
    throw err;
  }
  req.onStart?.(start.id);
  const progress = storedProgress(deps.runs, start.id, req.onProgress);
  // A server's requests for input go to a caller who can answer them: a person through the UI or
  // the API, or the MCP client calling through /api/mcp when it declared the capability (relayed);
  // otherwise (an agent that cannot answer) they are refused at once.
  const askable = req.origin !== "mcp";
  const relay = askable ? undefined : req.relay;
  const outcome = await invoke(tool, start, timeoutMs, {
    signal: req.signal,
    onProgress: progress.report,
    onInput: req.onInput,
    askable,
    relay,
    logs: req.logs,
  }).finally(progress.stop);
  const run = await finishOrRecordFailure(deps.runs, start, outcome);
  // Observers read and write the database: an outcome not stored yet is told to them by nobody (its audit entry commits with it).
  return withResultMeta(run.capture ? run : await notify(deps, run, tool.spec), outcome);
}

/** The tool's result `_meta` (not stored) on the run handed back to this caller, when the stored output is this outcome's. */
function withResultMeta(run: Run, outcome: RunOutcome): Run {
  if (!outcome.resultMeta || !run.output || run.status !== outcome.status) return run;
  return { ...run, output: { ...run.output, _meta: outcome.resultMeta } };
}

/** How often a run's progress is written to its row, at most. */
export const PROGRESS_WRITE_MS = 250;

/**
 * Progress goes to the caller at once and to the run's row at most every PROGRESS_WRITE_MS (the
 * latest update is written at the end of each interval), so any instance can show it. A write
 * that fails is skipped: progress is advisory, the run goes on.
 */
function storedProgress(runs: RunStore, id: string, forward?: (p: ProgressUpdate) => void): { report(p: ProgressUpdate): void; stop(): void } {
  let last = 0;
  let pending: ProgressUpdate | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = (p: ProgressUpdate) => {
    last = Date.now();
    runs.saveProgress(id, p).catch((err: unknown) => console.warn(`[tool-studio] progress of run ${id} not stored: ${(err as Error).message}`.slice(0, 300)));
  };
  return {
    report(p) {
      forward?.(p);
      const wait = last + PROGRESS_WRITE_MS - Date.now();
      if (wait <= 0 && !timer) return write(p);
      pending = p;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          if (pending) write(pending);
          pending = null;
        },
        Math.max(wait, 0),
      );
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

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

/**
 * `"mode": "async"`: the same checks as a run here (a refused call is captured as `rejected` at
 * once), then the run is stored `queued` with its job, for a worker to run (runQueued).
 */
export async function enqueueTool(deps: ExecuteDeps & QueueDeps, req: ExecuteRequest & { priority?: number }): Promise<Run> {
  const p = await prepare(deps, req);
  if ("run" in p) return p.run;
  const tool = { name: p.start.toolName, source: p.start.toolSource };
  const priority = Math.trunc(req.priority ?? priorityFor(tool, deps.queuePolicy?.() ?? []));
  return deps.runs.enqueue(p.start, priority, (tx) => deps.queue.send(tx, p.start.id, priority)).catch((err: unknown) => sameKeyRun(deps, req, p.start, err));
}

/**
 * A start refused because another request with the same Idempotency-Key got there first (on any
 * instance): that request's run is the answer. Any other failure is passed on.
 */
async function sameKeyRun(deps: ExecuteDeps, req: ExecuteRequest, start: RunStart, err: unknown): Promise<Run> {
  if (!start.idempotencyKey || !isKeyTaken(err)) throw err;
  const prior = await priorRun(deps.runs, { actor: start.actor, key: start.idempotencyKey, tool: start.toolName, arguments: req.arguments ?? {} });
  if (!prior) throw err;
  return { ...prior, idempotentReplay: true };
}

/** What a worker made of a job: the run it ran, a limit that holds it back, or nothing to do. */
export type QueuedRunResult = { run: Run } | { held: ConcurrencyLimit; running: number } | null;

/**
 * A worker runs a queued run: it claims the row (queued -> running, leased to this process),
 * calls the tool as it is registered now, and stores the outcome as any run. Nothing to do when
 * the run is no longer queued (cancelled while it waited, or already taken); `held` when a
 * concurrency limit of the queue policy is full (the run stays queued). A failure the policy
 * retries queues the next attempt, as a new run, in the transaction that stores this one's end.
 */
export async function runQueued(
  deps: ExecuteDeps & Partial<QueueDeps>,
  runId: string,
  opts: { signal?: AbortSignal; retries?: boolean; stopping?: () => boolean } = {},
): Promise<QueuedRunResult> {
  const policy = deps.queuePolicy;
  const claimed = await deps.runs.claim(runId, policy && ((t) => limitsFor(t, policy())));
  if (!claimed) return null;
  if ("held" in claimed) return claimed;
  const { start } = claimed;
  let tool = await deps.registry.get(start.toolName);
  if (!tool && deps.sourcesSettled) {
    await deps.sourcesSettled();
    tool = await deps.registry.get(start.toolName);
  }
  if (!tool) {
    const e = new ToolError("not_found", `No tool named "${start.toolName}" is registered any more; the run was queued when it was.`);
    return {
      run: await finishOrRecordFailure(deps.runs, start, { status: "error", finishedAt: new Date(), error: errorOf(e) }, deps.onQueuedFinal?.(start.id)),
    };
  }
  const timeoutMs = start.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const progress = storedProgress(deps.runs, start.id);
  // The caller of a queued run reads its requests for input with GET /api/runs/{id}/input (on the instance running it).
  let outcome = await invoke(tool, start, timeoutMs, { signal: opts.signal, onProgress: progress.report, askable: start.origin !== "mcp" }).finally(
    progress.stop,
  );
  // The job's signal aborts when the worker stops and its drain time runs out: no one cancelled
  // the run, it was cut short, so it is stored as a run a dying process leaves (never retried).
  if (outcome.status === "cancelled" && opts.signal?.aborted && opts.stopping?.()) {
    outcome = {
      status: "interrupted",
      finishedAt: outcome.finishedAt,
      error: { kind: "other", message: "The worker stopped (its drain time ran out) before this run finished." },
    };
  }
  const also = both(opts.retries === false ? undefined : retryOf(deps, claimed, outcome), deps.onQueuedFinal?.(start.id));
  const run = await finishOrRecordFailure(deps.runs, start, outcome, also);
  return { run: run.capture ? run : await notify(deps, run, tool.spec) };
}

function both(a?: InFinalTransaction, b?: InFinalTransaction): InFinalTransaction | undefined {
  if (!a || !b) return a ?? b;
  return async (tx) => {
    await a(tx);
    await b(tx);
  };
}

/** The next attempt of a queued run that failed, when the queue policy retries it: queued to start after the policy's wait. */
function retryOf(deps: ExecuteDeps & Partial<QueueDeps>, claimed: ClaimedRun, outcome: RunOutcome): InFinalTransaction | undefined {
  const queue = deps.queue;
  if (!queue || (outcome.status !== "error" && outcome.status !== "timeout")) return undefined;
  const { start, attempt, priority } = claimed;
  const policy = retryPolicyFor({ name: start.toolName, source: start.toolSource }, deps.queuePolicy?.() ?? []);
  const delayMs = retryDelay(policy, attempt, outcome.error?.kind ?? (outcome.status === "timeout" ? "timeout" : undefined));
  if (delayMs === null) return undefined;
  return async (tx) => {
    const now = new Date();
    // The key names the first attempt (a client's retry gets that run and follows retries from it).
    const next: RunStart = { ...start, id: randomUUID(), startedAt: now, retryOf: start.id, attempt: attempt + 1, idempotencyKey: undefined };
    await deps.runs.enqueueIn(tx, next, priority, (t) => queue.send(t, next.id, priority, { startAfter: new Date(now.getTime() + delayMs) }));
  };
}

type Prepared = { run: Run } | { tool: RegisteredTool; start: RunStart; timeoutMs: number };

/** Finds the tool and applies every check; a refused call is captured as `rejected` here. */
async function prepare(deps: ExecuteDeps, req: ExecuteRequest): Promise<Prepared> {
  const tool = await deps.registry.get(req.tool);
  if (!tool) throw new UnknownToolError(req.tool);
  if (req.idempotencyKey) {
    const prior = await priorRun(deps.runs, { actor: req.actor, key: req.idempotencyKey, tool: tool.spec.name, arguments: req.arguments ?? {} });
    if (prior) return { run: { ...prior, idempotentReplay: true } };
  }

  const timeoutMs = Math.min(Math.max(req.timeoutMs ?? tool.spec.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1), MAX_TIMEOUT_MS);
  const input = inspected(req);
  const start: RunStart = {
    id: randomUUID(),
    toolName: tool.spec.name,
    toolSource: tool.spec.source.id,
    toolSpecHash: hashOfSpec(tool.spec),
    arguments: input.arguments,
    timeoutMs,
    startedAt: new Date(),
    actor: req.actor,
    actorId: req.actorId ?? null,
    tokenId: req.tokenId ?? null,
    agent: req.agent,
    origin: req.origin,
    clientName: req.clientName,
    replayOf: req.replayOf,
  };

  const rejection =
    checkInput(input.problems) ??
    checkPolicy(deps, req, tool.spec) ??
    checkConfirmation(req, tool.spec) ??
    checkArguments(tool, start.arguments) ??
    (await checkDomains(deps.domains, tool, start));
  if (rejection) {
    const run = await deps.runs.record(start, { status: "rejected", finishedAt: new Date(), error: errorOf(rejection) });
    return { run: await notify(deps, run, tool.spec) };
  }
  // Only a call that starts carries its key: a refused one ran nothing, and its retry is checked again.
  if (req.idempotencyKey) start.idempotencyKey = req.idempotencyKey;
  return { tool, start, timeoutMs };
}

// A spec object is never changed once listed (a changed tool is a new object), so its hash is
// computed once, not on every run (an MCP tool's schemas can be large).
const specHashes = new WeakMap<ToolSpec, string>();
function hashOfSpec(spec: ToolSpec): string {
  let h = specHashes.get(spec);
  if (h === undefined) {
    // Availability is the server's state, not part of the definition that was called.
    h = specHash({ ...spec, unavailable: undefined });
    specHashes.set(spec, h);
  }
  return h;
}

function notStarted(): RunOutcome {
  const e = new ToolError("other", "The database became unreachable as the run was starting; the tool was not called.");
  return { status: "interrupted", finishedAt: new Date(), error: errorOf(e), freeKey: true };
}

/** An output the database cannot take must not leave the run `running` forever. */
async function finishOrRecordFailure(runs: RunStore, start: RunStart, outcome: RunOutcome, also?: InFinalTransaction): Promise<Run> {
  try {
    return await runs.finish(start.id, start.startedAt, outcome, also, { start });
  } catch (err) {
    // Finished meanwhile by someone else (marked interrupted): that outcome stands.
    if (RunNotRunningError.isInstance(err)) {
      const stored = await runs.get(start.id);
      if (stored) return stored;
    }
    if (isDatabaseUnavailable(err)) return answerUnstored(runs, start, outcome, also);
    console.error(`[tool-studio] could not store the outcome of run ${start.id}`, err);
    const e = new ToolError("provider", "The tool's result could not be stored.", {
      detail: `${(err as Error).message}\n${safeStringify(outcome.structuredContent ?? outcome.content)}`,
    });
    const failed: RunOutcome = { status: "error", finishedAt: outcome.finishedAt, error: errorOf(e) };
    return runs.finish(start.id, start.startedAt, failed, also, { start }).catch((again: unknown) => {
      // The database went away meanwhile (e.g. a transaction that timed out): the tool still ran.
      if (isDatabaseUnavailable(again)) return answerUnstored(runs, start, outcome, also);
      throw again;
    });
  }
}

/**
 * The tool ran but its outcome could not be stored: its caller gets the outcome at once, never
 * "try again" (a retry would run it twice); it is written once the database is back. Not waited
 * for: holding every caller of an outage open for seconds more cost the faults test resets.
 */
function answerUnstored(runs: RunStore, start: RunStart, outcome: RunOutcome, also?: InFinalTransaction): Run {
  finishLater(runs, start, outcome, also, { start }).catch(() => null); // settles, never rejects
  return unstoredRun(start, outcome);
}

/** How long a live process keeps trying to store the outcome of a run while the database is away. */
export const FINISH_RETRY_MS = 30 * 60_000;

/**
 * Retries with backoff (0.5 s doubling to 10 s) so no run is left `running` by a live process.
 * An outcome the database refuses for another reason than being away is replaced, once, by an
 * error saying so (as finishOrRecordFailure does), and that is stored instead. `opts.start`: a
 * start row the database lost is written whole (RunStore.finish).
 */
function finishLater(runs: RunStore, start: RunStart, outcome: RunOutcome, also?: InFinalTransaction, opts: { start?: RunStart } = {}): Promise<Run | null> {
  const until = Date.now() + FINISH_RETRY_MS;
  let delay = 500;
  let pending = outcome;
  let settle!: (run: Run | null) => void;
  const settled = new Promise<Run | null>((r) => (settle = r));
  const held = holdRun(start.id);
  const release = (run: Run | null = null) => {
    held();
    settle(run);
  };
  const attempt = () => {
    runs.finish(start.id, start.startedAt, pending, also, opts).then(release, (err: unknown) => {
      // Already finished (the earlier attempt did commit) or never written (a start that failed): nothing left to do.
      if (RunNotRunningError.isInstance(err)) return release();
      if (Date.now() >= until) {
        release();
        console.error(
          `[tool-studio] gave up storing the outcome of run ${start.id} after ${FINISH_RETRY_MS / 60_000} min; once its lease ends it is marked interrupted`,
          err,
        );
        return;
      }
      if (!isDatabaseUnavailable(err) && pending === outcome) {
        console.error(`[tool-studio] could not store the outcome of run ${start.id}; storing an error instead`, err);
        const e = new ToolError("provider", "The tool's result could not be stored.", { detail: (err as Error).message });
        pending = { status: "error", finishedAt: outcome.finishedAt, error: errorOf(e) };
      }
      delay = Math.min(delay * 2, 10_000);
      setTimeout(attempt, delay).unref?.();
    });
  };
  setTimeout(attempt, delay).unref?.();
  return settled;
}

async function notify(deps: ExecuteDeps, run: Run, spec: ToolSpec): Promise<Run> {
  for (const o of deps.observers ?? []) {
    try {
      await o.onRunCaptured(run, spec);
    } catch (err) {
      console.error(`[tool-studio] run observer "${o.name}" failed for run ${run.id}`, err);
    }
  }
  return run;
}

/**
 * The arguments to store and their problems. Arguments no caller inspected (an MCP client's, parsed
 * by the SDK) are inspected here, so a NUL or a lone surrogate in a key, or nesting deep enough to
 * overflow a recursive walk, makes a rejected run stored escaped, never a database error.
 */
function inspected(req: ExecuteRequest): { arguments: unknown; problems: FieldError[] } {
  const args = req.arguments ?? {};
  if (req.inputProblems) return { arguments: args, problems: req.inputProblems };
  const problems = inspectJson(args);
  return problems.length ? { arguments: storableCopy(args), problems } : { arguments: args, problems: [] };
}

function checkInput(problems: FieldError[]): ToolError | null {
  if (!problems.length) return null;
  return new ToolError(
    "invalid_args",
    `Invalid arguments: ${describeFieldErrors(problems)}. They were stored altered for storage (escaped or cut), so this record shows them as closely as possible.`,
    {
      fields: problems,
    },
  );
}

/** Refused by the run policy: the caller's role is below what the policy asks for this tool. */
function checkPolicy(deps: ExecuteDeps, req: ExecuteRequest, spec: ToolSpec): ToolError | null {
  if (!req.role) return null;
  const { role, rule } = requiredRunRole(spec, deps.runPolicy?.() ?? []);
  if (roleAtLeast(req.role, role)) return null;
  return new ToolError("permission_denied", `Running ${spec.name} needs the ${role} role (${describeRule(rule)}); ${req.actor} has the ${req.role} role.`);
}

function checkConfirmation(req: ExecuteRequest, spec: ToolSpec): ToolError | null {
  if (!req.requireConfirmation || req.confirmed || !needsConfirmation(spec)) return null;
  return new ToolError(
    "invalid_args",
    `${spec.name} is marked destructive (destructiveHint): ${req.confirmHow ?? 'confirm the call by sending "confirm": true'}.`,
    {
      fields: [{ path: "/confirm", message: "must be true for a destructive tool" }],
    },
  );
}

function checkArguments(tool: RegisteredTool, args: unknown): ToolError | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return new ToolError("invalid_args", "Arguments must be a JSON object.", { fields: [{ path: "", message: "must be an object" }] });
  }
  try {
    const result = validate(tool.spec.inputSchema, args);
    if (result.valid) return null;
    return new ToolError("invalid_args", `Invalid arguments: ${describeFieldErrors(result.errors)}`, { fields: result.errors });
  } catch (err) {
    if (SchemaCompileError.isInstance(err)) {
      return new ToolError("provider", "The tool's input schema is not a valid JSON Schema.", { detail: err.message });
    }
    throw err;
  }
}

/** Domain values must be current choices of the live config, whatever the form showed. */
async function checkDomains(domains: DomainService | undefined, tool: RegisteredTool, start: RunStart): Promise<ToolError | null> {
  if (!domains || !tool.spec.paramDomains) return null;
  let errors: FieldError[];
  try {
    errors = await domains.check(tool.spec, start.arguments as Record<string, unknown>, start.agent);
    if (!start.agent && !errors.length) start.agent = domains.resolveAgent(domains.currentConfig());
  } catch (err) {
    return new ToolError("provider", "The tool's option domains could not be resolved.", { detail: (err as Error).message });
  }
  if (!errors.length) return null;
  return new ToolError("invalid_args", `Invalid arguments: ${describeFieldErrors(errors)}`, { fields: errors });
}

/**
 * The run's timeout, paused while the run waits for its caller's input (a person answering a
 * server's request is not the tool being slow).
 */
function runDeadline(timeoutMs: number, onExpired: () => void): { pause(): void; resume(): void; stop(): void } {
  let remaining = timeoutMs;
  let since = Date.now();
  let paused = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(onExpired, remaining);
  return {
    pause() {
      if (stopped || paused++ > 0) return;
      clearTimeout(timer);
      timer = undefined;
      remaining = Math.max(0, remaining - (Date.now() - since));
    },
    resume() {
      if (stopped || paused === 0 || --paused > 0) return;
      since = Date.now();
      timer = setTimeout(onExpired, remaining);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      stopped = true;
    },
  };
}

async function invoke(
  tool: RegisteredTool,
  start: RunStart,
  timeoutMs: number,
  req: Pick<ExecuteRequest, "signal" | "onProgress" | "onInput" | "relay" | "logs"> & { askable: boolean },
): Promise<RunOutcome> {
  const controller = new AbortController();
  const logs = req.logs;
  const untrack = trackRun(start.id, controller);
  const deadline = runDeadline(timeoutMs, () => controller.abort(new ToolError("timeout", `The tool did not finish within ${timeoutMs} ms.`)));
  const onCallerAbort = () => controller.abort(new ToolError("cancelled", "The caller cancelled the run."));
  if (req.signal?.aborted) onCallerAbort();
  req.signal?.addEventListener("abort", onCallerAbort, { once: true });

  // A tool that ignores its signal must still not hold the run open past the timeout.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});

  try {
    const output = await Promise.race([
      tool.invoke(start.arguments as Record<string, unknown>, {
        signal: controller.signal,
        runId: start.id,
        actor: start.actor,
        agent: start.agent,
        timeoutMs,
        progress: (p) => {
          if (!controller.signal.aborted) req.onProgress?.(p);
        },
        ...(req.relay && !req.askable ? { asks: req.relay.kinds } : {}),
        ...(logs ? { logs: { level: logs.level, send: (m: LogMessage) => void (controller.signal.aborted || logs.send(m)) } } : {}),
        requestInput:
          !req.askable && !req.relay
            ? undefined
            : async (request, opts) => {
                const relay = req.relay;
                deadline.pause();
                try {
                  return await openInput({
                    runId: start.id,
                    server: opts.server,
                    owner: { actor: start.actor, actorId: start.actorId ?? null },
                    request,
                    signal: controller.signal,
                    serverSignal: opts.signal,
                    onEvent: req.onInput,
                    ...(relay && opts.params && relay.kinds[request.kind] ? { relay: { relay, params: opts.params } } : {}),
                  });
                } finally {
                  deadline.resume();
                }
              },
      }),
      aborted,
    ]);
    return outcomeOf(tool, output);
  } catch (err) {
    // An abort wins over whatever error the tool threw while being aborted.
    const e = controller.signal.aborted ? toToolError(controller.signal.reason) : toToolError(err);
    const status = e.kind === "timeout" ? "timeout" : e.kind === "cancelled" ? "cancelled" : "error";
    return { status, finishedAt: new Date(), error: errorOf(e) };
  } finally {
    deadline.stop();
    req.signal?.removeEventListener("abort", onCallerAbort);
    untrack();
  }
}

function outcomeOf(tool: RegisteredTool, output: ToolOutput): RunOutcome {
  const finishedAt = new Date();
  if (!output || !Array.isArray(output.content)) {
    const e = new ToolError("provider", "The tool returned a malformed result (no content array).", {
      detail: safeStringify(output),
    });
    return { status: "error", finishedAt, error: errorOf(e) };
  }
  const content = output.content as ContentBlock[];
  if (output.isError) {
    const message = content.find((b) => b.type === "text")?.text ?? "The tool reported an error.";
    return { status: "error", finishedAt, content, structuredContent: output.structuredContent, resultMeta: output._meta, error: { kind: "other", message } };
  }
  let outputValid: boolean | null = null;
  let outputErrors = null;
  const schema = tool.spec.outputSchema;
  if (schema) {
    if (output.structuredContent === undefined) {
      outputValid = false;
      outputErrors = [{ path: "", message: "structured content is missing although the tool declares an outputSchema" }];
    } else {
      try {
        const r = validate(schema, output.structuredContent);
        outputValid = r.valid;
        outputErrors = r.valid ? null : r.errors;
      } catch (err) {
        outputValid = false;
        outputErrors = [{ path: "", message: (err as Error).message }];
      }
    }
  }
  return { status: "success", finishedAt, content, structuredContent: output.structuredContent, resultMeta: output._meta, outputValid, outputErrors };
}

function errorOf(e: ToolError): { kind: ErrorKind; message: string; detail?: string; fields?: typeof e.fields } {
  return { kind: e.kind, message: e.message, detail: e.detail, fields: e.fields };
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? String(v);
  } catch {
    return String(v);
  }
}
