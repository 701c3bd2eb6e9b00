import { describe, expect, it } from "vitest";
import { builtinTools } from "../builtin-tools";
import { findTrigger, matchTools, segmentMessage } from "./match";

const matches = (message: string, trigger: string) => findTrigger(message, trigger).length > 0;

describe("findTrigger", () => {
  it.each([
    // the cases of the brief
    ["please send this to marta", "send this to", true],
    ["check the device status", "dev", false],
    ["the bus stops here", "ops", false],
    ["send to: dev.", "dev", true],
    ["料理番 送信 する", "送信", true],
    ["料理送信番", "送信", false],
    // case-insensitive, both ways
    ["SEND to Marta", "send to", true],
    ["send to marta", "SEND TO", true],
    // `_`, `-` and punctuation are boundaries; digits are not
    ["ping_dev-ops", "dev", true],
    ["ping_dev-ops", "ops", true],
    ["dev2", "dev", false],
    ["2dev", "dev", false],
    ["(dev)", "dev", true],
    ["dev", "dev", true],
    // empty or whitespace-only triggers never match
    ["anything at all", "", false],
    ["a   b", " ", false],
    ["a\tb", "\t", false],
    // regex metacharacters are literal
    ["c++ rocks", "c++", true],
    ["axb", "a.b", false],
    ["a.b", "a.b", true],
    ["what? (yes)", "what? (yes)", true],
    ["cost $5 [sic]", "$5 [sic]", true],
    ["a|b", "a|b", true],
    ["a", "a|b", false],
    ["x\\d", "x\\d", true],
    ["x1", "x\\d", false],
    ["path a/b", "a/b", true],
    ["{1,2}", "{1,2}", true],
    ["^start$", "^start$", true],
    // the trigger itself is not a word test: a trigger ending in a non-letter still needs a boundary after it
    ["c++x", "c++", false],
    // astral letters are letters; emoji are boundaries
    ["𝐀dev", "dev", false],
    ["dev𝐀", "dev", false],
    ["🚀dev", "dev", true],
    ["dev🚀", "dev", true],
    ["𝐀𝐁𝐂 𝐀𝐁", "𝐀𝐁", true],
    ["𝐀𝐁𝐂", "𝐀𝐁", false],
    // other scripts: letters and digits in the Unicode sense
    ["здравствуй мир", "мир", true],
    ["мирный", "мир", false],
    ["dev٣", "dev", false], // Arabic-Indic digit
    ["ΣΟΦΙΑ", "σοφια", true],
    // whitespace is literal: one space matches one space only
    ["send  to marta", "send to", false],
    ["send\tto marta", "send to", false],
    ["send\nto", "send\nto", true],
  ])("%j / %j -> %s", (message, trigger, expected) => {
    expect(matches(message, trigger)).toBe(expected);
  });

  it("returns every non-overlapping occurrence with UTF-16 positions into the message", () => {
    const message = "dev, DEV and Dev; not devs";
    expect(findTrigger(message, "dev")).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 8 },
      { start: 13, end: 16 },
    ]);
    for (const s of findTrigger(message, "dev")) expect(message.slice(s.start, s.end).toLowerCase()).toBe("dev");
  });

  it("counts positions in UTF-16 code units around astral characters", () => {
    const message = "🚀dev 𝐀 dev";
    // 🚀 is two code units; 𝐀 is two code units
    expect(findTrigger(message, "dev")).toEqual([
      { start: 2, end: 5 },
      { start: 9, end: 12 },
    ]);
    expect(findTrigger("料理番 送信 する", "送信")).toEqual([{ start: 4, end: 6 }]);
    expect(findTrigger("please send this to marta", "send this to")).toEqual([{ start: 7, end: 19 }]);
  });

  it("does not shift positions when a character's lowercase has another length", () => {
    // "İ" (U+0130) lowercases to two code units ("i̇"); lowercasing the message would shift spans.
    const message = "İİİ send to marta";
    expect(findTrigger(message, "send to")).toEqual([{ start: 4, end: 11 }]);
    expect(message.slice(4, 11)).toBe("send to");
  });

  it("finds non-overlapping occurrences left to right", () => {
    expect(findTrigger("a a a", "a a")).toEqual([{ start: 0, end: 3 }]);
    expect(findTrigger("a a a a", "a a")).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
    ]);
    expect(findTrigger("-x- -x-", "-x-")).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
    ]);
    // the boundary rule applies to the characters around the occurrence, whatever the trigger ends with
    expect(findTrigger("-x-x-", "-x-")).toEqual([]);
  });

  it("finds nothing in an empty message", () => {
    expect(findTrigger("", "dev")).toEqual([]);
  });
});

