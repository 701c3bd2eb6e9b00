/** What a value the studio passed to a server reads as in its stderr tail and error. */
export const REDACTED = "[redacted]";

/**
 * Values shorter than this are not redacted: no credential is that short, and replacing every
 * "1" or "on" a server prints would leave its stderr unreadable.
 */
export const MIN_REDACTED_CHARS = 4;

/**
 * Replaces the values the studio passed to a server (its env values, header values, what
 * `${env:NAME}` references in its args stood for) wherever the server repeats them: what a server
 * prints reaches everyone who may see its state, viewers included.
 */
export class Redactor {
  private values: string[] = [];

  /** The values to hide from now on (the longest first, so one holding another goes whole). */
  set(values: Iterable<string>): void {
    const parts = new Set<string>();
    // A multi-line value is printed line by line as often as whole.
    for (const v of values) for (const line of v.split(/\r?\n/)) if (line.length >= MIN_REDACTED_CHARS) parts.add(line);
    this.values = [...parts].sort((a, b) => b.length - a.length);
  }

  apply(text: string): string {
    let out = text;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out;
  }
}
