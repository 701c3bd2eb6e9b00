import { PNG } from "pngjs";
import { defineTool } from "../tools/define";
import { ToolError, isToolError } from "../tools/errors";
import { text, type ImageContent } from "../tools/output";
import { GLYPH_ADVANCE, GLYPH_HEIGHT, glyph, textWidth } from "./chart-font";

type RGB = readonly [number, number, number];

const hex = (h: string): RGB => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

export const CHART_COLORS = {
  background: hex("#ffffff"),
  plot: hex("#f8fafc"),
  grid: hex("#e2e8f0"),
  axis: hex("#94a3b8"),
  zero: hex("#475569"),
  label: hex("#475569"),
  title: hex("#0f172a"),
  positive: hex("#3b82f6"),
  negative: hex("#ef4444"),
  line: hex("#2563eb"),
} as const;

/** An RGBA canvas over a pngjs image, with the few primitives a chart needs. */
class Canvas {
  readonly png: PNG;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.png = new PNG({ width, height });
  }

  /** Blends a colour into one pixel with the given coverage (0..1). */
  blend(x: number, y: number, c: RGB, alpha = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 4;
    const d = this.png.data;
    const a = Math.min(1, alpha);
    d[i] = Math.round(d[i] * (1 - a) + c[0] * a);
    d[i + 1] = Math.round(d[i + 1] * (1 - a) + c[1] * a);
    d[i + 2] = Math.round(d[i + 2] * (1 - a) + c[2] * a);
    d[i + 3] = 255;
  }

  /** Fills the pixels x0..x1-1, y0..y1-1 (clipped). */
  fillRect(x0: number, y0: number, x1: number, y1: number, c: RGB, alpha = 1): void {
    const ax = Math.max(0, Math.round(Math.min(x0, x1)));
    const bx = Math.min(this.width, Math.round(Math.max(x0, x1)));
    const ay = Math.max(0, Math.round(Math.min(y0, y1)));
    const by = Math.min(this.height, Math.round(Math.max(y0, y1)));
    for (let y = ay; y < by; y++) for (let x = ax; x < bx; x++) this.blend(x, y, c, alpha);
  }

  /** An anti-aliased line segment of the given width, round-capped. */
  line(x0: number, y0: number, x1: number, y1: number, width: number, c: RGB): void {
    const r = width / 2;
    const minX = Math.floor(Math.min(x0, x1) - r - 1);
    const maxX = Math.ceil(Math.max(x0, x1) + r + 1);
    const minY = Math.floor(Math.min(y0, y1) - r - 1);
    const maxY = Math.ceil(Math.max(y0, y1) + r + 1);
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy;
    for (let y = Math.max(0, minY); y <= Math.min(this.height - 1, maxY); y++) {
      for (let x = Math.max(0, minX); x <= Math.min(this.width - 1, maxX); x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2));
        const dist = Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
        const coverage = Math.max(0, Math.min(1, r + 0.5 - dist));
        if (coverage > 0) this.blend(x, y, c, coverage);
      }
    }
  }

  /** An anti-aliased filled disc. */
  disc(cx: number, cy: number, radius: number, c: RGB): void {
    for (let y = Math.floor(cy - radius - 1); y <= Math.ceil(cy + radius + 1); y++) {
      for (let x = Math.floor(cx - radius - 1); x <= Math.ceil(cx + radius + 1); x++) {
        const coverage = Math.max(0, Math.min(1, radius + 0.5 - Math.hypot(x + 0.5 - cx, y + 0.5 - cy)));
        if (coverage > 0) this.blend(x, y, c, coverage);
      }
    }
  }

  /** Draws text with its top-left corner at (x, y). */
  text(x: number, y: number, s: string, scale: number, c: RGB): void {
    let cursor = Math.round(x);
    for (const ch of s) {
      const rows = glyph(ch);
      rows.forEach((row, gy) =>
        row.forEach((on, gx) => {
          if (on) this.fillRect(cursor + gx * scale, y + gy * scale, cursor + (gx + 1) * scale, y + (gy + 1) * scale, c);
        }),
      );
      cursor += GLYPH_ADVANCE * scale;
    }
  }
}

