// Calling the tool: its timeout (paused while the run waits for its caller's input), the caller's
// cancel, progress and logs, and what it returned made into the run's outcome.
import type { RunOutcome, RunStart } from "../runs/store";
import type { LogMessage, RegisteredTool } from "../tools/define";
import { ToolError, toToolError, type ErrorKind } from "../tools/errors";
import type { ContentBlock, ToolOutput } from "../tools/output";
import { validate } from "../schema/validate";
import { trackRun } from "./active-runs";
import { openInput } from "./pending-input";
import type { RunLive } from "./request";

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

export async function invoke(
  tool: RegisteredTool,
  start: RunStart,
  timeoutMs: number,
  req: Omit<RunLive, "onStart"> & { askable: boolean },
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

export function outcomeOf(tool: RegisteredTool, output: ToolOutput): RunOutcome {
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

export function errorOf(e: ToolError): { kind: ErrorKind; message: string; detail?: string; fields?: typeof e.fields } {
  return { kind: e.kind, message: e.message, detail: e.detail, fields: e.fields };
}

export function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? String(v);
  } catch {
    return String(v);
  }
}
