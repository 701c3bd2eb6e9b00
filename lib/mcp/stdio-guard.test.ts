import { describe, expect, it } from "vitest";
import { LineGuard, messageId, TOO_LARGE_MARK } from "./stdio-guard";

/** What the SDK's reader would make of what the guard passes on: its complete lines, parsed when they are JSON. */
function run(limit: number, chunks: string[]) {
  const out: Buffer[] = [];
  const dropped: { id: string | number | null; bytes: number }[] = [];
  const g = new LineGuard(
    limit,
    (c) => out.push(Buffer.from(c)),
    (d) => dropped.push(d),
  );
  for (const c of chunks) g.push(Buffer.from(c));
  const lines = Buffer.concat(out).toString("utf8").split("\n");
  const open = lines.pop();
  const parsed = lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  return { parsed, open, dropped };
}

describe("LineGuard", () => {
  it("passes lines within the limit through unchanged, however they are split", () => {
    const a = '{"jsonrpc":"2.0","id":1,"result":{"x":1}}';
    const b = '{"jsonrpc":"2.0","method":"notifications/progress"}';
    const text = `${a}\n${b}\n{"jsonrpc"`;
    for (const size of [1, 3, 7, 100]) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
      const r = run(100, chunks);
      expect(r.parsed).toEqual([JSON.parse(a), JSON.parse(b)]);
      expect(r.open).toBe('{"jsonrpc"');
      expect(r.dropped).toEqual([]);
    }
  });

  it("replaces a line over the limit by an error for its id, and goes on with the next line", () => {
    const big = `{"result":{"content":[{"type":"text","text":"${"x".repeat(500)}","id":9}]},"jsonrpc":"2.0","id":42}`;
    const next = '{"jsonrpc":"2.0","id":43,"result":{}}';
    for (const size of [1, 50, 10_000]) {
      const text = `${big}\n${next}\n`;
      const r = run(200, text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!);
      expect(r.dropped).toEqual([{ id: 42, bytes: big.length }]);
      expect(r.parsed).toEqual([
        {
          jsonrpc: "2.0",
          id: 42,
          error: {
            code: -32603,
            message: expect.stringContaining(`${big.length} bytes, over the studio's limit of 200`),
            data: { [TOO_LARGE_MARK]: { bytes: big.length, limit: 200 } },
          },
        },
        JSON.parse(next),
      ]);
    }
  });

  it("finds the id at the start or the end of a message, never inside it", () => {
    expect(messageId('{"jsonrpc":"2.0","id":"a-1","result":{', "")).toBe("a-1");
    expect(messageId('{"id":7,"jsonrpc":"2.0"', "")).toBe(7);
    expect(messageId('{"result":{"x', 'x"},"jsonrpc":"2.0","id":3}')).toBe(3);
    expect(messageId('{"result":{"x', 'x","id":3}}')).toBeNull();
    expect(messageId('{"method":"x","params":{', "")).toBeNull();
  });
});
