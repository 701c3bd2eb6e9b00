/** Longest kept line (longer ones are cut, with "…"), and longest kept unfinished last line. */
const MAX_LINE = 2000;
const MAX_PARTIAL = 4000;

/** The last lines a stdio server wrote to stderr: bounded in number and in length. */
export class StderrTail {
  private readonly keep: number;
  private lines: string[] = [];
  private partial = "";

  /** Keeps the last `keep` lines (default 50). */
  constructor(keep = 50) {
    this.keep = keep;
  }

  /** Adds a chunk as the server wrote it; a line may span chunks. */
  write(chunk: Buffer | string): void {
    const lines = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = (lines.pop() ?? "").slice(-MAX_PARTIAL);
    for (const line of lines) this.lines.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }

  /** The kept lines, oldest first, with an unfinished last line. */
  tail(): string[] {
    const all = this.partial ? [...this.lines, this.partial] : [...this.lines];
    return all.slice(-this.keep);
  }
}
