// Load on a real studio: many clients calling `add` through POST /api/tools/add/run, each call
// marked by its arguments (a = client, b = sequence) so stored runs can be matched with what the
// clients were told: nothing acknowledged may be missing, nothing may be stored twice.
// Plain fetch and pg, no lib/ imports (used by Playwright specs, vitest and the load bench).
import { query } from "./studio-process";

export interface Call {
  client: number;
  seq: number;
  /** HTTP status, or "reset" (connection failed) or "timeout" (no answer within the client's limit). */
  status: number | "reset" | "timeout";
  ms: number;
  /** When the call ended, ms since the load started. */
  at: number;
  /** The run the studio acknowledged (2xx with a run, or a 4xx that carries the captured run). */
  runId?: string;
  runStatus?: string;
}

export interface LoadOptions {
  url: string;
  token: string;
  clients: number;
  /** Keep calling until this many ms have passed, or until stop() is called. */
  durationMs?: number;
  /** A client gives up on a call after this long (default 60 s). */
  requestTimeoutMs?: number;
  /** Pause between one client's calls (default 0). */
  thinkMs?: number;
}

export interface Load {
  /** Ends the load: clients finish the call they are in, then stop. */
  stop(): void;
  /** Every call, once all clients have stopped. */
  done: Promise<Call[]>;
  /** Calls finished so far. */
  calls: Call[];
}

export function startLoad(o: LoadOptions): Load {
  let stopped = false;
  const calls: Call[] = [];
  const t0 = performance.now();
  const deadline = o.durationMs ? t0 + o.durationMs : Infinity;
  const client = async (n: number) => {
    for (let seq = 0; !stopped && performance.now() < deadline; seq++) {
      const s = performance.now();
      const call: Call = { client: n, seq, status: "reset", ms: 0, at: 0 };
      try {
        const res = await fetch(`${o.url}/api/tools/add/run`, {
          method: "POST",
          headers: { authorization: `Bearer ${o.token}`, "content-type": "application/json" },
          body: JSON.stringify({ arguments: { a: n, b: seq } }),
          signal: AbortSignal.timeout(o.requestTimeoutMs ?? 60_000),
        });
        call.status = res.status;
        const body = (await res.json().catch(() => null)) as { run?: { id?: string; status?: string } } | null;
        if (body?.run?.id) {
          call.runId = body.run.id;
          call.runStatus = body.run.status;
        }
      } catch (e) {
        call.status = (e as Error).name === "TimeoutError" ? "timeout" : "reset";
      }
      call.ms = performance.now() - s;
      call.at = performance.now() - t0;
      calls.push(call);
      if (o.thinkMs) await new Promise((r) => setTimeout(r, o.thinkMs));
    }
  };
  const done = Promise.all(Array.from({ length: o.clients }, (_, i) => client(i))).then(() => calls);
  return { stop: () => void (stopped = true), done, calls };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function statusCounts(calls: readonly Call[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of calls) out[String(c.status)] = (out[String(c.status)] ?? 0) + 1;
  return out;
}

export interface RunAccount {
  acknowledged: number;
  /** Runs of `add` stored in the database. */
  stored: number;
  /** Acknowledged runs missing from the database, or stored with another outcome. */
  lost: string[];
  /** (client, sequence) pairs stored more than once. */
  duplicated: string[];
  /** Runs still `running`. */
  running: number;
  byStatus: Record<string, number>;
}

/** Matches what the clients were told against what the database holds. */
export async function accountRuns(databaseUrl: string, calls: readonly Call[]): Promise<RunAccount> {
  const rows = await query<{ id: string; status: string; a: string | null; b: string | null }>(
    databaseUrl,
    `SELECT id::text, status::text, arguments->>'a' AS a, arguments->>'b' AS b FROM runs WHERE tool_name = 'add'`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const acked = calls.filter((c) => c.runId);
  const lost = acked
    .filter((c) => byId.get(c.runId!)?.status !== c.runStatus)
    .map((c) => `${c.runId} (${c.runStatus}, stored ${byId.get(c.runId!)?.status ?? "nothing"})`);
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(`${r.a}/${r.b}`, (seen.get(`${r.a}/${r.b}`) ?? 0) + 1);
  const byStatus: Record<string, number> = {};
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  return {
    acknowledged: acked.length,
    stored: rows.length,
    lost,
    duplicated: [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k}×${n}`),
    running: byStatus.running ?? 0,
    byStatus,
  };
}
