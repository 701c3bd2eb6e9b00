// Requests for input a server sends during a run (MCP elicitation and sampling): each belongs to
// the run whose call it arrived for, waits here (in the process running the run) until the run's
// caller answers it through POST /api/runs/{id}/input, and ends cleanly when nobody does.
import { processSlot } from "../process/slots";
import { randomUUID } from "node:crypto";
import { ToolError } from "../tools/errors";
import type { FieldError } from "../tools/errors";
import type { JsonSchema } from "../tools/spec";
import { describeFieldErrors, SchemaCompileError, validate } from "../schema/validate";

/** One message of a sampling request, as the server sent it (content is untrusted). */
export interface SamplingMessageView {
  role: "user" | "assistant";
  /** Text content as the server sent it; other kinds are described (e.g. "[image image/png]"). */
  text: string;
}

/** What a server asks for, in the studio's words (everything in it came from the server: untrusted). */
export type InputRequest =
  | { kind: "elicitation"; mode: "form"; message: string; requestedSchema: JsonSchema }
  | { kind: "elicitation"; mode: "url"; message: string; url: string; elicitationId?: string }
  | { kind: "sampling"; messages: SamplingMessageView[]; systemPrompt?: string; maxTokens?: number; modelHint?: string };

/** The caller's answer. Elicitation: accept (with the form's content), decline or cancel. Sampling: approve a reply, or reject. */
export type InputAnswer =
  | { action: "accept"; content?: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" }
  | { action: "approve"; text: string; model?: string }
  | { action: "reject" };

/**
 * A request relayed to the MCP client that made the call through /api/mcp, and that client's
 * answer exactly as it sent it (the SDK checked its shape): handed back to the server unchanged.
 */
export type RelayedAnswer = { kind: "elicitation"; result: Record<string, unknown> } | { kind: "sampling"; result: Record<string, unknown> };

/**
 * Relays a run's requests for input to the MCP client that called through /api/mcp (it declared
 * elicitation and/or sampling): `ask` sends the server's request as it came (`params`) and resolves
 * with the client's answer (`answer` in the studio's words, for the events and the audit).
 */
export interface InputRelay {
  kinds: { elicitation: boolean; sampling: boolean };
  ask(view: PendingInputView, params: Record<string, unknown>, signal: AbortSignal): Promise<{ answer: InputAnswer; relayed: RelayedAnswer }>;
}

/** How a request for input ended: answered, timed out (nobody answered), or the run ended first. */
export type InputOutcome = "answered" | "timeout" | "cancelled";

/** A request for input as the API and the UI see it. */
export type PendingInputView = InputRequest & {
  id: string;
  runId: string;
  /** The MCP server that asked. */
  server: string;
  createdAt: string;
  /** When it ends unanswered (ISO time). */
  expiresAt: string;
};

/** What a run's caller hears about its requests for input (the NDJSON stream's `input` and `input_resolved` events). */
export type InputEvent =
  | { type: "input"; input: PendingInputView }
  | { type: "input_resolved"; runId: string; inputId: string; outcome: InputOutcome; action?: InputAnswer["action"] };

/** Who may answer a run's requests: its caller (by user id, else by actor name) or an admin. */
export interface RunOwner {
  actor: string;
  actorId: string | null;
}

/** How long a request for input waits for an answer (STUDIO_INPUT_TIMEOUT_MS, default 5 min); the run's own timeout is paused meanwhile. */
export function inputTimeoutMs(): number {
  const v = Number(process.env.STUDIO_INPUT_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : 5 * 60_000;
}

/** Longest reply text a sampling answer may carry. */
export const MAX_SAMPLING_TEXT = 100_000;

interface Entry {
  view: PendingInputView;
  owner: RunOwner;
  settle(answer: InputAnswer | null, outcome: InputOutcome, relayed?: RelayedAnswer): void;
}

/** runId -> inputId -> entry. One per process for the same reason as active-runs.ts. */
const pending = processSlot<Map<string, Map<string, Entry>>>("pendingInputs").use(() => new Map());

export interface OpenInput {
  runId: string;
  server: string;
  owner: RunOwner;
  request: InputRequest;
  /** The run's signal: when it aborts (cancel, timeout) the request ends as `cancelled`. */
  signal: AbortSignal;
  /** The server withdrew the request (its own cancel). */
  serverSignal?: AbortSignal;
  timeoutMs?: number;
  onEvent?(event: InputEvent): void;
  /**
   * Also ask the MCP client of the call (relay): its answer settles the request like a person's
   * (whichever comes first); its request is withdrawn (aborted) when the request ends otherwise.
   * A client that fails to answer ends the request as `cancelled`, with `relayError` saying why.
   */
  relay?: { relay: InputRelay; params: Record<string, unknown> };
}

/** What openInput resolves with. */
export interface InputResult {
  answer: InputAnswer | null;
  outcome: InputOutcome;
  /** The relayed client's answer as it sent it, when it answered. */
  relayed?: RelayedAnswer;
  /** Why the relayed client gave no answer (its error). */
  relayError?: string;
}

/**
 * Opens a request for input on a run and waits for its answer. Resolves with the caller's answer,
 * or with null when nobody answered in time or the run (or the server) ended it: the caller of
 * this then answers the server with cancel (elicitation) or an error (sampling).
 */
export function openInput(o: OpenInput): Promise<InputResult> {
  const id = randomUUID();
  const timeoutMs = o.timeoutMs ?? inputTimeoutMs();
  const now = Date.now();
  const view = {
    ...o.request,
    id,
    runId: o.runId,
    server: o.server,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + timeoutMs).toISOString(),
  } as PendingInputView;
  return new Promise((resolve) => {
    let done = false;
    const byRun = pending.get(o.runId) ?? new Map<string, Entry>();
    pending.set(o.runId, byRun);
    const onAbort = () => settle(null, "cancelled");
    const timer = setTimeout(() => settle(null, "timeout"), timeoutMs);
    timer.unref?.();
    const relayAbort = new AbortController();
    let relayError: string | undefined;
    function settle(answer: InputAnswer | null, outcome: InputOutcome, relayed?: RelayedAnswer) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      relayAbort.abort();
      o.signal.removeEventListener("abort", onAbort);
      o.serverSignal?.removeEventListener("abort", onAbort);
      byRun.delete(id);
      if (!byRun.size && pending.get(o.runId) === byRun) pending.delete(o.runId);
      o.onEvent?.({ type: "input_resolved", runId: o.runId, inputId: id, outcome, ...(answer ? { action: answer.action } : {}) });
      resolve({ answer, outcome, ...(relayed ? { relayed } : {}), ...(relayError !== undefined && !answer ? { relayError } : {}) });
    }
    byRun.set(id, { view, owner: o.owner, settle });
    if (o.signal.aborted || o.serverSignal?.aborted) return onAbort();
    o.signal.addEventListener("abort", onAbort, { once: true });
    o.serverSignal?.addEventListener("abort", onAbort, { once: true });
    o.onEvent?.({ type: "input", input: view });
    if (o.relay) {
      o.relay.relay.ask(view, o.relay.params, relayAbort.signal).then(
        (r) => settle(r.answer, "answered", r.relayed),
        (err: unknown) => {
          relayError = err instanceof Error ? err.message : String(err);
          settle(null, "cancelled");
        },
      );
    }
  });
}

