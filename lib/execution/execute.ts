// Execution by verb: run now (run-now.ts), enqueue (enqueue.ts), claim (claim.ts, a worker's),
// delegate (delegate.ts, a run whose tool another process holds), store the outcome
// (store-outcome.ts); each over the small typed request of request.ts, after prepare.ts (the
// tool, the Idempotency-Key, the checks of checks.ts) and around invoke.ts (the call itself).
// Callers import the verbs from here.
export * from "./request";
export { executeTool } from "./run-now";
export { enqueueTool } from "./enqueue";
export { runQueued } from "./claim";
export { FINISH_RETRY_MS } from "./store-outcome";
export { PROGRESS_WRITE_MS } from "./progress";
