import { describe, expect, it } from "vitest";
import { answerInput, openInput, pendingInputs, type InputRelay, type InputRequest } from "./pending-input";

const form: InputRequest = {
  kind: "elicitation",
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
};
const owner = { actor: "agent", actorId: null };

/** A relay whose client answers with `answer` (or fails with `fail`) when `go` is called; records the signal it got. */
function relay(result: { action: "accept"; content: Record<string, unknown> } | Error) {
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  const seen: { signal?: AbortSignal; params?: Record<string, unknown> } = {};
  const r: InputRelay = {
    kinds: { elicitation: true, sampling: false },
    async ask(_view, params, signal) {
      seen.signal = signal;
      seen.params = params;
      await gate;
      if (result instanceof Error) throw result;
      return { answer: result, relayed: { kind: "elicitation", result: { ...result } } };
    },
  };
  return { r, go, seen };
}

describe("a request for input relayed to the call's MCP client", () => {
  it("waits like a person's request (listed for the run) and is settled by the client's answer, handed back as it was sent", async () => {
    const { r, go, seen } = relay({ action: "accept", content: { name: "Ada", extra: 1 } });
    const p = openInput({
      runId: "run-relay-1",
      server: "s",
      owner,
      request: form,
      signal: new AbortController().signal,
      relay: { relay: r, params: { message: "Name?", x: 1 } },
    });
    expect(pendingInputs("run-relay-1")).toHaveLength(1);
    expect(seen.params).toEqual({ message: "Name?", x: 1 });
    go();
    const out = await p;
    expect(out).toMatchObject({
      outcome: "answered",
      answer: { action: "accept" },
      relayed: { kind: "elicitation", result: { action: "accept", content: { name: "Ada", extra: 1 } } },
    });
    expect(pendingInputs("run-relay-1")).toEqual([]);
  });

  it("a client that fails to answer ends the request as cancelled, with why", async () => {
    const { r, go } = relay(new Error("client said no"));
    const p = openInput({ runId: "run-relay-2", server: "s", owner, request: form, signal: new AbortController().signal, relay: { relay: r, params: {} } });
    go();
    expect(await p).toEqual({ answer: null, outcome: "cancelled", relayError: "client said no" });
  });

  it("answered otherwise first (a person, the run's end, the timeout): the request to the client is withdrawn", async () => {
    const { r, go, seen } = relay({ action: "accept", content: { name: "late" } });
    const p = openInput({ runId: "run-relay-3", server: "s", owner, request: form, signal: new AbortController().signal, relay: { relay: r, params: {} } });
    const [view] = pendingInputs("run-relay-3");
    expect(answerInput("run-relay-3", view.id, { action: "decline" })).toEqual({ kind: "answered" });
    expect(seen.signal?.aborted).toBe(true);
    go();
    expect(await p).toEqual({ answer: { action: "decline" }, outcome: "answered" });

    const timed = relay({ action: "accept", content: {} });
    const t = openInput({
      runId: "run-relay-4",
      server: "s",
      owner,
      request: form,
      signal: new AbortController().signal,
      timeoutMs: 20,
      relay: { relay: timed.r, params: {} },
    });
    expect(await t).toEqual({ answer: null, outcome: "timeout" });
    expect(timed.seen.signal?.aborted).toBe(true);
    timed.go();
  });
});