/** The requests for input a run waits on in this process (oldest first). */
export function pendingInputs(runId: string): PendingInputView[] {
  return [...(pending.get(runId)?.values() ?? [])].map((e) => e.view);
}

/** Who may answer the requests of a run waiting here; undefined when it waits on none. */
export function pendingOwner(runId: string): RunOwner | undefined {
  return pending.get(runId)?.values().next().value?.owner;
}

/**
 * The one rule for acting on someone's run (answering its requests for input, cancelling it): the
 * run's own caller (same user, or the same actor when there is no user) or an admin.
 */
export function mayActOnRun(owner: RunOwner, caller: { actor: string; userId: string | null; role: string }): boolean {
  if (caller.role === "admin") return true;
  if (owner.actorId) return caller.userId === owner.actorId;
  return caller.actor === owner.actor;
}

/**
 * Checks an answer against the request it answers: the action fits the kind, accepted form content
 * matches the requested schema, a sampling reply is text within limits. Throws ToolError
 * `invalid_args` (with field errors) otherwise.
 */
export function checkAnswer(request: InputRequest, answer: InputAnswer): InputAnswer {
  const bad = (message: string, fields: FieldError[] = []) => new ToolError("invalid_args", message, { fields });
  if (request.kind === "sampling") {
    if (answer.action === "reject") return answer;
    if (answer.action !== "approve")
      throw bad(`A sampling request is answered with "approve" (with the reply's text) or "reject", not "${answer.action}".`, [
        { path: "/action", message: "must be approve or reject" },
      ]);
    if (!answer.text.trim())
      throw bad("The reply is empty: write the reply to send, or reject the request.", [{ path: "/text", message: "must not be empty" }]);
    if (answer.text.length > MAX_SAMPLING_TEXT)
      throw bad(`The reply is longer than ${MAX_SAMPLING_TEXT} characters.`, [{ path: "/text", message: `must be at most ${MAX_SAMPLING_TEXT} characters` }]);
    return answer;
  }
  if (answer.action === "decline" || answer.action === "cancel") return answer;
  if (answer.action !== "accept")
    throw bad(`A request for input is answered with "accept", "decline" or "cancel", not "${answer.action}".`, [
      { path: "/action", message: "must be accept, decline or cancel" },
    ]);
  if (request.mode === "url") {
    // URL mode: accepting means the person agreed to open the link; no content is sent back.
    return { action: "accept" };
  }
  const content = answer.content ?? {};
  let result;
  try {
    result = validate(request.requestedSchema, content);
  } catch (err) {
    if (SchemaCompileError.isInstance(err))
      throw bad(`The server's requested schema is not a valid JSON Schema (${err.message}): decline or cancel the request.`);
    throw err;
  }
  if (!result.valid) {
    throw bad(
      `The answer does not match the requested schema: ${describeFieldErrors(result.errors)}`,
      result.errors.map((e) => ({ path: `/content${e.path}`, message: e.message })),
    );
  }
  return { action: "accept", content };
}