describe("matchTools", () => {
  const tools = [
    { name: "send", invocationTriggers: ["send to", "send this to", "message", "send to"] },
    { name: "deploy", invocationTriggers: ["dev", "ops", "deploy"] },
    { name: "alpha", invocationTriggers: ["marta"] },
    { name: "none", invocationTriggers: [] },
    { name: "absent" },
  ];

  it("keeps only tools that match, by distinct matched triggers then name, triggers in declaration order", () => {
    const result = matchTools("Send to marta, then send this to dev-ops and send to me", tools);
    expect(result.map((m) => m.tool)).toEqual(["deploy", "send", "alpha"]);
    expect(result[0]).toEqual({
      tool: "deploy",
      triggers: ["dev", "ops"],
      spans: [
        { start: 33, end: 36, trigger: "dev" },
        { start: 37, end: 40, trigger: "ops" },
      ],
    });
    // "send to" declared twice: listed once; three occurrences in total, sorted by position
    expect(result[1].triggers).toEqual(["send to", "send this to"]);
    expect(result[1].spans).toEqual([
      { start: 0, end: 7, trigger: "send to" },
      { start: 20, end: 32, trigger: "send this to" },
      { start: 45, end: 52, trigger: "send to" },
    ]);
    expect(result[2]).toEqual({ tool: "alpha", triggers: ["marta"], spans: [{ start: 8, end: 13, trigger: "marta" }] });
  });

  it("breaks ties by name and returns nothing when nothing matches", () => {
    const result = matchTools("marta dev", [
      { name: "zeta", invocationTriggers: ["dev"] },
      { name: "beta", invocationTriggers: ["marta"] },
    ]);
    expect(result.map((m) => m.tool)).toEqual(["beta", "zeta"]);
    expect(matchTools("nothing here", tools)).toEqual([]);
    expect(matchTools("", tools)).toEqual([]);
  });

  it("works with the built-in tools' real triggers", () => {
    const specs = builtinTools.map((t) => t.spec);
    expect(matchTools("please add 2 and 40", specs)).toEqual([{ tool: "add", triggers: ["add"], spans: [{ start: 7, end: 10, trigger: "add" }] }]);
    const chart = matchTools("Draw a bar chart of these numbers", specs);
    expect(chart.map((m) => m.tool)).toEqual(["chart_png"]);
    expect(chart[0].triggers).toEqual(["chart", "bar chart"]);
    expect(matchTools("the address is addition-free", specs).map((m) => m.triggers)).toEqual([["addition"]]);
  });
});

describe("segmentMessage", () => {
  it("cuts the message into plain and highlighted pieces, merging overlapping spans", () => {
    const message = "draw a bar chart now";
    const result = matchTools(message, [
      { name: "chart_png", invocationTriggers: ["chart", "bar chart"] },
      { name: "other", invocationTriggers: ["now"] },
    ]);
    const segments = segmentMessage(message, result);
    expect(segments.map((s) => [s.text, Boolean(s.hits)])).toEqual([
      ["draw a ", false],
      ["bar chart", true],
      [" ", false],
      ["now", true],
    ]);
    expect(segments[1].hits).toEqual([
      { tool: "chart_png", trigger: "bar chart" },
      { tool: "chart_png", trigger: "chart" },
    ]);
    expect(segments.map((s) => s.text).join("")).toBe(message);
  });

  it("returns the whole message as one plain piece without matches, and nothing for an empty message", () => {
    expect(segmentMessage("hello", [])).toEqual([{ text: "hello", start: 0, end: 5 }]);
    expect(segmentMessage("", [])).toEqual([]);
  });

  it("ignores spans outside the message", () => {
    expect(
      segmentMessage("abc", [
        {
          tool: "t",
          spans: [
            { start: 2, end: 9, trigger: "x" },
            { start: 5, end: 7, trigger: "y" },
          ],
        },
      ]),
    ).toEqual([
      { text: "ab", start: 0, end: 2 },
      { text: "c", start: 2, end: 3, hits: [{ tool: "t", trigger: "x" }] },
    ]);
  });
});

describe("trigger names from the config", () => {
  it("count code points, the same on the server and in the UI", async () => {
    const { isUsableTriggerName } = await import("./names");
    const { liveNames } = await import("../builtin-tools/live-triggers");
    expect(isUsableTriggerName("ops")).toBe(true);
    expect(isUsableTriggerName("qa")).toBe(false);
    // Two astral characters are 4 UTF-16 units but 2 characters: too short either way it is counted here.
    expect(isUsableTriggerName("😀😀")).toBe(false);
    expect(isUsableTriggerName("😀😀😀")).toBe(true);
    expect(liveNames([" Ops ", "qa", "😀😀", "ops"])).toEqual(["ops"]);
  });
});
