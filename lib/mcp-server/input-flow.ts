import { processSlot } from "../process/slots";
import { randomUUID } from "node:crypto";

/**
 * A tools/call of a 2026-07-28 client whose run asks for input (a configured server's elicitation
 * or sampling). That revision has no server-to-client requests during a call: the server answers
 * the call with an `input_required` result naming what it needs (`inputRequests`) and an opaque
 * `requestState`; the client answers them and sends the same tools/call again with
 * `inputResponses` and that `requestState` (the multi round-trip pattern). The run keeps going
 * meanwhile, in this process, waiting for input as for a person (lib/execution/pending-input.ts):
 * the flow is what links the call's successive requests to it.
 *
 * `requestState` is a random token naming the flow in this process's memory (nothing else is in
 * it, so there is nothing to forge); a retry must come from the same caller, for the same tool.
 * A retry that reaches another instance, or comes after the flow ended, finds no flow.
 */

/** An embedded request of an input_required result, as the server sent it. */
export interface FlowRequest {
  method: "elicitation/create" | "sampling/createMessage";
  params: Record<string, unknown>;
}

interface Ask<V> {
  request: FlowRequest;
  view: V;
  sent: boolean;
  resolve(result: Record<string, unknown>): void;
}

/** What a request of the call ends with: the run's outcome, or the requests to send the client. */
export type FlowStep<T> = { done: T } | { failed: unknown } | { ask: Record<string, FlowRequest> };

/** How long a finished flow waits for the retry that picks up its result. */
export const FLOW_KEEP_MS = 60_000;

const flows = processSlot<Map<string, InputFlow<unknown, unknown>>>("inputFlows").use(() => new Map());

export class InputFlow<T, V> {
  readonly token = randomUUID();
  /** The run's signal: aborted when a request attached to the flow is cancelled (the client closed it). */
  private readonly controller = new AbortController();
  private readonly asks = new Map<string, Ask<V>>();
  private outcome?: { done: T } | { failed: unknown };
  private wake?: () => void;
  private seq = 0;
  private expiry?: ReturnType<typeof setTimeout>;

  constructor(
    /** Who made the call: only they may continue it. */
    readonly owner: string,
    readonly tool: string,
  ) {
    flows.set(this.token, this as InputFlow<unknown, unknown>);
  }

  /** The flow `token` names, if it is in this process. */
  static find(token: string): InputFlow<unknown, unknown> | undefined {
    return flows.get(token);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Follows the run: its outcome ends the flow (kept a while for a retry that has not come yet). */
  follow(run: Promise<T>): void {
    run.then(
      (done) => this.end({ done }),
      (failed: unknown) => this.end({ failed }),
    );
  }

  /**
   * The run asks the client: resolves with the client's response once a retry brings it; the
   * request is dropped when `signal` aborts (answered otherwise, timed out, the run ended).
   */
  request(request: FlowRequest, view: V, signal: AbortSignal): Promise<Record<string, unknown>> {
    const key = `input-${++this.seq}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.asks.delete(key);
        reject(signal.reason instanceof Error ? signal.reason : new Error("The request for input ended."));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.asks.set(key, {
        request,
        view,
        sent: false,
        resolve: (result) => {
          signal.removeEventListener("abort", onAbort);
          this.asks.delete(key);
          resolve(result);
        },
      });
      this.wake?.();
    });
  }

  /** The requests sent to the client and not answered yet, by their key in `inputRequests`. */
  outstanding(): Map<string, { request: FlowRequest; view: V }> {
    return new Map([...this.asks].filter(([, a]) => a.sent).map(([k, a]) => [k, { request: a.request, view: a.view }]));
  }

  /** The client's (checked) response to the request `key`. */
  answer(key: string, result: Record<string, unknown>): void {
    this.asks.get(key)?.resolve(result);
  }

  /** A retry that did not answer `key`: it is sent again with the next input_required. */
  resend(key: string): void {
    const a = this.asks.get(key);
    if (a) a.sent = false;
  }

  /**
   * Waits, for one request of the call, until the run ended or asks what the client has not been
   * sent yet. If that request is cancelled meanwhile (`signal`: the client closed it), so is the run.
   */
  next(signal: AbortSignal): Promise<FlowStep<T>> {
    const onAbort = () => this.controller.abort(new Error("The MCP client closed the call."));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    return new Promise<FlowStep<T>>((resolve) => {
      const look = () => {
        if (this.outcome) {
          this.forget();
          return resolve(this.outcome);
        }
        const unsent = [...this.asks].filter(([, a]) => !a.sent);
        if (!unsent.length) return;
        for (const [, a] of unsent) a.sent = true;
        resolve({ ask: Object.fromEntries(unsent.map(([k, a]) => [k, a.request])) });
      };
      this.wake = look;
      look();
    }).finally(() => {
      this.wake = undefined;
      signal.removeEventListener("abort", onAbort);
    });
  }

  private end(outcome: { done: T } | { failed: unknown }): void {
    this.outcome = outcome;
    if (this.wake) return this.wake();
    this.expiry = setTimeout(() => this.forget(), FLOW_KEEP_MS);
    this.expiry.unref?.();
  }

  private forget(): void {
    clearTimeout(this.expiry);
    flows.delete(this.token);
  }
}
