import { StudioError } from "@/lib/errors/errors";

/** The StudioError (what the API answers as it says) `p` fails with; anything else fails the test. */
export async function httpFailure(p: Promise<unknown> | (() => unknown)): Promise<StudioError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (StudioError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}
