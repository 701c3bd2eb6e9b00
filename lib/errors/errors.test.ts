import { describe, expect, it, vi } from "vitest";
import { API_ERROR_KINDS, ERROR_STATUS, isApiErrorKind, statusOf, StudioError } from "./errors";
import { ERROR_KINDS, ToolError, toToolError } from "../tools/errors";
import { HttpError, toErrorResponse } from "../http/http";
import { CursorError, RunNotRunningError } from "../runs/store";
import { UserInputError } from "../auth/users";

describe("the error model", () => {
  it("has one closed list of kinds, each with one status, and a tool's kinds are among them", () => {
    expect(API_ERROR_KINDS).toEqual(Object.keys(ERROR_STATUS));
    for (const kind of ERROR_KINDS) expect(isApiErrorKind(kind)).toBe(true);
    expect(isApiErrorKind("internal")).toBe(false);
    expect(isApiErrorKind("toString")).toBe(false);
    for (const kind of API_ERROR_KINDS) expect(statusOf(kind)).toBeGreaterThanOrEqual(400);
    expect([statusOf("conflict"), statusOf("unauthenticated"), statusOf("forbidden"), statusOf("unavailable")]).toEqual([409, 401, 403, 503]);
  });

  it("tells a class by its tag, ancestors included, and a subclass apart from its siblings", () => {
    const tool = new ToolError("timeout", "slow");
    const http = new HttpError("not_found", "gone");
    expect(ToolError.isInstance(tool) && StudioError.isInstance(tool)).toBe(true);
    expect(HttpError.isInstance(tool)).toBe(false);
    expect(ToolError.isInstance(http)).toBe(false);
    expect(StudioError.isInstance(new Error("plain"))).toBe(false);
    expect(StudioError.isInstance(Object.assign(new Error("x"), { name: "ToolError", kind: "timeout" }))).toBe(false);
    expect([tool.name, http.name, new RunNotRunningError("r").name]).toEqual(["ToolError", "HttpError", "RunNotRunningError"]);
    expect([tool.status, http.status]).toEqual([504, 404]);
  });

  it("recognises an error thrown by the other copy of its module (Next loads lib/ twice)", async () => {
    vi.resetModules();
    const other = await import("../tools/errors");
    const foreign = new other.ToolError("invalid_args", "bad", { fields: [{ path: "/a", message: "must be a number" }] });
    expect(other.ToolError).not.toBe(ToolError);
    // eslint-disable-next-line no-restricted-syntax -- the point: instanceof cannot tell
    expect(foreign instanceof ToolError).toBe(false);
    expect(ToolError.isInstance(foreign)).toBe(true);
    expect(toToolError(foreign)).toBe(foreign);
  });

  it("refuses to tell a subclass that does not declare its own tag", () => {
    class Untagged extends StudioError {}
    expect(() => Untagged.isInstance(new Untagged("other", "x"))).toThrow(/without its own static tag/);
  });
});

describe("toErrorResponse, the one place an error becomes an answer", () => {
  const answer = async (err: unknown) => {
    const res = toErrorResponse(err);
    return { status: res.status, body: await res.json() };
  };

  it("answers a StudioError with its kind's status, its message and its field details", async () => {
    expect(await answer(new UserInputError("conflict", "/email", "is taken"))).toEqual({
      status: 409,
      body: { error: { kind: "conflict", message: "/email is taken", details: [{ path: "/email", message: "is taken" }] } },
    });
    expect(await answer(new CursorError("cursor is not one this API returned"))).toMatchObject({
      status: 400,
      body: { error: { kind: "bad_request", details: [{ path: "/cursor" }] } },
    });
    expect(await answer(new ToolError("rate_limited", "slow down"))).toMatchObject({ status: 429, body: { error: { kind: "rate_limited" } } });
  });

  it("never sends the text of an unexpected error", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await answer(new TypeError("secret path /etc/x"))).toEqual({
        status: 500,
        body: { error: { kind: "other", message: "Internal error in the studio; see the server log." } },
      });
    } finally {
      spy.mockRestore();
    }
  });
});
