/**
 * The little Markdown RJSF puts in its own messages ("Unsupported field schema for field `%1`:
 * _%2_."): `code`, _emphasis_ / *emphasis* and **strong**, as spans. The studio never turns on
 * RJSF's Markdown descriptions, so this stands in for markdown-to-jsx (a sixth of the tool page's
 * script) in the browser bundle; anything else stays plain text, never HTML.
 */
export type InlineSpan = { kind: "text" | "code" | "em" | "strong"; text: string };

const TOKEN = /`([^`]+)`|\*\*([^*]+)\*\*|(?<![\w*])_([^_]+)_(?!\w)|(?<![\w*])\*([^*]+)\*(?!\w)/g;

export function inlineMarkdown(source: string): InlineSpan[] {
  const out: InlineSpan[] = [];
  let last = 0;
  for (const m of source.matchAll(TOKEN)) {
    if (m.index > last) out.push({ kind: "text", text: source.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: "code", text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: "strong", text: m[2] });
    else out.push({ kind: "em", text: (m[3] ?? m[4])! });
    last = m.index + m[0].length;
  }
  if (last < source.length) out.push({ kind: "text", text: source.slice(last) });
  return out;
}
