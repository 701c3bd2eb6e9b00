// Query parameters of GET /api/audit and the /audit page, parsed once for both.
import { z } from "zod";
import type { AuditLog, AuditVerifyReport } from "./log";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An instant from a query parameter: `2026-11-30` (a UTC day), or `2026-11-30T14:05[:07[.123]]`
 * with `Z` or an offset (UTC when it has none). As the end of a range, a bare day means
 * "through the end of that day". Null when it is none of these.
 */
export function parseInstant(s: string, end = false): Date | null {
  let d: Date;
  if (DATE.test(s)) {
    d = new Date(`${s}T00:00:00.000Z`);
    if (!Number.isNaN(d.getTime()) && end) d = new Date(d.getTime() + 86_400_000);
  } else {
    const m = DATE_TIME.exec(s);
    if (!m) return null;
    d = new Date(`${m[1]}T${m[2]}${m[3] ?? "Z"}`);
  }
  // Years PostgreSQL's timestamptz and ISO strings agree on.
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999 ? null : d;
}

const instant = (end: boolean) =>
  z.string().transform((s, ctx) => {
    const d = parseInstant(s.trim(), end);
    if (!d) {
      ctx.addIssue({ code: "custom", message: "must be a date (2026-11-30) or an ISO 8601 time (2026-11-30T14:05:00Z)" });
      return z.NEVER;
    }
    return d;
  });

/** GET /api/audit: `since` inclusive, `until` exclusive (a bare day: through its end). */
export const AuditQuery = z.strictObject({
  action: z.string().min(1).max(64).optional(),
  actor: z.string().min(1).max(200).optional(),
  target: z.string().min(1).max(500).optional(),
  since: instant(false).optional(),
  until: instant(true).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).max(200).optional(),
});

/** GET /api/audit/verify. */
export const AuditVerifyQuery = z.strictObject({
  from: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  /** `<seq>:<hash>`: a head saved earlier that must still be in the chain. */
  checkpoint: z
    .string()
    .regex(/^[1-9][0-9]{0,15}:[0-9a-f]{64}$/, "must be <seq>:<64 hex digits>")
    .transform((s) => {
      const [seq, hash] = s.split(":");
      return { seq: Number(seq), hash: hash! };
    })
    .optional(),
});

// One full walk at a time per log: concurrent page loads and API calls share the one in flight.
const inflight = new WeakMap<AuditLog, Promise<AuditVerifyReport>>();
const verified = new WeakMap<AuditLog, { head: { seq: number; hash: string }; entries: number; fullAt: number }>();

/** How often the badge re-walks the whole chain; in between it checks only what was appended. */
export const FULL_VERIFY_EVERY_MS = 10 * 60_000;

/**
 * The chain check for the badge and the API, shared with any identical call already running.
 * After a full walk, later calls verify only the entries appended since the last verified head
 * (the database refuses edits to older ones), and walk the whole chain again every
 * FULL_VERIFY_EVERY_MS. `npm run audit:verify` always walks it all.
 */
export function verifyShared(audit: AuditLog, now: () => number = Date.now): Promise<AuditVerifyReport> {
  let p = inflight.get(audit);
  if (!p) {
    p = (async () => {
      const last = verified.get(audit);
      const full = !last || now() - last.fullAt > FULL_VERIFY_EVERY_MS;
      const report = full ? await audit.verify() : await audit.verify({ from: last.head.seq + 1, fromHash: last.head.hash });
      if (!report.ok) {
        verified.delete(audit);
        return report;
      }
      const entries = full ? report.entries : last.entries + report.entries;
      if (report.head) verified.set(audit, { head: report.head, entries, fullAt: full ? now() : last!.fullAt });
      return { ...report, entries };
    })().finally(() => inflight.delete(audit));
    inflight.set(audit, p);
  }
  return p;
}
