import type { RunFilter } from "./query";
import type { RunStore } from "./store";
import type { Run } from "./types";

export type ExportFormat = "ndjson" | "csv";

const CSV_COLUMNS = [
  "id", "tool", "source", "status", "error_kind", "error_message", "duration_ms", "started_at", "finished_at",
  "origin", "actor", "agent", "client_name", "replay_of", "output_valid", "arguments", "structured_content", "content",
] as const;

function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  // A spreadsheet would run a cell starting with = + - @ as a formula: keep it text.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvRow(r: Run): string {
  const values = [
    r.id, r.tool, r.source, r.status, r.error?.kind, r.error?.message, r.durationMs, r.startedAt, r.finishedAt,
    r.origin, r.actor, r.agent, r.clientName, r.replayOf, r.outputValid, r.arguments, r.output?.structuredContent, r.output?.content,
  ];
  return values.map(csvCell).join(",") + "\r\n";
}

/**
 * Streams every run matching a filter, newest first, page by page: memory stays flat whatever
 * the size of the export, and a client that goes away stops the reads.
 */
export function exportRuns(runs: RunStore, filter: RunFilter, format: ExportFormat, onDone?: (count: number) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let count = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started && format === "csv") controller.enqueue(encoder.encode(CSV_COLUMNS.join(",") + "\r\n"));
      started = true;
      const page = await runs.list({ ...filter, cursor, limit: 200 });
      const text = page.runs.map((r) => (format === "csv" ? csvRow(r) : JSON.stringify(r) + "\n")).join("");
      count += page.runs.length;
      if (text) controller.enqueue(encoder.encode(text));
      if (!page.nextCursor) {
        controller.close();
        onDone?.(count);
      } else cursor = page.nextCursor;
    },
  });
}
