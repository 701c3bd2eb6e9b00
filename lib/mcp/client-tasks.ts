// Tasks on the client side (protocol 2025-11-25, SEP-1686): a server may send its
// `elicitation/create` or `sampling/createMessage` with `task: { ttl }`, asking the studio to
// answer at once with a task (CreateTaskResult) and let it poll (tasks/get), fetch the answer
// (tasks/result), list (tasks/list) or cancel (tasks/cancel) it. The person still answers in the
// run's panel or through /api/runs/{id}/input: the task's work is the same human answer flow.
//
// The v2 SDK has no task runtime (its 2025-11-25 task schemas are "wire vocabulary") and its
// Client checks an elicitation/sampling handler's answer as a plain result, so StudioClient
// overrides the Client's documented `_wrapHandler` hook: a task-augmented request gets a task
// whose work is the SDK's own checked handler (the request and the eventual answer still pass
// the SDK's checks); every other request goes through unchanged.
import { randomUUID } from "node:crypto";
import {
  Client,
  type ClientContext,
  isTaskAugmentedRequestParams,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Result,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import { isObject } from "./mapping";

const TASK_ID = z.looseObject({ taskId: z.string().max(200) });
const CURSOR = z.looseObject({ cursor: z.string().max(200).optional() });

/** What the studio declares for tasks: it answers sampling and elicitation as tasks, lists and cancels them. */
export const CLIENT_TASK_CAPABILITIES = {
  list: {},
  cancel: {},
  requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
} as const;

export type ClientTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as tasks/get answers it. */
export interface ClientTask {
  taskId: string;
  status: ClientTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
}

type Outcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: { code: number; message: string; data?: unknown } };

interface Entry {
  task: ClientTask;
  method: string;
  controller: AbortController;
  outcome: Promise<Outcome>;
  expiry?: NodeJS.Timeout;
}

export interface ClientTaskStoreOptions {
  /** Most tasks kept at once (live or finished, until their ttl); more are refused. Default 100. */
  maxTasks?: number;
  /** The longest ttl granted (ms); a longer request is cut to it. Default 1 hour. */
  maxTtlMs?: number;
  /** The ttl when the request names none (ms). Default 10 minutes. */
  defaultTtlMs?: number;
  /** The pollInterval suggested to the server (ms). Default 1000. */
  pollIntervalMs?: number;
}

const TERMINAL = new Set<ClientTaskStatus>(["completed", "failed", "cancelled"]);
const LIST_PAGE = 50;

