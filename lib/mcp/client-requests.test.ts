import { ProtocolError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import type { InputAnswer, InputRequest, InputResult } from "../execution/pending-input";
import type { ToolContext } from "../tools/define";
import { askElicitation, askSampling, HUMAN_MODEL, isWebUrl, toElicitation, toSampling, USER_REJECTED } from "./client-requests";
import { serverRunsToolTasks, taskProgress, taskSupportOf } from "./tasks";
import { watchedFetch } from "./transport";

const signal = new AbortController().signal;
/** A call whose caller answers `answer` (null: nobody answered, with `outcome`). */
function caller(answer: InputAnswer | null, outcome: "answered" | "timeout" | "cancelled" = "answered"): ToolContext & { asked: InputRequest[] } {
  const asked: InputRequest[] = [];
  return {
    signal,
    progress: () => {},
    runId: "r",
    actor: "ana",
    asked,
    requestInput: async (request) => {
      asked.push(request);
      return { answer, outcome };
    },
  };
}
const form: InputRequest = { kind: "elicitation", mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } };

describe("a server's requests to the studio as requests for input", () => {
  it("elicitation: form and http(s) URL mode are shown; anything else is named", () => {
    expect(toElicitation({ message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } })).toMatchObject({
      kind: "elicitation",
      mode: "form",
      message: "Name?",
    });
    expect(toElicitation({ mode: "url", message: "Open", url: "https://x.example/a", elicitationId: "e1" })).toEqual({
      kind: "elicitation",
      mode: "url",
      message: "Open",
      url: "https://x.example/a",
      elicitationId: "e1",
    });
    expect(toElicitation({ mode: "url", message: "Open", url: "javascript:alert(1)" })).toBe("the URL is not an http(s) URL");
    expect(toElicitation({ mode: "url", message: "Open", url: "file:///etc/passwd" })).toBe("the URL is not an http(s) URL");
    expect(toElicitation({ message: "x", requestedSchema: { type: "string" } })).toBe("the requested schema is not an object schema");
    expect(toElicitation({ mode: "voice", message: "x" })).toBe('unknown elicitation mode "voice"');
    expect(toElicitation(null)).toBe("the request has no message");
    expect((toElicitation({ message: "x".repeat(30_000), requestedSchema: { type: "object" } }) as { message: string }).message).toHaveLength(20_001);
    expect([isWebUrl("http://a"), isWebUrl("https://a"), isWebUrl("data:text/html,x"), isWebUrl("not a url")]).toEqual([true, true, false, false]);
  });

  it("sampling: text shown as text, other content described, the first model hint kept", () => {
    const r = toSampling({
      messages: [
        { role: "user", content: { type: "text", text: "<b>hi</b>" } },
        {
          role: "assistant",
          content: [
            { type: "text", text: "a" },
            { type: "image", mimeType: "image/png", data: "x" },
          ],
        },
        { role: "system?", content: { type: "audio" } },
        "junk",
      ],
      systemPrompt: "be brief",
      maxTokens: 10,
      modelPreferences: { hints: [{ nope: 1 }, { name: "claude" }] },
    });
    expect(r).toEqual({
      kind: "sampling",
      messages: [
        { role: "user", text: "<b>hi</b>" },
        { role: "assistant", text: "a\n[image image/png]" },
        { role: "user", text: "[audio]" },
      ],
      systemPrompt: "be brief",
      maxTokens: 10,
      modelHint: "claude",
    });
    expect(toSampling({ messages: [] })).toEqual({ kind: "sampling", messages: [] });
    expect(toSampling({})).toBe("the request has no messages");
  });

  it("elicitation answers: accept with content, decline, cancel; cancel when nobody answered; decline when nobody can be asked", async () => {
    const accept = caller({ action: "accept", content: { n: "Ada", tags: ["a"], ok: true, k: 3, skip: { nested: 1 } } });
    expect(await askElicitation(form, accept, "s", signal)).toEqual({ action: "accept", content: { n: "Ada", tags: ["a"], ok: true, k: 3 } });
    expect(accept.asked).toEqual([form]);
    expect(await askElicitation(form, caller({ action: "accept" }), "s", signal)).toEqual({ action: "accept" });
    expect(await askElicitation(form, caller({ action: "decline" }), "s", signal)).toEqual({ action: "decline" });
    expect(await askElicitation(form, caller({ action: "cancel" }), "s", signal)).toEqual({ action: "cancel" });
    expect(await askElicitation(form, caller(null, "timeout"), "s", signal)).toEqual({ action: "cancel" });
    expect(await askElicitation("bad request", caller(null), "s", signal)).toEqual({ action: "decline" });
    expect(await askElicitation(form, "no call in flight", "s", signal)).toEqual({ action: "decline" });
    expect(await askElicitation(form, { ...caller(null), requestInput: undefined }, "s", signal)).toEqual({ action: "decline" });
  });

  it("sampling answers: the approved reply (with its model, or the human one); a rejection, no answer or nobody to ask is error -1", async () => {
    const req = toSampling({ messages: [] }) as InputRequest;
    expect(await askSampling(req, caller({ action: "approve", text: "yes" }), "s", signal)).toEqual({
      role: "assistant",
      content: { type: "text", text: "yes" },
      model: HUMAN_MODEL,
      stopReason: "endTurn",
    });
    expect((await askSampling(req, caller({ action: "approve", text: "y", model: "m1" }), "s", signal)).model).toBe("m1");
    const refused = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ProtocolError);
      expect((e as ProtocolError).code).toBe(USER_REJECTED);
      return (e as Error).message;
    };
    expect(await refused(askSampling(req, caller({ action: "reject" }), "s", signal))).toContain("the user rejected the request");
    expect(await refused(askSampling(req, caller(null, "timeout"), "s", signal))).toContain("nobody answered in time");
    expect(await refused(askSampling(req, caller(null, "cancelled"), "s", signal))).toContain("the run ended before it was answered");
    expect(await refused(askSampling("the request has no messages", caller(null), "s", signal))).toContain("the request has no messages");
    expect(await refused(askSampling(req, "2 calls of different people", "s", signal))).toContain("2 calls of different people");
    expect(await refused(askSampling(req, { ...caller(null), requestInput: undefined }, "s", signal))).toContain("no person to ask");
  });
});