/** A "nice" step (1, 2, 2.5 or 5 times a power of ten) splitting `range` into about `target` parts. */
export function niceStep(range: number, target: number): number {
  const raw = range / Math.max(1, target);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const factor = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10;
  return factor * mag;
}

/** Decimal places needed to write multiples of `step` exactly. */
function decimalsFor(step: number): number {
  for (let d = 0; d <= 8; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-7 * Math.max(1, scaled)) return d;
  }
  return 8;
}

/** A compact tick label: 1.5K, 20M, 0.25, 1E-7… */
export function formatTick(value: number, step: number, maxAbs: number): string {
  if (value === 0 || Object.is(value, -0)) return "0";
  if (maxAbs >= 1e15 || maxAbs < 1e-6) return value.toExponential(1).toUpperCase();
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  const [unit, suffix] = units.find(([u]) => maxAbs >= u) ?? [1, ""];
  const label = (value / unit).toFixed(decimalsFor(step / unit));
  return (/^-0(\.0*)?$/.test(label) ? "0" : label) + suffix;
}

/** The y domain and ticks: bar charts always include zero (bars grow from the zero baseline). */
function yAxis(min: number, max: number, includeZero: boolean, targetTicks: number) {
  let lo = includeZero ? Math.min(0, min) : min;
  let hi = includeZero ? Math.max(0, max) : max;
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo = includeZero && lo >= 0 ? lo : lo - pad;
    hi = includeZero && hi <= 0 ? hi : hi + pad;
    if (lo === hi) hi = lo + 1;
  }
  const step = niceStep(hi - lo, targetTicks);
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step * 1e-9 && i < 100; i++) ticks.push(Number((start + i * step).toPrecision(12)));
  return { lo: start, hi: end, step, ticks };
}

/** Which 0-based indices get an x label: every k-th, k a nice number, so labels don't collide. */
function xLabelIndices(n: number, maxLabels: number): number[] {
  if (n <= maxLabels) return Array.from({ length: n }, (_, i) => i);
  const every = [1, 2, 5, 10, 20, 25, 50, 100, 200].find((k) => Math.ceil(n / k) <= maxLabels) ?? n;
  const out: number[] = [];
  // Label the 1-based positions 1, every, 2·every, … so numbers read naturally.
  out.push(0);
  for (let pos = every; pos <= n; pos += every) if (pos - 1 !== 0) out.push(pos - 1);
  return out;
}

export interface ChartOptions {
  values: number[];
  kind: "bar" | "line";
  width: number;
  height: number;
  title?: string;
}

