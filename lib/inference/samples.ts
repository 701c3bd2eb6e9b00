/**
 * What is sampled: the samples one run contributes, by kind. The same rules serve live runs
 * (the queue, lib/inference/queue.ts) and `rebuild` (lib/inference/storage.ts).
 *
 * - "output": runs with status success. The sample is `structuredContent`; when a run has none,
 *   its content is used only if it is exactly one text block whose text is a JSON object or
 *   array (at most 1 MB) — what older tools send instead of structured content. Anything else
 *   gives no output sample.
 * - "arguments": every run that was checked and executed: success, error, timeout, cancelled
 *   (not rejected, not running; interrupted runs never reach an observer, so they are left out
 *   of rebuilds too).
 */
import type { Run, RunStatus } from "../runs/types";

export const SHAPE_KINDS = ["output", "arguments"] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

export interface Queued {
  runId: string;
  kind: ShapeKind;
  value?: unknown;
  /** A text block to parse as JSON at flush time (not on the run's path). */
  text?: string;
}

export const EXECUTED: RunStatus[] = ["success", "error", "timeout", "cancelled"];
const MAX_TEXT_SAMPLE = 1024 * 1024;

/** The text of content that is exactly one text block looking like a JSON object or array. */
function jsonText(content: unknown): string | undefined {
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown };
  if (block?.type !== "text" || typeof block.text !== "string" || block.text.length > MAX_TEXT_SAMPLE) return undefined;
  const t = block.text.trim();
  if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return undefined;
  return t;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The output sample of a run, or undefined (see the module comment). */
export function outputSample(status: RunStatus, structuredContent: unknown, content: unknown): unknown {
  if (status !== "success") return undefined;
  if (structuredContent !== undefined && structuredContent !== null) return structuredContent;
  const t = jsonText(content);
  return t === undefined ? undefined : parseJson(t);
}

/** The samples one run contributes, by kind (JSON text is parsed later, at flush). */
export function samplesOf(run: Pick<Run, "id" | "status" | "arguments"> & { output?: { content?: unknown; structuredContent?: unknown } | null }): Queued[] {
  const out: Queued[] = [];
  if (!EXECUTED.includes(run.status)) return out;
  if (run.status === "success") {
    const sc = run.output?.structuredContent;
    if (sc !== undefined && sc !== null) out.push({ runId: run.id, kind: "output", value: sc });
    else {
      const t = jsonText(run.output?.content);
      if (t !== undefined) out.push({ runId: run.id, kind: "output", text: t });
    }
  }
  out.push({ runId: run.id, kind: "arguments", value: run.arguments ?? {} });
  return out;
}

export const sampleValue = (q: Queued): unknown => (q.text !== undefined ? parseJson(q.text) : q.value);