describe("task support", () => {
  it("reads a tool's task support and the server's tool-task capability; a task's state as progress", () => {
    expect([
      taskSupportOf({ execution: { taskSupport: "required" } }),
      taskSupportOf({ execution: { taskSupport: "optional" } }),
      taskSupportOf({ execution: {} }),
      taskSupportOf(undefined),
    ]).toEqual(["required", "optional", "forbidden", "forbidden"]);
    expect(serverRunsToolTasks({ tasks: { requests: { tools: { call: {} } } } })).toBe(true);
    expect(serverRunsToolTasks({ tasks: { list: {} } })).toBe(false);
    expect(serverRunsToolTasks(undefined)).toBe(false);
    expect(taskProgress({ taskId: "t", status: "working", statusMessage: "Gathering" }, 2)).toEqual({ progress: 2, message: "task working: Gathering" });
    expect(taskProgress({ taskId: "t", status: "completed" }, 3)).toEqual({ progress: 3, message: "task completed" });
  });
});

describe("watchedFetch (Streamable HTTP: a broken response stream is reported)", () => {
  const sse = (body: ReadableStream<Uint8Array>) => new Response(body, { headers: { "content-type": "text/event-stream" } });
  const breaking = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("data: 1\n\n"));
      },
      pull(c) {
        c.error(new TypeError("terminated"));
      },
    });

  it("reports an event stream that errors, passes the data and the error on", async () => {
    const broken: unknown[] = [];
    const f = watchedFetch(
      (e) => broken.push(e),
      async () => sse(breaking()),
    );
    const res = await f("http://x/mcp");
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    await expect(reader.read()).rejects.toThrow("terminated");
    expect(broken).toHaveLength(1);
  });

  it("does not report a stream its own request aborted, nor touch other responses; cancelling passes through", async () => {
    const broken: unknown[] = [];
    const aborted = AbortSignal.abort();
    const f = watchedFetch(
      (e) => broken.push(e),
      async () => sse(breaking()),
    );
    const reader = (await f("http://x/mcp", { signal: aborted })).body!.getReader();
    await reader.read();
    await expect(reader.read()).rejects.toThrow();
    expect(broken).toEqual([]);

    const json = new Response("{}", { headers: { "content-type": "application/json" } });
    expect(
      await watchedFetch(
        () => {},
        async () => json,
      )("http://x"),
    ).toBe(json);

    let cancelled: unknown;
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}), cancel: (r) => void (cancelled = r) });
    const res = await watchedFetch(
      () => {},
      async () => sse(endless),
    )("http://x");
    await res.body!.cancel("bye");
    expect(cancelled).toBe("bye");

    const done = await watchedFetch(
      () => {},
      async () => sse(new ReadableStream({ start: (c) => c.close() })),
    )("http://x");
    expect((await done.body!.getReader().read()).done).toBe(true);
  });
});

describe("requests relayed to the call's MCP client", () => {
  const relaying = (
    relayed: InputResult["relayed"],
    relayError?: string,
    asks = { elicitation: true, sampling: true },
  ): ToolContext & { params: unknown[] } => {
    const params: unknown[] = [];
    return {
      ...caller(null),
      asks,
      params,
      requestInput: async (_request, opts) => {
        params.push(opts.params);
        return relayed
          ? { answer: { action: "decline" }, outcome: "answered", relayed }
          : { answer: null, outcome: "cancelled", ...(relayError ? { relayError } : {}) };
      },
    };
  };

  it("the client's answer goes back to the server as it sent it; the server's params reach the relay", async () => {
    const elicit = { action: "accept", content: { a: "x", extra: ["y"] }, _meta: { k: 1 } };
    const target = relaying({ kind: "elicitation", result: elicit });
    expect(await askElicitation(form, target, "s", signal, { message: "m", requestedSchema: { type: "object" } })).toEqual(elicit);
    expect(target.params).toEqual([{ message: "m", requestedSchema: { type: "object" } }]);
    const sampled = { role: "assistant", content: [{ type: "image", data: "AA==", mimeType: "image/png" }], model: "m1", stopReason: "endTurn" };
    const req = toSampling({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] });
    expect(await askSampling(req, relaying({ kind: "sampling", result: sampled }), "s", signal, {})).toEqual(sampled);
  });

  it("a client that failed to answer: sampling refused with -1 and why; kinds the client did not declare are refused at once", async () => {
    const req = toSampling({ messages: [] });
    const err = await askSampling(req, relaying(undefined, "boom"), "s", signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(USER_REJECTED);
    expect((err as ProtocolError).message).toContain("boom");
    const onlySampling = relaying(undefined, undefined, { elicitation: false, sampling: true });
    expect(await askElicitation(form, onlySampling, "s", signal)).toEqual({ action: "decline" });
    expect(onlySampling.params).toEqual([]);
    const onlyElicitation = relaying(undefined, undefined, { elicitation: true, sampling: false });
    await expect(askSampling(req, onlyElicitation, "s", signal)).rejects.toBeInstanceOf(ProtocolError);
    expect(onlyElicitation.params).toEqual([]);
  });
});
