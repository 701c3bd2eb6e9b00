import { statusOf } from "@/lib/errors/errors";
import { z } from "zod";
import { restOrigin } from "@/lib/auth/principal";
import { MAX_TIMEOUT_MS } from "@/lib/execution/execute";
import { MAX_PRIORITY, MIN_PRIORITY } from "@/lib/queue/run-queue";
import { errorResponse, inputError, parseWith, readJsonChecked, toErrorResponse } from "@/lib/http/http";
import { storableCopy } from "@/lib/http/input";
import { idempotencyKeyProblem } from "@/lib/execution/idempotency";
import type { Run } from "@/lib/runs/types";
import { guarded, otherMethods } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

// proxy.ts skips this route (a hot path marked `unproxied` in lib/http/fast-path.ts, see UNPROXIED_API there): the other methods are refused here, in the proxy's words.
export const { GET, PUT, PATCH, DELETE } = otherMethods("/api/tools/[name]/run");

const RunBody = z.strictObject({
  arguments: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  replayOf: z.uuid().optional(),
  /** Confirms a call to a destructive tool (destructiveHint): without it such a call is rejected. */
  confirm: z.boolean().optional(),
  /** The agent the call is for; option-domain values are checked for it (default agent when unset). */
  agent: z.string().min(1).max(200).optional(),
  /** `async`: answer 202 with the run, queued for a worker, instead of waiting for its outcome. */
  mode: z.enum(["sync", "async"]).optional(),
  /** Queued runs only: higher runs first (default 0). */
  priority: z.number().int().min(MIN_PRIORITY).max(MAX_PRIORITY).optional(),
});

/**
 * Runs a tool and returns the captured run. With `Accept: application/x-ndjson` it streams
 * `started`, `progress`, `input` / `input_resolved` (a server's request for input and its end) and a final `run` event, so the UI can show progress and cancel. With
 * `"mode": "async"` the checked call is queued and answered 202 with the `queued` run at once
 * (`Location: /api/runs/{id}`, to poll); a refused call is answered as in sync mode.
 * The origin is the server's (restOrigin): `ui` for a browser session or the studio's own pages, `api` for a token.
 */
export const POST = guarded<{ name: string }>("/api/tools/[name]/run", "POST", async (req, { params, principal }) => {
  const { name } = params;
  const { data, problems } = await readJsonChecked(req);
  // Arguments that cannot be stored as sent still make a (rejected) run, stored escaped; any
  // other problem of the body is refused outright.
  const inArgs = problems.filter((p) => p.path === "/arguments" || p.path.startsWith("/arguments/"));
  if (inArgs.length < problems.length) throw inputError(problems.filter((p) => !inArgs.includes(p)));
  const sent = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const body = parseWith(RunBody, inArgs.length ? { ...sent, arguments: {} } : data, "request body");
  const idempotencyKey = req.headers.get("idempotency-key") ?? undefined;
  const keyProblem = idempotencyKey === undefined ? null : idempotencyKeyProblem(idempotencyKey);
  if (keyProblem) throw inputError([{ path: "Idempotency-Key", message: `the Idempotency-Key header ${keyProblem}` }]);
  const studio = await getStudio();
  if (!(await studio.registry.get(name))) return errorResponse("not_found", `No tool named "${name}" is registered.`);
  const base = {
    tool: name,
    arguments: inArgs.length ? storableCopy(sent.arguments) : (body.arguments ?? {}),
    // Inspected already (readJsonChecked): `[]` tells execute not to walk them again.
    inputProblems: inArgs.map((p) => ({ path: p.path.replace(/^\/arguments/, ""), message: p.message })),
    timeoutMs: body.timeoutMs,
    replayOf: body.replayOf,
    origin: restOrigin(principal, req.headers),
    actor: principal.actor,
    actorId: principal.userId,
    tokenId: principal.tokenId,
    role: principal.role,
    confirmed: body.confirm === true,
    requireConfirmation: true,
    agent: body.agent,
    idempotencyKey,
    // A caller who went away cancels the run, unless it sent a key: it said it would come back for
    // the run (a dropped connection's retry must find it, not a cancelled one). POST /api/runs/{id}/cancel still cancels it.
    signal: idempotencyKey === undefined ? req.signal : undefined,
  } as const;

  if (body.priority !== undefined && body.mode !== "async")
    throw inputError([{ path: "/priority", message: 'applies to queued runs only: send "mode": "async" with it' }]);
  if (body.mode === "async") {
    // The caller's request may end now: the queued run must not be cancelled with it.
    const run = await studio.enqueue({ ...base, signal: undefined, priority: body.priority });
    if (run.status !== "queued") return runResponse(run);
    return Response.json(
      { run },
      { status: 202, headers: { Location: `/api/runs/${run.id}`, ...(run.idempotentReplay ? { "idempotent-replayed": "true" } : {}) } },
    );
  }

  if ((req.headers.get("accept") ?? "").includes("application/x-ndjson")) return stream(studio.execute, base);

  const run = await studio.execute(base);
  return runResponse(run);
});

function runResponse(run: Run): Response {
  // The answer to a retry is the first run, marked so (the IETF Idempotency-Key draft leaves the header name open; Stripe's is used).
  const headers: Record<string, string> = run.idempotentReplay ? { "idempotent-replayed": "true" } : {};
  if (run.status === "rejected" && run.error) {
    return Response.json({ error: run.error, run }, { status: statusOf(run.error.kind), headers });
  }
  return Response.json({ run }, { headers });
}

type Execute = Awaited<ReturnType<typeof getStudio>>["execute"];

function stream(execute: Execute, base: Parameters<Execute>[0]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: object) => {
        try {
          controller.enqueue(encoder.encode(JSON.stringify(event) + "\n"));
        } catch {
          // the client went away; the run still finishes and is captured
        }
      };
      try {
        const run = await execute({
          ...base,
          onStart: (runId) => send({ type: "started", runId }),
          onProgress: (p) => send({ type: "progress", ...p }),
          // A server asks for input (elicitation, sampling): answered through POST /api/runs/{id}/input.
          onInput: (e) => send(e),
        });
        send({ type: "run", run });
      } catch (err) {
        const res = toErrorResponse(err);
        send({ type: "error", status: res.status, ...(await res.json()) });
      }
      try {
        controller.close();
      } catch {
        // already closed by the client going away
      }
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
}