/** Renders the chart; returns the PNG bytes. */
export function renderChart({ values, kind, width, height, title }: ChartOptions): Buffer {
  const canvas = new Canvas(width, height);
  const C = CHART_COLORS;
  canvas.fillRect(0, 0, width, height, C.background);

  const min = Math.min(...values);
  const max = Math.max(...values);

  // Text is drawn only when the image has room for it; larger images get larger text.
  const labelScale = width >= 960 && height >= 480 ? 2 : 1;
  const showLabels = width >= 160 && height >= 96;
  const lineHeight = GLYPH_HEIGHT * labelScale;
  const cleanTitle = title?.replace(/\s+/g, " ").trim() ?? "";
  let titleScale = width >= 400 && height >= 200 ? 2 : 1;
  const showTitle = cleanTitle.length > 0 && height >= 80;
  let titleText = cleanTitle;
  if (showTitle) {
    const maxTitleWidth = width - 16;
    if (textWidth(titleText, titleScale) > maxTitleWidth) titleScale = 1;
    if (textWidth(titleText, titleScale) > maxTitleWidth) {
      const maxChars = Math.floor((maxTitleWidth + 1) / GLYPH_ADVANCE);
      titleText = `${titleText.slice(0, Math.max(0, maxChars - 3)).trimEnd()}...`;
    }
  }

  const top = showTitle ? 10 + GLYPH_HEIGHT * titleScale + 10 : 12;
  const bottom = showLabels ? 8 + lineHeight + 8 : 8;
  const right = 16;
  const plotHeightGuess = height - top - bottom;
  const axis = yAxis(min, max, kind === "bar", Math.max(2, Math.min(8, Math.floor(plotHeightGuess / (28 * labelScale)))));
  const maxAbs = Math.max(Math.abs(axis.lo), Math.abs(axis.hi));
  const labels = axis.ticks.map((t) => formatTick(t, axis.step, maxAbs));
  const left = showLabels ? 8 + Math.max(...labels.map((l) => textWidth(l, labelScale))) + 8 : 8;

  const px0 = left;
  const px1 = width - right;
  const py0 = top;
  const py1 = height - bottom;
  const plotW = Math.max(1, px1 - px0);
  const plotH = Math.max(1, py1 - py0);
  const toY = (v: number) => py1 - ((v - axis.lo) / (axis.hi - axis.lo)) * plotH;

  canvas.fillRect(px0, py0, px1, py1, C.plot);

  // Horizontal gridlines with their labels.
  axis.ticks.forEach((t, i) => {
    const y = Math.round(toY(t));
    if (t !== 0) canvas.fillRect(px0, y, px1, y + 1, C.grid);
    if (showLabels) {
      const label = labels[i];
      canvas.text(px0 - 8 - textWidth(label, labelScale), Math.round(y - lineHeight / 2), label, labelScale, C.label);
    }
  });

  const n = values.length;
  const zeroY = axis.lo <= 0 && axis.hi >= 0 ? toY(0) : null;
  let centers: number[];

  if (kind === "bar") {
    const slot = plotW / n;
    const barW = slot >= 4 ? Math.max(1, Math.floor(slot * 0.72)) : Math.max(1, Math.floor(slot));
    centers = values.map((_, i) => px0 + (i + 0.5) * slot);
    const base = zeroY ?? py1;
    values.forEach((v, i) => {
      const x0 = Math.round(centers[i] - barW / 2);
      const y = toY(v);
      const color = v < 0 ? C.negative : C.positive;
      // At least one pixel tall so non-zero values stay visible.
      const y0 = v >= 0 ? Math.min(Math.round(y), Math.round(base) - (v > 0 ? 1 : 0)) : Math.round(base) + 1;
      const y1 = v >= 0 ? Math.round(base) : Math.max(Math.round(y), Math.round(base) + 2);
      canvas.fillRect(x0, y0, x0 + barW, y1, color);
    });
  } else {
    const inset = Math.min(8, plotW / 4);
    centers = values.map((_, i) => (n === 1 ? px0 + plotW / 2 : px0 + inset + (i * (plotW - 2 * inset)) / (n - 1)));
    const ys = values.map(toY);
    // A light area between the line and the zero baseline (or the bottom of the plot).
    const base = zeroY ?? py1;
    for (let i = 0; i + 1 < n; i++) {
      const xa = centers[i];
      const xb = centers[i + 1];
      for (let x = Math.ceil(xa); x < Math.ceil(xb); x++) {
        const t = (x + 0.5 - xa) / (xb - xa);
        const y = ys[i] + Math.max(0, Math.min(1, t)) * (ys[i + 1] - ys[i]);
        canvas.fillRect(x, Math.min(y, base), x + 1, Math.max(y, base), C.line, 0.12);
      }
    }
    const lineWidth = width >= 960 ? 3 : 2;
    for (let i = 0; i + 1 < n; i++) canvas.line(centers[i], ys[i], centers[i + 1], ys[i + 1], lineWidth, C.line);
    if (n <= 60 || n === 1) {
      const r = n <= 30 ? 3.5 : 2.5;
      centers.forEach((x, i) => {
        canvas.disc(x, ys[i], r + 1, C.background);
        canvas.disc(x, ys[i], r, values[i] < 0 ? C.negative : C.line);
      });
    }
  }

  // Axes: the y axis on the left, the plot's bottom edge, and the zero baseline when it is inside the plot.
  canvas.fillRect(px0 - 1, py0, px0, py1 + 1, C.axis);
  canvas.fillRect(px0 - 1, py1, px1, py1 + 1, C.axis);
  if (zeroY !== null && Math.round(zeroY) < py1) canvas.fillRect(px0, Math.round(zeroY), px1, Math.round(zeroY) + 1, C.zero);

  if (showLabels) {
    const maxLabels = Math.max(1, Math.floor(plotW / (textWidth(String(n), labelScale) + 14 * labelScale)));
    for (const i of xLabelIndices(n, maxLabels)) {
      const x = Math.round(centers[i]);
      canvas.fillRect(x, py1 + 1, x + 1, py1 + 4, C.axis);
      const label = String(i + 1);
      const lx = Math.max(0, Math.min(width - textWidth(label, labelScale), x - textWidth(label, labelScale) / 2));
      canvas.text(lx, py1 + 7, label, labelScale, C.label);
    }
  }

  if (showTitle) canvas.text((width - textWidth(titleText, titleScale)) / 2, 10, titleText, titleScale, C.title);

  return PNG.sync.write(canvas.png);
}

