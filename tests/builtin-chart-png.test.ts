import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { ToolError } from "@/lib/tools/errors";
import type { ImageContent, TextContent } from "@/lib/tools/output";
import { CHART_COLORS, chartPngTool, formatTick, niceStep, renderChart } from "@/lib/builtin-tools/chart-png";
import { glyph, textWidth } from "@/lib/builtin-tools/chart-font";
import { call, strictAjv, testContext } from "@/tests/helpers/builtin-tools";

function decode(out: { content: unknown[] }) {
  const image = out.content.find((b) => (b as { type: string }).type === "image") as ImageContent;
  expect(image.mimeType).toBe("image/png");
  return PNG.sync.read(Buffer.from(image.data, "base64"));
}

function pixel(png: PNG, x: number, y: number): [number, number, number, number] {
  const i = (y * png.width + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2], png.data[i + 3]];
}

function countColor(png: PNG, color: readonly [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (png.data[i] === color[0] && png.data[i + 1] === color[1] && png.data[i + 2] === color[2]) n++;
  }
  return n;
}

function countNonBackground(png: PNG): number {
  return png.width * png.height - countColor(png, CHART_COLORS.background);
}

describe("chart_png", () => {
  it("draws a bar chart at the default size with a summary", async () => {
    const out = await call(chartPngTool, { values: [3, 7, 4, 9] });
    const png = decode(out);
    expect(png.width).toBe(480);
    expect(png.height).toBe(240);
    expect(countNonBackground(png)).toBeGreaterThan(1000);
    expect(countColor(png, CHART_COLORS.positive)).toBeGreaterThan(500);
    expect(countColor(png, CHART_COLORS.negative)).toBe(0);
    expect(out.structuredContent).toEqual({ count: 4, min: 3, max: 9, mean: 5.75 });
    const summary = out.content.find((b) => b.type === "text") as TextContent;
    expect(summary.text).toMatch(/min 3, max 9, mean 5\.75/);
    expect(strictAjv().compile(chartPngTool.spec.outputSchema!)(out.structuredContent)).toBe(true);
  });

  it("draws at the requested size, with negative bars in their own colour", async () => {
    const out = await call(chartPngTool, { values: [5, -3, 2, -8], width: 300, height: 150, title: "Profit" });
    const png = decode(out);
    expect([png.width, png.height]).toEqual([300, 150]);
    expect(countColor(png, CHART_COLORS.negative)).toBeGreaterThan(100);
    expect(countColor(png, CHART_COLORS.positive)).toBeGreaterThan(100);
    // Every pixel is opaque.
    let transparent = 0;
    for (let i = 3; i < png.data.length; i += 4) if (png.data[i] !== 255) transparent++;
    expect(transparent).toBe(0);
  });

  it("puts positive bars above and negative bars below the zero baseline", () => {
    const png = PNG.sync.read(renderChart({ values: [10, -10], kind: "bar", width: 200, height: 200 }));
    // Find the columns of each bar and check which rows they cover.
    const rowsOf = (color: readonly [number, number, number]) => {
      const rows = new Set<number>();
      for (let y = 0; y < png.height; y++)
        for (let x = 0; x < png.width; x++) {
          const [r, g, b] = pixel(png, x, y);
          if (r === color[0] && g === color[1] && b === color[2]) rows.add(y);
        }
      return [...rows];
    };
    const up = rowsOf(CHART_COLORS.positive);
    const down = rowsOf(CHART_COLORS.negative);
    expect(Math.max(...up)).toBeLessThan(Math.min(...down));
    // Symmetric values: bars of (nearly) equal height.
    expect(Math.abs(up.length - down.length)).toBeLessThanOrEqual(2);
  });

  it("draws a line chart", async () => {
    const values = Array.from({ length: 50 }, (_, i) => Math.sin(i / 4) * 100);
    const out = await call(chartPngTool, { values, kind: "line", width: 640, height: 320 });
    const png = decode(out);
    expect([png.width, png.height]).toEqual([640, 320]);
    expect(countColor(png, CHART_COLORS.line)).toBeGreaterThan(200);
    const stats = out.structuredContent as { count: number; min: number; max: number };
    expect(stats.count).toBe(50);
    expect(stats.min).toBeCloseTo(Math.min(...values));
  });

  it("handles a single value, equal values and the smallest size", async () => {
    for (const args of [
      { values: [5] },
      { values: [0, 0, 0] },
      { values: [-2, -2], kind: "line" },
      { values: [1, 2, 3], width: 64, height: 48, title: "tiny" },
      { values: [1e-9, 3e-9] },
      { values: [1e20, -1e20], kind: "line" },
    ]) {
      const png = decode(await call(chartPngTool, args));
      expect(countNonBackground(png)).toBeGreaterThan(0);
    }
  });

  it("draws up to 200 values", async () => {
    const values = Array.from({ length: 200 }, (_, i) => (i % 7) - 3);
    const png = decode(await call(chartPngTool, { values, width: 400 }));
    expect(png.width).toBe(400);
  });

  it("refuses values whose range overflows", async () => {
    const err = await call(chartPngTool, { values: [1.7e308, -1.7e308] }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("invalid_args");
  });

  it("does not draw when cancelled", async () => {
    const ctx = testContext();
    ctx.controller.abort();
    const err = await call(chartPngTool, { values: [1] }, ctx).catch((e) => e);
    expect(err.kind).toBe("cancelled");
  });

  it("input schema bounds the inputs", () => {
    const validate = strictAjv().compile(chartPngTool.spec.inputSchema);
    expect(validate({ values: [] })).toBe(false);
    expect(validate({ values: Array(201).fill(1) })).toBe(false);
    expect(validate({ values: [1], kind: "pie" })).toBe(false);
    expect(validate({ values: [1], width: 10 })).toBe(false);
    expect(validate({ values: [1], width: 800, height: 400, kind: "line", title: "ok" })).toBe(true);
  });
});

describe("chart helpers", () => {
  it("picks nice steps", () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(100, 4)).toBe(25);
    expect(niceStep(7, 7)).toBe(1);
    expect(niceStep(0.03, 3)).toBeCloseTo(0.01);
  });

  it("formats tick labels compactly", () => {
    expect(formatTick(0, 5, 10)).toBe("0");
    expect(formatTick(2.5, 2.5, 10)).toBe("2.5");
    expect(formatTick(1500, 500, 2000)).toBe("1.5K");
    expect(formatTick(-2_000_000, 1_000_000, 4_000_000)).toBe("-2M");
    expect(formatTick(3e9, 1e9, 3e9)).toBe("3B");
    expect(formatTick(1e-8, 1e-8, 5e-8)).toBe("1.0E-8");
  });

  it("has well-formed glyphs", () => {
    for (const ch of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.-+%abc") {
      const rows = glyph(ch);
      expect(rows).toHaveLength(7);
      for (const row of rows) expect(row).toHaveLength(5);
      if (ch !== " ") expect(rows.flat().some(Boolean)).toBe(true);
    }
    expect(textWidth("")).toBe(0);
    expect(textWidth("ab", 2)).toBe(22);
  });
});