const unknownTask = (taskId: unknown) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${JSON.stringify(String(taskId)).slice(0, 120)}`);

function errorOf(err: unknown): { code: number; message: string; data?: unknown } {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e?.code === "number" && Number.isSafeInteger(e.code) ? e.code : ProtocolErrorCode.InternalError;
  const message = typeof e?.message === "string" ? e.message.slice(0, 2_000) : "Internal error";
  return { code, message, ...(e?.data !== undefined ? { data: e.data } : {}) };
}

/**
 * The tasks one connection created for its server's task-augmented requests. Bounded: at most
 * `maxTasks` at once, each forgotten `ttl` after its creation (and a live one cancelled then).
 */
export class ClientTaskStore {
  private readonly tasks = new Map<string, Entry>();
  private readonly maxTasks: number;
  private readonly maxTtlMs: number;
  private readonly defaultTtlMs: number;
  private readonly pollIntervalMs: number;

  constructor(o: ClientTaskStoreOptions = {}) {
    this.maxTasks = o.maxTasks ?? 100;
    this.maxTtlMs = o.maxTtlMs ?? 60 * 60_000;
    this.defaultTtlMs = o.defaultTtlMs ?? 10 * 60_000;
    this.pollIntervalMs = o.pollIntervalMs ?? 1_000;
  }

  get size(): number {
    return this.tasks.size;
  }

  /**
   * Creates a task running `work` (given the task's signal: aborted by tasks/cancel, the ttl or
   * close) and answers the CreateTaskResult. `waiting` is the status message while it runs.
   */
  create(method: string, requestedTtl: unknown, work: (signal: AbortSignal) => Promise<unknown>, waiting: string): { task: ClientTask } {
    if (this.tasks.size >= this.maxTasks)
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The studio keeps at most ${this.maxTasks} tasks per server; try again when some have ended.`);
    const ttl =
      typeof requestedTtl === "number" && Number.isFinite(requestedTtl) && requestedTtl > 0
        ? Math.min(Math.round(requestedTtl), this.maxTtlMs)
        : this.defaultTtlMs;
    const now = new Date().toISOString();
    const task: ClientTask = {
      taskId: randomUUID(),
      status: "input_required",
      statusMessage: waiting,
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: this.pollIntervalMs,
    };
    const controller = new AbortController();
    const finish = (status: ClientTaskStatus, statusMessage?: string) => {
      if (TERMINAL.has(task.status)) return;
      task.status = status;
      task.lastUpdatedAt = new Date().toISOString();
      if (statusMessage === undefined) delete task.statusMessage;
      else task.statusMessage = statusMessage.slice(0, 500);
    };
    const outcome = Promise.resolve()
      .then(() => work(controller.signal))
      .then(
        (result): Outcome => {
          finish(controller.signal.aborted ? "cancelled" : "completed");
          return { ok: true, result: isObject(result) ? result : {} };
        },
        (err: unknown): Outcome => {
          const error = errorOf(err);
          finish(controller.signal.aborted ? "cancelled" : "failed", error.message);
          return { ok: false, error };
        },
      );
    const entry: Entry = { task, method, controller, outcome };
    entry.expiry = setTimeout(() => this.forget(task.taskId), ttl);
    entry.expiry.unref?.();
    this.tasks.set(task.taskId, entry);
    return { task: { ...task } };
  }

  /** tasks/get. */
  get(taskId: unknown): ClientTask {
    const e = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (!e) throw unknownTask(taskId);
    return { ...e.task };
  }

  /** tasks/result: waits for the task to end; its answer with the related-task _meta, or its error. */
  async result(taskId: unknown): Promise<Record<string, unknown>> {
    const e = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (!e) throw unknownTask(taskId);
    const o = await e.outcome;
    if (!o.ok) throw new ProtocolError(o.error.code, o.error.message, o.error.data);
    const meta = isObject(o.result._meta) ? o.result._meta : {};
    return { ...o.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: e.task.taskId } } };
  }

  /** tasks/list, oldest first, 50 a page; the cursor is the last task id of the previous page. */
  list(cursor: unknown): { tasks: ClientTask[]; nextCursor?: string } {
    const all = [...this.tasks.values()].map((e) => e.task);
    let start = 0;
    if (cursor !== undefined) {
      const i = typeof cursor === "string" ? all.findIndex((t) => t.taskId === cursor) : -1;
      if (i < 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: the task it names is gone");
      start = i + 1;
    }
    const page = all.slice(start, start + LIST_PAGE).map((t) => ({ ...t }));
    return start + LIST_PAGE < all.length ? { tasks: page, nextCursor: page[page.length - 1].taskId } : { tasks: page };
  }

  /** tasks/cancel: ends a live task (its request for input is withdrawn); a finished one is an error. */
  cancel(taskId: unknown): ClientTask {
    const e = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (!e) throw unknownTask(taskId);
    if (TERMINAL.has(e.task.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${e.task.taskId} has already ended (${e.task.status}).`);
    e.task.status = "cancelled";
    e.task.statusMessage = "cancelled by the server";
    e.task.lastUpdatedAt = new Date().toISOString();
    e.controller.abort(new Error("the task was cancelled"));
    return { ...e.task };
  }

  private forget(taskId: string): void {
    const e = this.tasks.get(taskId);
    if (!e) return;
    clearTimeout(e.expiry);
    if (!TERMINAL.has(e.task.status)) e.controller.abort(new Error("the task's ttl has passed"));
    this.tasks.delete(taskId);
  }

  /** Ends every task (the connection closed). */
  clear(): void {
    for (const id of [...this.tasks.keys()]) this.forget(id);
  }
}

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

const WAITING: Record<string, string> = {
  "elicitation/create": "waiting for the person who started the run to answer",
  "sampling/createMessage": "waiting for the person who started the run to write and approve the reply",
};

/**
 * The v2 Client that also answers task-augmented `elicitation/create` and `sampling/createMessage`
 * with a task and serves tasks/get, tasks/result, tasks/list and tasks/cancel for them.
 */
export class StudioClient extends Client {
  /** Created lazily: the base constructor registers its ping handler through `_wrapHandler` before fields exist. */
  private taskStore?: ClientTaskStore;

  get clientTasks(): ClientTaskStore {
    return (this.taskStore ??= new ClientTaskStore());
  }

  /** Serves tasks/get, tasks/result, tasks/list and tasks/cancel from this client's tasks. */
  serveTasks(): void {
    // The SDK types only the methods it has a runtime for: these go through its schema form.
    this.setRequestHandler("tasks/get", { params: TASK_ID }, (p) => ({ ...this.clientTasks.get(p.taskId) }));
    this.setRequestHandler("tasks/result", { params: TASK_ID }, (p) => this.clientTasks.result(p.taskId));
    this.setRequestHandler("tasks/list", { params: CURSOR }, (p) => ({ ...this.clientTasks.list(p.cursor) }));
    this.setRequestHandler("tasks/cancel", { params: TASK_ID }, (p) => ({ ...this.clientTasks.cancel(p.taskId) }));
  }

  override async close(): Promise<void> {
    this.taskStore?.clear();
    await super.close();
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler);
    const waiting = WAITING[method];
    if (!waiting) return checked;
    return (request, ctx) => {
      const params = request.params;
      if (!isTaskAugmentedRequestParams(params) || !isObject(params) || !isObject(params.task)) return checked(request, ctx);
      const { task, ...plain } = params;
      // The work is the SDK's checked handler for the request without `task`, on the task's signal.
      const created = this.clientTasks.create(
        method,
        task.ttl,
        (signal) => checked({ ...request, params: plain }, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }),
        waiting,
      );
      return Promise.resolve(created);
    };
  }
}
