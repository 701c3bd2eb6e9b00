// Before any verb runs a call: the tool found, an Idempotency-Key already used answered with its
// run, every check applied, and a refused call captured as `rejected`.
import { randomUUID } from "node:crypto";
import type { RunStart } from "../runs/store";
import type { Run } from "../runs/types";
import type { RegisteredTool } from "../tools/define";
import { specHash } from "../tools/hash";
import type { ToolSpec } from "../tools/spec";
import { isKeyTaken, priorRun } from "./idempotency";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, UnknownToolError, type CallRequest, type ExecuteDeps } from "./request";
import { checkArguments, checkConfirmation, checkDomains, checkInput, checkPolicy, inspected } from "./checks";
import { errorOf } from "./invoke";
import { notify } from "./observers";

export type Prepared = { run: Run } | { tool: RegisteredTool; start: RunStart; timeoutMs: number };

/** Finds the tool and applies every check; a refused call is captured as `rejected` here. */
export async function prepare(deps: ExecuteDeps, req: CallRequest): Promise<Prepared> {
  const tool = await deps.registry.get(req.tool);
  if (!tool) throw new UnknownToolError(req.tool);
  if (req.idempotencyKey) {
    const prior = await priorRun(deps.runs, { actor: req.actor, key: req.idempotencyKey, tool: tool.spec.name, arguments: req.arguments ?? {} });
    if (prior) return { run: { ...prior, idempotentReplay: true } };
  }

  const timeoutMs = Math.min(Math.max(req.timeoutMs ?? tool.spec.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1), MAX_TIMEOUT_MS);
  const input = inspected(req);
  const start: RunStart = {
    id: randomUUID(),
    toolName: tool.spec.name,
    toolSource: tool.spec.source.id,
    toolSpecHash: hashOfSpec(tool.spec),
    arguments: input.arguments,
    timeoutMs,
    startedAt: new Date(),
    actor: req.actor,
    actorId: req.actorId ?? null,
    tokenId: req.tokenId ?? null,
    agent: req.agent,
    origin: req.origin,
    clientName: req.clientName,
    replayOf: req.replayOf,
  };

  const rejection =
    checkInput(input.problems) ??
    checkPolicy(deps, req, tool.spec) ??
    checkConfirmation(req, tool.spec) ??
    checkArguments(tool, start.arguments) ??
    (await checkDomains(deps.domains, tool, start));
  if (rejection) {
    const run = await deps.runs.record(start, { status: "rejected", finishedAt: new Date(), error: errorOf(rejection) });
    return { run: await notify(deps, run, tool.spec) };
  }
  // Only a call that starts carries its key: a refused one ran nothing, and its retry is checked again.
  if (req.idempotencyKey) start.idempotencyKey = req.idempotencyKey;
  return { tool, start, timeoutMs };
}

// A spec object is never changed once listed (a changed tool is a new object), so its hash is
// computed once, not on every run (an MCP tool's schemas can be large).
const specHashes = new WeakMap<ToolSpec, string>();
function hashOfSpec(spec: ToolSpec): string {
  let h = specHashes.get(spec);
  if (h === undefined) {
    // Availability is the server's state, not part of the definition that was called.
    h = specHash({ ...spec, unavailable: undefined });
    specHashes.set(spec, h);
  }
  return h;
}

/**
 * A start refused because another request with the same Idempotency-Key got there first (on any
 * instance): that request's run is the answer. Any other failure is passed on.
 */
export async function sameKeyRun(deps: ExecuteDeps, req: Pick<CallRequest, "arguments">, start: RunStart, err: unknown): Promise<Run> {
  if (!start.idempotencyKey || !isKeyTaken(err)) throw err;
  const prior = await priorRun(deps.runs, { actor: start.actor, key: start.idempotencyKey, tool: start.toolName, arguments: req.arguments ?? {} });
  if (!prior) throw err;
  return { ...prior, idempotentReplay: true };
}
