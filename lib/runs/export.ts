import { CSV_COLUMNS } from "./columns";
import type { RunFilter } from "./query";
import type { RunStore } from "./store";
import type { Run } from "./types";

export type ExportFormat = "ndjson" | "csv";

/**
 * What a spreadsheet would read as a formula (OWASP "CSV Injection"): a cell whose first visible
 * character is = + - @ or a full-width form of one (U+FF1D, U+FF0B, U+FF0D, U+FF20), even behind
 * leading whitespace, control or invisible format characters (spaces, tabs, CR, LF, NBSP,
 * zero-width space, BOM...), or whose leading run of such characters holds a tab, a CR or a NUL.
 */
const FORMULA_START = /^[\s\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\s\p{Cc}\p{Cf}]*[\t\r\0]/u;

/**
 * One CSV cell (RFC 4180). Numbers and booleans the studio writes (durations, output_valid) are
 * kept as they are: their JSON text is a plain number or a word, never a formula, and a negative
 * duration must stay a number. Every other value comes from the run (tool names, actors, error
 * messages, arguments and outputs rendered as JSON) and is neutralised with a leading ' when a
 * spreadsheet would run it. A cell holding a comma, a quote, a CR or a LF is then wrapped in
 * double quotes with its inner quotes doubled.
 */
export function csvCell(v: unknown): string {
  let s: string;
  if (v === null || v === undefined) s = "";
  else if (typeof v === "number" || typeof v === "boolean") s = JSON.stringify(v);
  else {
    s = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
    if (FORMULA_START.test(s)) s = `'${s}`;
  }
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One run as a CSV line, its columns as lib/runs/columns.ts describes them. */
function csvRow(r: Run): string {
  return CSV_COLUMNS.map((c) => csvCell(c.of(r))).join(",") + "\r\n";
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
      if (!started && format === "csv") controller.enqueue(encoder.encode(CSV_COLUMNS.map((c) => c.header).join(",") + "\r\n"));
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
