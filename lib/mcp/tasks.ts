// MCP tasks (protocol 2025-11-25, SEP-1686) on the client side: a tool whose definition says
// `execution.taskSupport: "required"` (or "optional", when the server offers task-augmented
// tools/call) is called as a task: tools/call with `task: { ttl }` answers a CreateTaskResult, the
// task's state is polled with tasks/get (shown as the run's progress), tasks/result waits for the
// outcome (and carries the server's requests for input while the task needs them), and a run
// cancelled or timed out cancels its task (tasks/cancel).
import type { Client } from "@modelcontextprotocol/client";
import type { ProgressUpdate } from "../tools/define";
import { isObject, RAW } from "./mapping";

export type TaskSupport = "required" | "optional" | "forbidden";

/** A tool's declared task support (`execution.taskSupport`), "forbidden" when it says none. */
export function taskSupportOf(raw: Record<string, unknown> | undefined): TaskSupport {
  const t = isObject(raw?.execution) ? raw.execution.taskSupport : undefined;
  return t === "required" || t === "optional" ? t : "forbidden";
}

/** Does the server take task-augmented tools/call (capabilities.tasks.requests.tools.call)? */
export function serverRunsToolTasks(capabilities: Record<string, unknown> | undefined): boolean {
  const tasks = capabilities?.tasks;
  return isObject(tasks) && isObject(tasks.requests) && isObject(tasks.requests.tools) && isObject(tasks.requests.tools.call);
}

/** A task's state as the server reports it. */
export interface TaskState {
  taskId: string;
  status: string;
  statusMessage?: string;
  ttl?: number | null;
  pollInterval?: number;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

function taskOf(v: unknown): TaskState | null {
  if (!isObject(v) || typeof v.taskId !== "string" || typeof v.status !== "string") return null;
  return {
    taskId: v.taskId,
    status: v.status,
    ...(typeof v.statusMessage === "string" ? { statusMessage: v.statusMessage.slice(0, 500) } : {}),
    ...(typeof v.ttl === "number" || v.ttl === null ? { ttl: v.ttl } : {}),
    ...(typeof v.pollInterval === "number" ? { pollInterval: v.pollInterval } : {}),
  };
}

/** A task's state as progress: the poll count and "task <status>: <message>". */
export function taskProgress(task: TaskState, polls: number): ProgressUpdate {
  return { progress: polls, message: `task ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ""}` };
}

export interface TaskCallOptions {
  signal: AbortSignal;
  /** The SDK's timeout for each request that waits (create, result). */
  timeout: number;
  /** How long the server should keep the task and its result (ms). */
  ttl: number;
  headers?: Record<string, string>;
  onState(task: TaskState, polls: number): void;
  log(message: string): void;
}

/** Polls slower than this are capped; faster ones raised to it. */
const POLL_MIN_MS = 250;
const POLL_MAX_MS = 5_000;

/**
 * Calls a tool as a task and resolves with its tools/call result (the raw result, as tools/call
 * would have answered). A server that answers the create request with a plain result (it ran the
 * call at once) is answered with that result.
 */
export async function callAsTask(client: Client, name: string, args: Record<string, unknown>, o: TaskCallOptions): Promise<unknown> {
  const created = await client.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: o.ttl } } }, RAW, {
    signal: o.signal,
    timeout: o.timeout,
    headers: o.headers,
  });
  const task = isObject(created) ? taskOf(created.task) : null;
  if (!task) return created;
  o.onState(task, 0);

  const cancelTask = () => {
    client
      .request({ method: "tasks/cancel", params: { taskId: task.taskId } }, RAW, { timeout: 5_000 })
      .catch((err: unknown) => o.log(`tasks/cancel ${task.taskId} failed: ${(err as Error).message}`));
  };
  o.signal.addEventListener("abort", cancelTask, { once: true });
  let done = false;
  let wake: (() => void) | undefined;
  const interval = Math.min(Math.max(task.pollInterval ?? 1_000, POLL_MIN_MS), POLL_MAX_MS);
  // Never rejects: a poll that fails is skipped (the outcome comes from tasks/result either way).
  const poll = async () => {
    for (let polls = 1; !done && !o.signal.aborted; polls++) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, interval);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      if (done || o.signal.aborted) return;
      const now = taskOf(
        await client.request({ method: "tasks/get", params: { taskId: task.taskId } }, RAW, { signal: o.signal, timeout: 10_000 }).catch(() => null),
      );
      if (!now || done) continue;
      try {
        o.onState(now, polls);
      } catch (err) {
        o.log(`reporting the state of task ${task.taskId} failed: ${(err as Error).message}`);
      }
      if (TERMINAL.has(now.status)) return;
    }
  };
  const polling = poll();
  try {
    // Waits for the outcome; the server sends its requests for input (elicitation) meanwhile.
    return await client.request({ method: "tasks/result", params: { taskId: task.taskId } }, RAW, { signal: o.signal, timeout: o.timeout });
  } finally {
    done = true;
    wake?.();
    o.signal.removeEventListener("abort", cancelTask);
    await polling;
  }
}
