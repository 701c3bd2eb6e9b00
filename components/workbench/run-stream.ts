import type { Run } from "@/lib/runs/types";

export type Progress = { progress: number; total?: number; message?: string };

/** Reads the NDJSON stream of POST /api/tools/{name}/run and returns the final run. */
export async function readRunStream(res: Response, on: { started(runId: string): void; progress(p: Progress): void }): Promise<Run> {
  if (!res.ok || !res.body || !res.headers.get("content-type")?.includes("ndjson")) {
    const body = await res.json().catch(() => null);
    if (body?.run) return body.run as Run;
    throw new Error(body?.error?.message ?? `The studio answered ${res.status} ${res.statusText}`);
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
      else if (event.type === "run") return event.run as Run;
      else if (event.type === "error") throw new Error(event.error?.message ?? "The run failed in the studio.");
    }
    if (done) throw new Error("The studio closed the stream before the run finished.");
  }
}
