import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/db/faults";

// The shapes the studio met when a PostgreSQL server stopped, froze or restarted under load.
describe("isDatabaseUnavailable", () => {
  const prismaError = (code: string, message: string, adapter?: object) =>
    Object.assign(new Error(message), { name: "PrismaClientKnownRequestError", code, meta: adapter ? { driverAdapterError: adapter } : undefined });

  it("knows a server that is starting, stopping or gone, however it is wrapped", () => {
    // A server restarting: Prisma wraps the driver's SQLSTATE 57P03 in a generic code.
    const startingUp = prismaError("P2010", "Database error. Code: `57P03`. Message: `the database system is not yet accepting connections`", {
      name: "DriverAdapterError",
      cause: { originalCode: "57P03", originalMessage: "the database system is not yet accepting connections", kind: "postgres" },
    });
    expect(isDatabaseUnavailable(startingUp)).toBe(true);
    // Only the SQLSTATE says so (the message is not one the studio knows).
    expect(isDatabaseUnavailable(prismaError("P2010", "Database error", { cause: { originalCode: "57P01", originalMessage: "bye" } }))).toBe(true);
    expect(isDatabaseUnavailable(prismaError("P2010", "Database error", { cause: { originalCode: "08006", originalMessage: "x" } }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("Connection terminated unexpectedly"), {}))).toBe(true);
    expect(isDatabaseUnavailable({ name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { cause: Object.assign(new Error("y"), { code: "ECONNREFUSED" }) }))).toBe(true);
  });

  it("does not take a bad query for an outage", () => {
    expect(
      isDatabaseUnavailable(prismaError("P2002", "Unique constraint failed", { cause: { originalCode: "23505", originalMessage: "duplicate key" } })),
    ).toBe(false);
    expect(isDatabaseUnavailable(prismaError("P2025", "Record to update not found."))).toBe(false);
    expect(isDatabaseUnavailable(new Error("syntax error at or near"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
