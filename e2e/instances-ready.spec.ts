import { spawn, type ChildProcess } from "node:child_process";
import { Worker } from "node:worker_threads";
import { expect, test } from "@playwright/test";
import { createDatabase, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";

// A just-started instance is ready when it says so: two fresh instances on one PostgreSQL, on a
// machine kept busy by a CPU burner, each loaded with mixed requests from its first healthy
// `/api/health` answer on, as a load balancer would send them. No request may be reset, time out
// or be answered 5xx; a config saved through one instance, under that load, is served by the
// other within 2 s. Ten rounds, each on its own database and processes.

const ROUNDS = 10;
const LOAD_MS = 12_000;
const CONFIG_WITHIN_MS = 2_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  instance: string;
  what: string;
  status: number | "reset" | "timeout";
  /** ms after the instance's first healthy answer. */
  at: number;
  detail?: string;
}

// What a browser, an agent and a load balancer ask of an instance.
const REQUESTS: { what: string; init?: RequestInit; path: (n: number) => string; ok: (status: number) => boolean }[] = [
  {
    what: "run add",
    path: () => "/api/tools/add/run",
    init: { method: "POST", body: JSON.stringify({ arguments: { a: 1, b: 2 } }) },
    ok: (s) => s === 200,
  },
  { what: "health", path: () => "/api/health", ok: (s) => s === 200 },
  { what: "tool list", path: () => "/api/tools", ok: (s) => s === 200 },
  { what: "config", path: () => "/api/config", ok: (s) => s === 200 },
  { what: "run history", path: () => "/api/runs?limit=5", ok: (s) => s === 200 },
  { what: "page /", path: () => "/", ok: (s) => s < 500 },
  { what: "page /runs", path: () => "/runs", ok: (s) => s < 500 },
  { what: "page /tools/add", path: () => "/tools/add", ok: (s) => s < 500 },
];