export type AnswerResult = { kind: "answered" } | { kind: "not_found" };

/** Answers one request of a run waiting here (checked with checkAnswer first). */
export function answerInput(runId: string, inputId: string, answer: InputAnswer): AnswerResult {
  const entry = pending.get(runId)?.get(inputId);
  if (!entry) return { kind: "not_found" };
  const checked = checkAnswer(entry.view, answer);
  entry.settle(checked, "answered");
  return { kind: "answered" };
}

/** The request a run waits on, by id (for the audit entry's summary and the route's checks). */
export function pendingInput(runId: string, inputId: string): PendingInputView | undefined {
  return pending.get(runId)?.get(inputId)?.view;
}

const SECRET_KEY = /pass(word|phrase)?|secret|token|api[-_]?key|credential|private|ssn|pin\b/i;

/**
 * What an audit entry keeps of an answer: the action, the form's fields with values under names
 * that look secret (password, token, key...) replaced by "[redacted]", a sampling reply's length.
 */
export function auditSummary(view: PendingInputView, answer: InputAnswer): Record<string, unknown> {
  const base = { runId: view.runId, inputId: view.id, server: view.server, kind: view.kind, action: answer.action };
  if (answer.action === "accept" && answer.content) {
    const content = Object.fromEntries(Object.entries(answer.content).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : v]));
    return { ...base, mode: view.kind === "elicitation" ? view.mode : undefined, content };
  }
  if (answer.action === "approve") return { ...base, replyChars: answer.text.length, model: answer.model };
  return view.kind === "elicitation" ? { ...base, mode: view.mode } : base;
}

/** Why a run's requests could not be read or answered by this caller here. */
export type InputAccess = { kind: "ok"; owner: RunOwner } | { kind: "forbidden"; message: string } | { kind: "none"; message: string };

/** May `caller` read and answer the requests `runId` waits on in this process? */
export function inputAccess(runId: string, caller: { actor: string; userId: string | null; role: string }): InputAccess {
  const owner = pendingOwner(runId);
  if (!owner)
    return {
      kind: "none",
      message: `Run ${runId} is not waiting for input here (it finished, its request was answered or ended, or another studio instance runs it).`,
    };
  if (!mayActOnRun(owner, caller))
    return { kind: "forbidden", message: `Only the caller of run ${runId} (${owner.actor}) or an admin may answer its requests for input.` };
  return { kind: "ok", owner };
}
