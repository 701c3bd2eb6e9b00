import { randomUUID } from "node:crypto";
import {
  inputRequired,
  inputResponse,
  type ElicitRequestFormParams,
  type InputRequests,
  type InputResponses,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { needsConfirmation } from "../auth/policy";
import { inputTimeoutMs } from "../execution/pending-input";
import { canonicalJson, sha256Hex } from "../tools/hash";
import type { ToolSpec } from "../tools/spec";

/**
 * A destructive tool (destructiveHint, not read-only) called through /api/mcp follows the rule of
 * REST, where the caller must send `"confirm": true`: an MCP client confirms through elicitation,
 * which puts the question to its user. A 2025-era session is asked on the call itself; a
 * 2026-07-28 client gets `input_required` with the question, and its retry carries the answer
 * and the `requestState` named here. A client that did not declare elicitation cannot confirm, so
 * the call is refused with the reason (execution captures it as a rejected run).
 */

/** The key of the question in `inputRequests`, and the prefix that tells its requestState from an input flow's. */
const KEY = "confirm";
const STATE_PREFIX = "confirm:";
/** How long a question waits for the client's retry. */
const ASKED_KEEP_MS = 5 * 60_000;

/** What a call's confirmation came to: asked now (answer with this), or settled (confirmed or not, and how to say why). */
export type Confirmation = { ask: ReturnType<typeof inputRequired> } | { confirmed: boolean; how: string };

interface Asked {
  actor: string;
  tool: string;
  args: string;
  expires: number;
}

// Questions put to 2026-07-28 clients, by their random requestState (nothing in it to forge); each answers once.
const asked = new Map<string, Asked>();

export const isConfirmationState = (state: string): boolean => state.startsWith(STATE_PREFIX);

const NO_ELICITATION =
  "an MCP client confirms a destructive tool through elicitation: declare the elicitation capability (form mode) and answer the question the studio asks";

function question(spec: ToolSpec, args: unknown): ElicitRequestFormParams {
  const shown = JSON.stringify(args) ?? "{}";
  return {
    mode: "form",
    message: `Run ${spec.name}? It is marked destructive (destructiveHint). Arguments: ${shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}`,
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: `Run ${spec.name}`, description: "Check to run the tool with these arguments.", default: false } },
      required: ["confirm"],
    },
  };
}

/** An elicitation result that confirms: accepted, with `confirm: true` (an empty accept is not a yes). */
function confirms(result: { action?: unknown; content?: unknown }): boolean {
  const content = result.content as { confirm?: unknown } | undefined;
  return result.action === "accept" && content?.confirm === true;
}

/**
 * Settles the confirmation of a call of `spec` by `actor`: not needed (confirmed), asked now, or
 * answered (by the retry whose `state` names the question). `elicitation`: the client declared it.
 */
export async function confirmCall(
  ctx: ServerContext,
  call: { spec: ToolSpec | undefined; actor: string; args: unknown; elicitation: boolean; modern: boolean; state?: string },
): Promise<Confirmation> {
  const { spec } = call;
  if (!spec || !needsConfirmation(spec)) return { confirmed: true, how: "" };
  if (!call.elicitation) return { confirmed: false, how: NO_ELICITATION };
  const args = sha256Hex(canonicalJson(call.args ?? {}));
  if (!call.modern) {
    try {
      const result = await ctx.mcpReq.elicitInput(question(spec, call.args), { signal: ctx.mcpReq.signal, timeout: inputTimeoutMs() });
      return { confirmed: confirms(result), how: "the client's user did not confirm it" };
    } catch (err) {
      return { confirmed: false, how: `the client did not confirm it (${err instanceof Error ? err.message : String(err)})` };
    }
  }
  if (call.state === undefined) {
    const now = Date.now();
    for (const [k, v] of asked) if (v.expires < now) asked.delete(k);
    const token = `${STATE_PREFIX}${randomUUID()}`;
    asked.set(token, { actor: call.actor, tool: spec.name, args, expires: now + ASKED_KEEP_MS });
    const inputRequests = { [KEY]: { method: "elicitation/create", params: question(spec, call.args) } } as InputRequests;
    return { ask: inputRequired({ inputRequests, requestState: token }) };
  }
  const found = asked.get(call.state);
  asked.delete(call.state);
  if (!found || found.expires < Date.now() || found.actor !== call.actor || found.tool !== spec.name || found.args !== args) {
    return {
      confirmed: false,
      how: "the requestState names no confirmation asked here for this caller, tool and arguments (it expired after 5 minutes, was used, or was asked by another instance): call the tool again without requestState",
    };
  }
  const responses = (ctx.mcpReq.inputResponses ?? {}) as InputResponses;
  if (!(KEY in responses)) return { confirmed: false, how: `the retry carried no answer under inputResponses.${KEY}` };
  const r = inputResponse(responses, KEY);
  return {
    confirmed: r.kind === "elicit" && confirms({ action: r.action, content: r.action === "accept" ? r.content : undefined }),
    how: "the client's user did not confirm it",
  };
}
