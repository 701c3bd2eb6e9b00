// The API's side of a run's requests for input (GET and POST /api/runs/{id}/input): who may read
// and answer them, the answer's shape, the audit entry. The waiting itself is pending-input.ts.
import { z } from "zod";
import type { AuditLog } from "../audit/log";
import { HttpError } from "../http/http";
import type { RunStore } from "../runs/store";
import {
  answerInput,
  auditSummary,
  checkAnswer,
  inputAccess,
  MAX_SAMPLING_TEXT,
  pendingInput,
  pendingInputs,
  type InputAnswer,
  type PendingInputView,
} from "./pending-input";

const inputId = z.uuid();
/** The body of POST /api/runs/{id}/input. */
export const InputAnswerBody = z.discriminatedUnion("action", [
  z.strictObject({ inputId, action: z.literal("accept"), content: z.record(z.string(), z.unknown()).optional() }),
  z.strictObject({ inputId, action: z.literal("decline") }),
  z.strictObject({ inputId, action: z.literal("cancel") }),
  z.strictObject({ inputId, action: z.literal("approve"), text: z.string().max(MAX_SAMPLING_TEXT), model: z.string().min(1).max(200).optional() }),
  z.strictObject({ inputId, action: z.literal("reject") }),
]);
export type InputAnswerBody = z.infer<typeof InputAnswerBody>;

export interface InputCaller {
  actor: string;
  userId: string | null;
  role: string;
  /** Where the request came from, for the audit entry. */
  from?: string | null;
}

/** What a run waits for: `input_required` with its requests, or its status when it waits for none here. */
export async function readRunInput(runs: Pick<RunStore, "get">, runId: string, caller: InputCaller): Promise<{ state: string; inputs: PendingInputView[] }> {
  const access = inputAccess(runId, caller);
  if (access.kind === "forbidden") throw new HttpError("forbidden", access.message);
  if (access.kind === "ok") return { state: "input_required", inputs: pendingInputs(runId) };
  const run = await runs.get(runId);
  if (!run) throw new HttpError("not_found", `No run with id "${runId}".`);
  return { state: run.status, inputs: [] };
}

/**
 * Answers one of a run's requests for input: only its caller or an admin (403), only a request it
 * still waits on (409), an answer that fits the request (400 with field errors); audited as
 * `run.input` before the server hears it.
 */
export async function answerRunInput(
  deps: { runs: Pick<RunStore, "get">; audit: Pick<AuditLog, "append"> },
  runId: string,
  body: InputAnswerBody,
  caller: InputCaller,
): Promise<{ answered: true; inputId: string; action: InputAnswer["action"] }> {
  const access = inputAccess(runId, caller);
  if (access.kind === "forbidden") throw new HttpError("forbidden", access.message);
  const view = pendingInput(runId, body.inputId);
  if (access.kind === "none") {
    if (!(await deps.runs.get(runId))) throw new HttpError("not_found", `No run with id "${runId}".`);
    throw new HttpError("conflict", access.message);
  }
  if (!view) throw new HttpError("conflict", `Run ${runId} has no pending request ${body.inputId} (answered, timed out or withdrawn).`);
  const { inputId: id, ...sent } = body;
  const answer = checkAnswer(view, sent);
  const run = await deps.runs.get(runId);
  await deps.audit.append({
    actor: caller.actor,
    action: "run.input",
    target: run?.tool ?? null,
    detail: { ...auditSummary(view, answer), userId: caller.userId ?? undefined },
    from: caller.from ?? null,
  });
  if (answerInput(runId, id, answer).kind === "not_found")
    throw new HttpError("conflict", `The request ${id} ended (timed out or withdrawn) before the answer arrived.`);
  return { answered: true, inputId: id, action: answer.action };
}
