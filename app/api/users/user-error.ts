import { isUserInputError } from "@/lib/auth/users";
import { HttpError } from "@/lib/http/http";

/** A UserAdmin refusal as the API's error: which field, what was expected. */
export function userError(err: unknown): never {
  if (isUserInputError(err)) {
    const kind = err.status === 404 ? "not_found" : err.status === 409 ? "conflict" : "bad_request";
    throw new HttpError(err.status, kind, err.field ? `${err.field} ${err.message}` : err.message, err.field ? [{ path: err.field, message: err.message }] : undefined);
  }
  throw err;
}