/** Up to 6 significant digits, without trailing zeros. */
const short = (v: number): string => String(Number(v.toPrecision(6)));

export const chartPngTool = defineTool({
  name: "chart_png",
  title: "Draw a chart (PNG)",
  description:
    "Draws a bar or line chart of a list of numbers and returns it as a PNG image, with a summary of the values " +
    "(count, min, max, mean). Bars grow from a zero baseline, so negative values point down (in red). " +
    "The y axis gets gridlines with rounded tick labels; the x axis is labelled with 1-based positions. Runs locally.",
  inputSchema: {
    type: "object",
    properties: {
      values: {
        type: "array",
        title: "Values",
        description: "The numbers to plot, in order (1 to 200 of them).",
        items: { type: "number" },
        minItems: 1,
        maxItems: 200,
        examples: [[3, 7, 4, -2, 9, 12, 6]],
      },
      kind: {
        type: "string",
        title: "Chart kind",
        enum: ["bar", "line"],
        default: "bar",
        description: "Bars from a zero baseline, or a line through the points.",
      },
      width: { type: "integer", title: "Width (px)", minimum: 64, maximum: 2000, default: 480 },
      height: { type: "integer", title: "Height (px)", minimum: 48, maximum: 1200, default: 240 },
      title: {
        type: "string",
        title: "Title",
        maxLength: 100,
        description: "Optional heading drawn above the chart (letters are drawn in capitals).",
      },
    },
    required: ["values"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      count: { type: "integer", minimum: 1 },
      min: { type: "number" },
      max: { type: "number" },
      mean: { type: "number" },
    },
    required: ["count", "min", "max", "mean"],
    additionalProperties: false,
  },
  annotations: {
    title: "Draw a chart (PNG)",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["chart", "plot", "graph", "bar chart", "line chart", "visualize numbers"],
  timeoutMs: 10_000,
  async run({ values, kind = "bar", width = 480, height = 240, title }, ctx) {
    if (ctx.signal.aborted) throw isToolError(ctx.signal.reason) ? ctx.signal.reason : new ToolError("cancelled", "The chart was cancelled.");
    const bad = values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      throw new ToolError("invalid_args", "Every value must be a finite number.", {
        fields: [{ path: `/values/${bad}`, message: "must be a finite number" }],
      });
    }
    const min = Math.min(...values);
    const max = Math.max(...values);
    if (!Number.isFinite(max - min) || !Number.isFinite(Math.max(Math.abs(min), Math.abs(max)) * 2)) {
      throw new ToolError("invalid_args", "The values are too large to chart (their range overflows a double). Scale them down first.", {
        fields: [{ path: "/values", message: "range too large" }],
      });
    }
    // Running mean: no overflow for large values.
    let mean = 0;
    values.forEach((v, i) => (mean += (v - mean) / (i + 1)));

    const png = renderChart({ values, kind, width, height, title });
    const image: ImageContent = { type: "image", data: png.toString("base64"), mimeType: "image/png" };
    const label = kind === "bar" ? "Bar chart" : "Line chart";
    const heading = title?.trim() ? ` "${title.trim()}"` : "";
    const summary =
      `${label}${heading} of ${values.length} value${values.length === 1 ? "" : "s"} (${width}×${height} px PNG): ` +
      `min ${short(min)}, max ${short(max)}, mean ${short(mean)}.`;
    return {
      content: [image, text(summary)],
      structuredContent: { count: values.length, min, max, mean },
    };
  },
});
