// What the studio answers when a server asks its client for something during a call: elicitation
// (a form, or a URL to open) and sampling go to the person who started the run (through
// ToolContext.requestInput, lib/execution/pending-input.ts); roots come from the server's config.
import { ProtocolError } from "@modelcontextprotocol/client";
import type { InputRequest, SamplingMessageView } from "../execution/pending-input";
import type { ToolContext } from "../tools/define";
import type { JsonSchema } from "../tools/spec";
import { CLIENT_TASK_CAPABILITIES } from "./client-tasks";
import { isObject } from "./mapping";

/**
 * What the studio declares to every server: form and URL elicitation, sampling (a person writes
 * the reply), roots. Roots without listChanged: a server whose roots change in the config is
 * reconnected (McpManager restarts a changed entry), so it asks again. Tasks (2025-11-25): a
 * server may send elicitation and sampling as tasks (lib/mcp/client-tasks.ts).
 */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
  tasks: CLIENT_TASK_CAPABILITIES,
} as const;

/** The JSON-RPC error code the spec gives a sampling request the user rejected. */
export const USER_REJECTED = -1;

const MAX_MESSAGE_CHARS = 20_000;
const clip = (s: string, max = MAX_MESSAGE_CHARS) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** http(s) only: any other scheme (javascript:, data:, file:) is never offered as a link. */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

/** `elicitation/create` params to a request for input; a string when it cannot be shown (why). */
export function toElicitation(params: unknown): InputRequest | string {
  if (!isObject(params) || typeof params.message !== "string") return "the request has no message";
  const message = clip(params.message);
  if (params.mode === "url") {
    if (typeof params.url !== "string" || !isWebUrl(params.url)) return "the URL is not an http(s) URL";
    const elicitationId = typeof params.elicitationId === "string" ? params.elicitationId : undefined;
    return { kind: "elicitation", mode: "url", message, url: params.url, elicitationId };
  }
  if (params.mode !== undefined && params.mode !== "form") return `unknown elicitation mode "${String(params.mode)}"`;
  if (!isObject(params.requestedSchema) || params.requestedSchema.type !== "object") return "the requested schema is not an object schema";
  return { kind: "elicitation", mode: "form", message, requestedSchema: params.requestedSchema as JsonSchema };
}

function contentText(c: unknown): string {
  if (Array.isArray(c)) return c.map(contentText).join("\n");
  if (!isObject(c)) return "";
  if (c.type === "text" && typeof c.text === "string") return c.text;
  return `[${String(c.type)}${typeof c.mimeType === "string" ? ` ${c.mimeType}` : ""}]`;
}

/** `sampling/createMessage` params to a request for input; a string when it cannot be shown. */
export function toSampling(params: unknown): InputRequest | string {
  if (!isObject(params) || !Array.isArray(params.messages)) return "the request has no messages";
  const messages: SamplingMessageView[] = params.messages
    .filter(isObject)
    .map((m) => ({ role: m.role === "assistant" ? "assistant" : "user", text: clip(contentText(m.content)) }));
  const hints = isObject(params.modelPreferences) && Array.isArray(params.modelPreferences.hints) ? params.modelPreferences.hints : [];
  const hint = hints.find((h): h is { name: string } => isObject(h) && typeof h.name === "string");
  return {
    kind: "sampling",
    messages,
    ...(typeof params.systemPrompt === "string" ? { systemPrompt: clip(params.systemPrompt) } : {}),
    ...(typeof params.maxTokens === "number" ? { maxTokens: params.maxTokens } : {}),
    ...(hint ? { modelHint: clip(hint.name, 200) } : {}),
  };
}

/** The model name a reply written by a person carries, unless they name one. */
export const HUMAN_MODEL = "human-in-the-loop (tool-studio)";

type ElicitValue = string | number | boolean | string[];
/** An `elicitation/create` result. */
export type ElicitAnswer = { action: "accept" | "decline" | "cancel"; content?: Record<string, ElicitValue> };
/** A `sampling/createMessage` result (text only: a person wrote it). */
export type SamplingAnswer = { role: "assistant"; content: { type: "text"; text: string }; model: string; stopReason: "endTurn" };

/** Form values as the protocol carries them (the answer was validated against the requested schema already). */
function elicitContent(content: Record<string, unknown>): Record<string, ElicitValue> {
  const out: Record<string, ElicitValue> = {};
  for (const [k, v] of Object.entries(content)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[k] = v;
  }
  return out;
}

/**
 * Asks the run's caller to answer a server's `elicitation/create`: accept (with the form's
 * content), decline or cancel; cancel when nobody answered in time or the run ended; decline
 * when the request cannot be shown or has nobody to ask (`request`/`target` a string: why).
 */
export async function askElicitation(
  request: InputRequest | string,
  target: ToolContext | string,
  server: string,
  signal: AbortSignal,
  params?: Record<string, unknown>,
): Promise<ElicitAnswer> {
  if (typeof request === "string" || typeof target === "string" || !target.requestInput || target.asks?.elicitation === false) return { action: "decline" };
  const { answer, relayed } = await target.requestInput(request, { server, signal, params });
  // Relayed to the call's MCP client: its answer goes back as it sent it (the SDK checked its shape).
  if (relayed?.kind === "elicitation") return relayed.result as ElicitAnswer;
  if (!answer) return { action: "cancel" };
  if (answer.action === "accept") return answer.content ? { action: "accept", content: elicitContent(answer.content) } : { action: "accept" };
  return { action: answer.action === "decline" ? "decline" : "cancel" };
}

/**
 * Asks the run's caller to write (or edit) and approve the reply to a server's
 * `sampling/createMessage`; no model is called. A rejected, unanswered or unanswerable request
 * is a JSON-RPC error (code -1, as the spec has it for a rejection).
 */
export async function askSampling(
  request: InputRequest | string,
  target: ToolContext | string,
  server: string,
  signal: AbortSignal,
  params?: Record<string, unknown>,
): Promise<SamplingAnswer> {
  const refuse = (why: string) => new ProtocolError(USER_REJECTED, `The studio cannot answer this sampling request: ${why}.`);
  if (typeof request === "string") throw refuse(request);
  if (typeof target === "string") throw refuse(target);
  if (!target.requestInput || target.asks?.sampling === false) throw refuse("this call has no person to ask");
  const { answer, outcome, relayed, relayError } = await target.requestInput(request, { server, signal, params });
  if (relayed?.kind === "sampling") return relayed.result as SamplingAnswer;
  if (relayError !== undefined)
    throw new ProtocolError(USER_REJECTED, `Sampling request not answered: the MCP client that made the call refused it (${relayError}).`);
  if (answer?.action === "approve") {
    return { role: "assistant", content: { type: "text", text: answer.text }, model: answer.model ?? HUMAN_MODEL, stopReason: "endTurn" };
  }
  const why = answer ? "the user rejected the request" : outcome === "timeout" ? "nobody answered in time" : "the run ended before it was answered";
  throw new ProtocolError(USER_REJECTED, `Sampling request not answered: ${why}.`);
}
