import { HttpError } from "../http/http";
import type { RunStore } from "../runs/store";
import type { Run } from "../runs/types";
import { canonicalJson } from "../tools/hash";

/**
 * `Idempotency-Key` (REST header; `_meta` on /api/mcp): a client that retries a call it got no
 * answer to (a dropped connection, a database outage) gets the first run back, finished or in
 * flight, instead of running the tool again. The key lives on the run's row, unique per actor
 * (a unique index), so two instances given the same key at once run it once: the second start
 * fails on the index and finds the first. Keys are honoured for IDEMPOTENCY_KEEP_MS; after that
 * the same key starts a new run. Only calls that start a run carry their key (a rejected call
 * ran nothing, so its retry is checked again).
 */

/** How long a key names its run (24 hours, as common payment APIs keep theirs). */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;
/** Visible ASCII, as HTTP header values and common key formats (UUIDs, ULIDs, base64url) are. */
const KEY_RE = /^[\x21-\x7e]+$/;

/** Why a key cannot be used, or null. */
export function idempotencyKeyProblem(key: string): string | null {
  if (!key.length) return "must not be empty";
  if (key.length > MAX_IDEMPOTENCY_KEY_CHARS) return `must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters (got ${key.length})`;
  if (!KEY_RE.test(key)) return "must be visible ASCII characters only (no spaces or control characters), e.g. a UUID";
  return null;
}

/**
 * The run `key` already names for `actor`, still honoured; null when there is none (an expired
 * one is released first). The same key for another tool or other arguments is a mistake of the
 * client's that must not silently return an unrelated run: 409 conflict.
 */
export async function priorRun(
  runs: Pick<RunStore, "byIdempotencyKey" | "releaseIdempotencyKey">,
  call: { actor: string; key: string; tool: string; arguments: unknown },
  now = Date.now(),
): Promise<Run | null> {
  const prior = await runs.byIdempotencyKey(call.actor, call.key);
  if (!prior) return null;
  if (now - Date.parse(prior.queuedAt ?? prior.startedAt) > IDEMPOTENCY_KEEP_MS) {
    await runs.releaseIdempotencyKey(prior.id);
    return null;
  }
  if (prior.tool !== call.tool || canonicalJson(prior.arguments ?? {}) !== canonicalJson(call.arguments ?? {})) {
    throw new HttpError(
      "conflict",
      `The Idempotency-Key was used for run ${prior.id} (${prior.tool}) with other ${prior.tool !== call.tool ? "tool" : "arguments"}: send a new key for a different call.`,
    );
  }
  return prior;
}

/** A start refused by the (actor, idempotency_key) unique index: another request with the same key got there first. */
export function isKeyTaken(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    const o = e as {
      code?: unknown;
      originalCode?: unknown;
      constraint?: unknown;
      message?: unknown;
      meta?: { target?: unknown; driverAdapterError?: unknown };
      cause?: unknown;
    };
    const unique = o.code === "23505" || o.originalCode === "23505" || o.code === "P2002";
    if (unique && /idempotency/i.test(JSON.stringify([o.constraint, o.meta?.target, o.message]))) return true;
    e = o.cause ?? o.meta?.driverAdapterError;
  }
  return false;
}
