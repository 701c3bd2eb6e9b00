// npm run definitions [-- --url <studio> --out <dir> --for <target,...> --strict --source <id> --q <text> --hint <id>... --check]
//
// Writes the tool definitions of a running studio as one file per target (mcp.json,
// openai-chat.json, anthropic.json, …; `<target>.strict.json` with --strict where the target has a
// strict mode), so a team can check its agent's tool set into its own repository and see in a diff
// what changed. The files are what GET /api/tools/definitions/export answers (the tool list's
// "Export definitions" links): sorted, no time stamp, the same bytes for the same tool set.
// --source, --q and --hint choose the tools as the tool list's filters do.
// --check writes nothing: it exits 1 when a file is missing or differs (for CI).
//
// The studio is --url (default $STUDIO_URL, else http://127.0.0.1:3000); a token, when the studio
// wants one, comes from $STUDIO_TOKEN (any role that may view tools).
// Exit code: 0 done (or unchanged with --check), 1 files differ (--check), 2 could not export.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { isTarget, TARGETS, type Target } from "../lib/model-view/types";

function fail(message: string): never {
  console.error(`definitions: ${message}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      url: { type: "string" },
      out: { type: "string", default: "tool-definitions" },
      for: { type: "string" },
      strict: { type: "boolean", default: false },
      source: { type: "string" },
      q: { type: "string" },
      hint: { type: "string", multiple: true },
      check: { type: "boolean", default: false },
    },
    allowPositionals: false,
  }).values;
} catch (err) {
  fail((err as Error).message);
}

const base = args.url ?? process.env.STUDIO_URL ?? "http://127.0.0.1:3000";
let studio: URL;
try {
  studio = new URL(base);
  if (studio.protocol !== "http:" && studio.protocol !== "https:") throw new Error("not http(s)");
} catch {
  fail(`--url must be the studio's http(s) address (got ${JSON.stringify(base)})`);
}
const targets: Target[] = [];
for (const t of args.for
  ? args.for
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
  : TARGETS) {
  if (!isTarget(t)) fail(`--for: ${JSON.stringify(t)} is not a target (one or more of ${TARGETS.join(", ")}, comma-separated)`);
  if (!targets.includes(t)) targets.push(t);
}
const token = process.env.STUDIO_TOKEN;
const outDir = path.resolve(args.out);

const differs: string[] = [];
for (const target of targets) {
  const url = new URL("/api/tools/definitions/export", studio);
  url.searchParams.set("for", target);
  if (args.strict) url.searchParams.set("strict", "true");
  if (args.source) url.searchParams.set("source", args.source);
  if (args.q) url.searchParams.set("q", args.q);
  for (const h of args.hint ?? []) url.searchParams.append("hint", h);
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, redirect: "manual" });
  } catch (err) {
    fail(`could not reach the studio at ${studio.origin}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
  }
  const body = await res.text();
  if (res.status !== 200) {
    let said = body.slice(0, 300);
    try {
      said = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? said;
    } catch {
      // not the studio's JSON error: the start of the body is shown as it is
    }
    const hint = res.status === 401 || (res.status >= 300 && res.status < 400) ? " (set STUDIO_TOKEN to a token of the studio)" : "";
    fail(`${url.pathname}${url.search} answered ${res.status}: ${said}${hint}`);
  }
  // The server names the file; only a plain name of ours is taken, never a path.
  const name = /filename="([a-z-]+(?:\.strict)?\.json)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
  if (!name) fail(`${url.pathname} did not name its file: is ${studio.origin} a Tool Studio?`);
  const file = path.join(outDir, name);
  const count = (JSON.parse(body) as { total: number }).total;
  if (args.check) {
    let old: string | undefined;
    try {
      old = readFileSync(file, "utf8");
    } catch {
      // no file yet: reported as missing below
    }
    if (old !== body) differs.push(`${path.relative(process.cwd(), file)} ${old === undefined ? "is missing" : "differs"}`);
    else console.log(`${path.relative(process.cwd(), file)}: unchanged (${count} tools)`);
    continue;
  }
  mkdirSync(outDir, { recursive: true });
  // Written whole or not at all: a reader never sees half a file.
  writeFileSync(`${file}.tmp`, body);
  renameSync(`${file}.tmp`, file);
  console.log(`${path.relative(process.cwd(), file)}: ${count} tools`);
}
if (differs.length) {
  console.error(`definitions: ${differs.join("; ")} (run without --check to write them)`);
  process.exit(1);
}
