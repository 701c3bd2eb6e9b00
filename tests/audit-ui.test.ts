import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditTable, ChainBadge, summarizeDetail } from "@/components/audit/AuditTable";
import type { AuditEntry } from "@/lib/audit/log";

// The audit UI renders hostile entry text as text: nothing an actor, target or detail holds
// becomes markup or a link.
const hostile: AuditEntry = {
  seq: 7,
  at: "2026-11-30T12:00:00.000Z",
  actor: '<img src=x onerror="alert(1)">',
  action: "run",
  target: "<script>alert(2)</script>",
  detail: { runId: "javascript:alert(3)", status: "<b>x</b>", origin: "api", errorKind: null },
  from: '"><svg onload=alert(4)>',
  prevHash: "0".repeat(64),
  hash: "ab".repeat(32),
};

describe("AuditTable", () => {
  it("escapes every field and links only real run ids", () => {
    const html = renderToStaticMarkup(createElement(AuditTable, { entries: [hostile] }));
    expect(html).not.toMatch(/<script|<img|<svg|<b>|javascript:alert\(3\)"/);
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).not.toContain("href=");
    expect(html).toContain(">abababababab<"); // short hash

    const runId = "0b0c9d5e-1f2a-4b3c-8d4e-5f6a7b8c9d0e";
    const linked = renderToStaticMarkup(createElement(AuditTable, { entries: [{ ...hostile, detail: { runId, status: "success" } }] }));
    expect(linked).toContain(`href="/runs/${runId}"`);
  });

  it("summarizes details as key=value, shortening hashes and long text", () => {
    expect(summarizeDetail({ source: "api", version: 3, sha256: "f".repeat(64), error: null })).toBe("source=api version=3 sha256=ffffffffffff…");
    expect(summarizeDetail({ s: "x".repeat(300) })).toHaveLength(120);
    expect(summarizeDetail(null)).toBe("");
  });
});

describe("ChainBadge", () => {
  it("is green with the count when the chain holds, red with the entry and reason when not", () => {
    const ok = renderToStaticMarkup(createElement(ChainBadge, { report: { ok: true, entries: 12, head: { seq: 12, hash: "a".repeat(64) } } }));
    expect(ok).toContain("chain verified: 12 entries");
    expect(ok).toContain("text-success");
    const bad = renderToStaticMarkup(
      createElement(ChainBadge, { report: { ok: false, entries: 4, head: null, firstBad: { seq: 5, reason: "hash mismatch: <edited>" } } }),
    );
    expect(bad).toContain("chain broken at #5: hash mismatch: &lt;edited&gt;");
    expect(bad).toContain("text-destructive");
  });
});