/** Clients that keep asking `s` until stopped; every answer is kept. */
function load(s: StudioProcess, name: string, clients: number, since: number) {
  let stopped = false;
  const answers: Answer[] = [];
  const client = async (c: number) => {
    for (let n = c; !stopped; n++) {
      const r = REQUESTS[n % REQUESTS.length]!;
      const answer: Answer = { instance: name, what: r.what, status: "reset", at: 0 };
      try {
        const res = await fetch(s.url + r.path(n), {
          ...r.init,
          redirect: "manual",
          headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" },
          signal: AbortSignal.timeout(30_000),
        });
        answer.status = res.status;
        const body = await res.text();
        if (!r.ok(res.status)) answer.detail = body.slice(0, 300);
      } catch (e) {
        answer.status = (e as Error).name === "TimeoutError" ? "timeout" : "reset";
        answer.detail = String((e as Error & { cause?: unknown }).cause ?? e).slice(0, 300);
      }
      answer.at = Math.round(performance.now() - since);
      answers.push(answer);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  return { answers, stop: () => ((stopped = true), done) };
}

// Idle clients whose pool keeps a socket longer than the server does (Go's transport keeps one
// 90 s, a load balancer 60 s; Node's own agent follows the server's Keep-Alive hint instead): they
// ask `/api/health` on the socket they kept after pauses swept across the 6 s at which Node's
// server closes an idle socket by default (keepAliveTimeout 5 s plus its 1 s buffer). A request
// that meets that close is reset. Each in its own thread, so the rest of the load cannot delay it.
const IDLE_CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
// Keeps idle sockets 90 s, whatever the server's Keep-Alive hint says.
class LongPool extends http.Agent {
  keepSocketAlive(socket) {
    socket.setKeepAlive(true, this.keepAliveMsecs);
    socket.unref();
    socket.setTimeout(90000);
    return true;
  }
}
const agent = new LongPool({ keepAlive: true, maxSockets: 1 });
const answers = [];
let stopped = false;
parentPort.on("message", () => (stopped = true));
const get = () => new Promise((resolve, reject) => {
  const req = http.get(workerData.url + "/api/health", { agent, timeout: 30000 }, (res) => {
    res.resume();
    res.on("end", () => resolve(res.statusCode));
    res.on("error", reject);
  });
  req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })));
  req.on("error", reject);
});
(async () => {
  for (let k = 0; !stopped; k++) {
    const answer = { instance: workerData.name, what: "health (idle client)", status: "reset", at: 0 };
    try { answer.status = await get(); }
    catch (e) { answer.status = e.name === "TimeoutError" ? "timeout" : "reset"; answer.detail = String(e).slice(0, 300); }
    answer.at = Date.now() - workerData.since;
    answers.push(answer);
    if (!stopped) await new Promise((r) => setTimeout(r, 5850 + ((k * 7 + workerData.client * 3) % 20) * 20));
  }
  parentPort.postMessage(answers);
})();
`;

function idle(s: StudioProcess, name: string, clients: number) {
  const since = Date.now();
  const workers = Array.from({ length: clients }, (_, client) => new Worker(IDLE_CLIENT, { eval: true, workerData: { url: s.url, name, since, client } }));
  const answers: Answer[] = [];
  const done = Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once("message", (got: Answer[]) => (answers.push(...got), void w.terminate(), resolve()));
          w.once("error", reject);
        }),
    ),
  );
  let stopping: Promise<unknown> | null = null;
  return { answers, stop: () => (stopping ??= (workers.forEach((w) => w.postMessage("stop")), done)) };
}

const bad = (answers: Answer[]) =>
  answers.filter((a) => !(REQUESTS.find((r) => r.what === a.what)?.ok ?? ((s: number) => s === 200))(typeof a.status === "number" ? a.status : 0));

test.describe.configure({ mode: "serial" });

for (let round = 1; round <= ROUNDS; round++) {
  test(`round ${round}/${ROUNDS}: two instances started under load answer every request from their first healthy answer; a config save reaches the other within 2 s`, async () => {
    test.setTimeout(180_000);
    const db = await createDatabase();
    // A busy loop on one of the machine's cores, for the whole round.
    const burner: ChildProcess = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
    const adminToken = `ready-${Date.now()}`;
    let a: StudioProcess | undefined;
    let b: StudioProcess | undefined;
    const loads: { answers: Answer[]; stop(): Promise<unknown> }[] = [];
    try {
      // A first: it migrates the database. B starts while A is under load.
      a = await startStudioProcess({ databaseUrl: db.url, adminToken, readyPath: "/api/health" });
      loads.push(load(a, "A", 4, performance.now()), idle(a, "A", 4));
      b = await startStudioProcess({ databaseUrl: db.url, adminToken, readyPath: "/api/health" });
      loads.push(load(b, "B", 4, performance.now()), idle(b, "B", 4));

      // A config save through A while both are loaded.
      const call = (s: StudioProcess, path: string, init: RequestInit = {}) =>
        fetch(s.url + path, { ...init, headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" } });
      const before = (await (await call(a, "/api/config")).json()) as { version: string; raw: string };
      const put = await call(a, "/api/config", {
        method: "PUT",
        body: JSON.stringify({ text: `${before.raw}\n// round ${round}, saved through A\n`, expectedVersion: before.version }),
      });
      expect(put.status, await put.clone().text()).toBe(200);
      const saved = (await put.json()) as { version: string };
      const savedAt = performance.now();
      let seenAfter: number | null = null;
      while (performance.now() - savedAt < CONFIG_WITHIN_MS) {
        const now = (await (await call(b, "/api/config")).json()) as { version: string };
        if (now.version === saved.version) {
          seenAfter = Math.round(performance.now() - savedAt);
          break;
        }
        await sleep(20);
      }

      await sleep(LOAD_MS);
      await Promise.all(loads.map((l) => l.stop()));
      const answers = loads.flatMap((l) => l.answers);
      const failed = bad(answers);
      const counts = answers.reduce<Record<string, number>>((m, x) => ((m[`${x.instance} ${x.status}`] = (m[`${x.instance} ${x.status}`] ?? 0) + 1), m), {});
      console.log(
        `round ${round}: ${answers.length} answers ${JSON.stringify(counts)}; B served A's config save after ${seenAfter ?? "more than " + CONFIG_WITHIN_MS} ms`,
      );
      expect(answers.filter((x) => x.instance === "A").length).toBeGreaterThan(20);
      expect(answers.filter((x) => x.instance === "B").length).toBeGreaterThan(20);
      expect(
        failed,
        `answers that were not what a ready instance gives:\n${JSON.stringify(failed.slice(0, 10), null, 1)}\nA:\n${a.log().slice(-3000)}\nB:\n${b.log().slice(-3000)}`,
      ).toEqual([]);
      expect(seenAfter, `B serves A's config save within ${CONFIG_WITHIN_MS} ms`).not.toBeNull();
    } finally {
      await Promise.all(loads.map((l) => l.stop()));
      burner.kill("SIGKILL");
      await a?.stop();
      await b?.stop();
      await db.drop();
    }
  });
}
