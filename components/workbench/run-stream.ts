import type { InputEvent, PendingInputView } from "@/lib/execution/pending-input";
import type { Run } from "@/lib/runs/types";

export type Progress = { progress: number; total?: number; message?: string };

/**
 * The studio refused or failed the request before there was a run to show: `status` is the HTTP
 * status (403 for a role too low), `kind` the error kind of the answer's `{ error: { kind } }`.
 */
export class RunRequestError extends Error {
  readonly status: number | null;
  readonly kind: string | null;

  constructor(message: string, status: number | null, kind: string | null) {
    super(message);
    this.name = "RunRequestError";
    this.status = status;
    this.kind = kind;
  }

  /** Refused for who the caller is (the route's role, or the tool's run policy). */
  get denied(): boolean {
    return this.status === 403 || this.kind === "permission_denied" || this.kind === "forbidden";
  }
}

/**
 * Reads the answer of POST /api/tools/{name}/run: the NDJSON stream (started, progress, a
 * server's requests for input and their ends, a final `run` event) or a plain JSON answer. A refused call that still has a run (`{ error, run }`, e.g.
 * 403 permission_denied under the run policy) returns that run; one without throws RunRequestError.
 */
export async function readRunStream(
  res: Response,
  on: {
    started(runId: string): void;
    progress(p: Progress): void;
    input?(input: PendingInputView): void;
    inputResolved?(event: Extract<InputEvent, { type: "input_resolved" }>): void;
  },
): Promise<Run> {
  if (!res.ok || !res.body || !res.headers.get("content-type")?.includes("ndjson")) {
    const body = await res.json().catch(() => null);
    if (body?.run) return body.run as Run;
    throw new RunRequestError(body?.error?.message ?? `The studio answered ${res.status} ${res.statusText}`, res.status, body?.error?.kind ?? null);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      const event = JSON.parse(line);
      if (event.type === "started") on.started(event.runId);
      else if (event.type === "progress") on.progress(event);
      else if (event.type === "input") on.input?.(event.input as PendingInputView);
      else if (event.type === "input_resolved") on.inputResolved?.(event);
      else if (event.type === "run") return event.run as Run;
      else if (event.type === "error") {
        throw new RunRequestError(
          event.error?.message ?? "The run failed in the studio.",
          typeof event.status === "number" ? event.status : null,
          event.error?.kind ?? null,
        );
      }
    }
    if (done) throw new Error("The studio closed the stream before the run finished.");
  }
}
