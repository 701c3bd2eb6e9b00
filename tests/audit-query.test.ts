import { describe, expect, it } from "vitest";
import { AuditQuery, AuditVerifyQuery, parseInstant } from "@/lib/audit/query";

// The query parameters of GET /api/audit and /api/audit/verify (the /audit page uses parseInstant).
describe("parseInstant", () => {
  it("reads UTC days and ISO times; a bare day as an end means through that day", () => {
    expect(parseInstant("2026-11-30")?.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(parseInstant("2026-11-30", true)?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(parseInstant("2026-11-30T14:05")?.toISOString()).toBe("2026-11-30T14:05:00.000Z");
    expect(parseInstant("2026-11-30 14:05:07.5+02:00")?.toISOString()).toBe("2026-11-30T12:05:07.500Z");
    expect(parseInstant("2026-11-30T14:05:07Z", true)?.toISOString()).toBe("2026-11-30T14:05:07.000Z");
    for (const bad of ["yesterday", "2026-13-01", "2026-11-30T25:00", "1700000000", ""]) expect(parseInstant(bad)).toBeNull();
  });
});

describe("AuditQuery", () => {
  it("parses filters and refuses unknown or malformed ones", () => {
    expect(AuditQuery.parse({ action: "run", since: "2026-11-01", until: "2026-11-30", limit: "20" })).toEqual({
      action: "run",
      since: new Date("2026-11-01T00:00:00.000Z"),
      until: new Date("2026-12-01T00:00:00.000Z"),
      limit: 20,
    });
    expect(AuditQuery.safeParse({ since: "soon" }).success).toBe(false);
    expect(AuditQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(AuditQuery.safeParse({ limit: "201" }).success).toBe(false);
    expect(AuditQuery.safeParse({ tool: "x" }).success).toBe(false);
  });

  it("verify takes an optional start and checkpoint", () => {
    expect(AuditVerifyQuery.parse({ from: "3", checkpoint: `9:${"a".repeat(64)}` })).toEqual({ from: 3, checkpoint: { seq: 9, hash: "a".repeat(64) } });
    expect(AuditVerifyQuery.safeParse({ checkpoint: "9:xyz" }).success).toBe(false);
    expect(AuditVerifyQuery.safeParse({ batch: "5" }).success).toBe(false);
  });
});
