import { describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "./columns";
import { csvCell, exportRuns } from "./export";
import type { RunStore } from "./store";
import type { Run } from "./types";

/** A small RFC 4180 reader, to check what a spreadsheet would get back from a row. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

const run = (over: Partial<Run> = {}): Run => ({
  id: "r1",
  tool: "add",
  source: "builtin",
  specHash: "h",
  status: "success",
  arguments: { a: 1 },
  output: { content: [{ type: "text", text: "ok" }] },
  outputValid: null,
  outputErrors: null,
  error: null,
  timeoutMs: null,
  durationMs: 12,
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:00.012Z",
  origin: "api",
  actor: "alice",
  actorId: null,
  tokenId: null,
  agent: null,
  clientName: null,
  replayOf: null,
  ...over,
});

/** A store that serves the given runs over two pages, no database involved. */
function storeOf(runs: Run[]): RunStore {
  const list = async ({ cursor }: { cursor?: string }) =>
    cursor ? { runs: runs.slice(1), nextCursor: null } : { runs: runs.slice(0, 1), nextCursor: runs.length > 1 ? "next" : null };
  // eslint-disable-next-line no-restricted-syntax -- a stand-in with the one method exportRuns calls (RunStore wraps Prisma)
  return { list } as unknown as RunStore;
}

async function exportCsv(runs: Run[]): Promise<string[][]> {
  return parseCsv(await new Response(exportRuns(storeOf(runs), {}, "csv")).text());
}

describe("csvCell formula neutralisation", () => {
  const triggers = ["=", "+", "-", "@", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"];

  it.each(triggers)("prefixes a quote to a cell starting with %j", (t) => {
    expect(csvCell(`${t}1+1`)).toBe(`'${t}1+1`);
    expect(csvCell(t)).toBe(`'${t}`);
  });

  it("covers the full-width forms by code point (＝ ＋ － ＠)", () => {
    expect(csvCell('＝HYPERLINK("http://x")')).toBe(`"'＝HYPERLINK(""http://x"")"`);
    expect(csvCell("＋1")).toBe("'＋1");
    expect(csvCell("－1")).toBe("'－1");
    expect(csvCell("＠SUM(A1)")).toBe("'＠SUM(A1)");
  });

  it.each([
    [" ", "leading space"],
    ["   ", "several spaces"],
    ["\t", "tab"],
    ["\n", "LF"],
    ["\r\n", "CRLF"],
    ["\u00A0", "no-break space"],
    ["\u3000", "ideographic space"],
    ["\u2003", "em space"],
    ["\uFEFF", "BOM"],
    ["\u200B", "zero-width space"],
    ["\u0000", "NUL"],
    [" \n\t ", "a mix"],
  ])("sees the trigger behind %j (%s)", (lead) => {
    for (const t of triggers) {
      const cell = `${lead}${t}cmd|'/c calc'!A1`;
      const parsed = parseCsv(csvCell(cell))[0]![0];
      expect(parsed).toBe(`'${cell}`);
    }
  });

  it("neutralises a cell starting with a tab, a CR or a NUL, whatever follows", () => {
    expect(csvCell("\tabc")).toBe("'\tabc");
    expect(csvCell("\rabc")).toBe(`"'\rabc"`);
    expect(csvCell(" \tabc")).toBe("' \tabc");
    expect(csvCell("\u0000abc")).toBe("'\u0000abc");
  });

  it("leaves harmless text alone", () => {
    for (const s of ["alice", "add", "a=b", "1-2", "x@example.com", " hello", "\nhello", "'=already quoted", "", "2026-01-01T00:00:00.000Z"]) {
      expect(parseCsv(csvCell(s) + "\r\n")[0]![0] ?? "").toBe(s);
    }
    expect(csvCell("alice")).toBe("alice");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("keeps numbers and booleans as they are, negative ones included", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(-1.5e21)).toBe("-1.5e+21");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(false)).toBe("false");
  });

  it("renders other values as JSON, which a spreadsheet reads as text", () => {
    expect(csvCell({ a: "=1" })).toBe(`"{""a"":""=1""}"`);
    expect(csvCell([1, 2])).toBe(`"[1,2]"`);
    // A JSON string starts with a quote: the spreadsheet sees "=1+1" with its quotes, not a formula.
    expect(parseCsv(csvCell(JSON.stringify("=1+1")) + "\r\n")[0]![0]).toBe('"=1+1"');
  });
});

describe("csvCell RFC 4180 quoting", () => {
  it("quotes cells holding a comma, a quote, a CR or a LF, doubling inner quotes", () => {
    expect(csvCell("a,b")).toBe(`"a,b"`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvCell("line1\nline2")).toBe(`"line1\nline2"`);
    expect(csvCell("line1\r\nline2")).toBe(`"line1\r\nline2"`);
    expect(csvCell("plain text")).toBe("plain text");
  });

  it("puts the neutralising quote inside the CSV quoting", () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell("\n=1,2")).toBe(`"'\n=1,2"`);
  });

  it("round-trips through an RFC 4180 reader", () => {
    for (const s of ["a,b", 'q"q', "x\ny", "x\r\ny", '",\r\n"']) {
      expect(parseCsv(csvCell(s) + "\r\n")).toEqual([[s]]);
    }
  });
});

describe("exportRuns CSV", () => {
  it("neutralises the string cells of a run and keeps studio numbers as numbers", async () => {
    const rows = await exportCsv([
      run({
        tool: "=evil",
        actor: " +SUM(1,2)",
        agent: "\uFF20agent",
        clientName: "\n-2+3",
        error: { kind: "provider", message: '@boom, "bad"' },
        status: "error",
        durationMs: -5,
        outputValid: false,
        arguments: -3,
        output: { content: [{ type: "text", text: "=1" }], structuredContent: { v: "=2" } },
      }),
      run({ id: "r2", tool: "add", actor: "bob", durationMs: 7 }),
    ]);
    expect(rows).toHaveLength(3);
    const [header, first, second] = rows as [string[], string[], string[]];
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(header).toEqual(CSV_COLUMNS.map((c) => c.header));
    expect(first).toHaveLength(header.length);
    expect(cell(first, "tool")).toBe("'=evil");
    expect(cell(first, "actor")).toBe("' +SUM(1,2)");
    expect(cell(first, "agent")).toBe("'\uFF20agent");
    expect(cell(first, "client_name")).toBe("'\n-2+3");
    expect(cell(first, "error_message")).toBe('\'@boom, "bad"');
    expect(cell(first, "duration_ms")).toBe("-5"); // the studio's number, not text
    expect(cell(first, "output_valid")).toBe("false");
    expect(cell(first, "arguments")).toBe("-3"); // a JSON number can't hold a formula
    expect(cell(first, "structured_content")).toBe('{"v":"=2"}');
    expect(cell(first, "content")).toBe('[{"type":"text","text":"=1"}]');
    expect(cell(second, "tool")).toBe("add");
    expect(cell(second, "actor")).toBe("bob");
    expect(cell(second, "duration_ms")).toBe("7");
    expect(cell(second, "replay_of")).toBe("");
  });
});
