import { HttpError } from "@/lib/http/http";

/** The HttpError `p` (a promise, or a function called now) fails with; anything else fails the test. */
export async function httpFailure(p: Promise<unknown> | (() => unknown)): Promise<HttpError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}
