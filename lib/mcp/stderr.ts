import { Redactor } from "./redact";

/** Longest kept line (longer ones are cut, with "…"), and longest kept unfinished last line. */
const MAX_LINE = 2000;
const MAX_PARTIAL = 4000;

/**
 * The last lines a stdio server wrote to stderr: bounded in number and in length, with the values
 * the studio passed to the server redacted (`redactor`) before a line is kept.
 */
export class StderrTail {
  private readonly keep: number;
  private lines: string[] = [];
  /** The unfinished last line as written: a value may still be arriving in the next chunk. */
  private partial = "";

  /** Keeps the last `keep` lines (default 50). */
  constructor(
    keep = 50,
    readonly redactor = new Redactor(),
  ) {
    this.keep = keep;
  }

  /** Adds a chunk as the server wrote it; a line may span chunks. */
  write(chunk: Buffer | string): void {
    const lines = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = (lines.pop() ?? "").slice(-MAX_PARTIAL);
    for (const raw of lines) {
      const line = this.redactor.apply(raw);
      this.lines.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
    }
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }

  /** The kept lines, oldest first, with an unfinished last line. */
  tail(): string[] {
    const all = this.partial ? [...this.lines, this.redactor.apply(this.partial)] : [...this.lines];
    return all.slice(-this.keep);
  }
}
