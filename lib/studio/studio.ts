// Server code: a client component that imports this (directly or not) fails the build.
import { processSlot } from "../process/slots";
import "server-only";
import os from "node:os";
import { AuditLog, runAudit } from "../audit";
import { describeChange } from "../inference/revisions";
import { createBuiltinSource } from "../builtin-tools";
import { ConfigRevisions } from "../config/revisions";
import { getConfigStore } from "../config/store";
import { ConfigSync } from "../config/sync";
import { getDb } from "../db/client";
import type { Prisma } from "../db/generated/client";
import type { RegisteredTool } from "../tools/define";
import { PgNotifier } from "../db/notify";
import { DomainService } from "../domains/service";
import { followCancels } from "../execution/cancel";
import { enqueueTool, executeTool, MAX_TIMEOUT_MS, runQueued, type ExecuteRequest, type RunObserver } from "../execution/execute";
import { RunQueue } from "../queue/run-queue";
import { deferralDelay } from "../queue/policy";
import { heldRunIds } from "../execution/active-runs";
import { instanceId, keepLeases, leaseMs } from "../runs/leases";
import { ShapeStore } from "../inference/store";
import { OutboxStore } from "../outbox/store";
import { McpManager, type McpView } from "../mcp/source";
import { McpDirectory } from "../mcp/directory";
import { McpPublisher } from "../mcp/publish";
import { connectionProvider, OAuthStore, SecretBox, type OAuthDeps } from "../mcp/oauth";
import { RUN_FINAL_CHANNEL, RunWaiter } from "../execution/delegate";
import { requestCancel } from "../execution/cancel";
import { PresetStore } from "../runs/presets";
import { Registry } from "../registry/registry";
import { RunStore } from "../runs/store";
import { createRuntimeSource } from "../runtime-tools";
import type { OidcSettings } from "../auth/better-auth";
import { authAuditEntry } from "../auth/audited-sessions";
import { authSecret, Identity, identityEnvFrom, publicBaseUrl, trustedOrigins } from "../auth/identity";
import { UserAdmin } from "../auth/users";
import type { RuntimeConfig } from "../config/schema";
import { resolveEnvRefs } from "../config/secrets";

/**
 * The composition root: one registry, run store and domain service per process, wired to the
 * database and the runtime config. One per process (lib/process/slots.ts), so that Next's module
 * reloading in dev does not create a second one.
 */
export interface Studio {
  registry: Registry;
  runs: RunStore;
  outbox: OutboxStore;
  domains: DomainService;
  /** The MCP servers: held here (a worker, or a web instance that runs queued runs), or read from what the workers publish. */
  mcp: McpView;
  presets: PresetStore;
  /** The tamper-evident audit log: append "server.add", "server.remove", "export", "purge" here (see lib/audit/log.ts). */
  audit: AuditLog;
  /** Inferred shapes of tool outputs and arguments, fed by the "inference" run observer. */
  shapes: ShapeStore;
  /** Who is calling: sessions (better-auth), API tokens, the environment tokens. */
  identity: Identity;
  users: UserAdmin;
  /** The runtime config's revisions in the database, kept in step with this instance's file: save config through it. */
  config: ConfigSync;
  /** PostgreSQL only: messages between instances (LISTEN/NOTIFY). */
  notifier: PgNotifier | null;
  execute(req: ExecuteRequest): ReturnType<typeof executeTool>;
  /** `"mode": "async"`: checks the call, then stores it `queued` with its job (lib/queue); a worker runs it. */
  enqueue(req: ExecuteRequest & { priority?: number }): ReturnType<typeof enqueueTool>;
  /** Ends a run still waiting in the queue, with its audit entry; null when it is no longer queued. */
  cancelQueued(id: string): Promise<unknown>;
  queue: RunQueue;
  /** OAuth for remote MCP servers: the sealed credential store and the callback base URL (lib/mcp/oauth). */
  oauth: OAuthDeps;
}

export interface StudioOptions {
  /**
   * Whether this process takes queued runs. Web instances do unless STUDIO_WORKER=off (a team
   * running `npm run worker` may keep its web tier for requests); on PGlite the one process always does.
   */
  worker?: boolean;
  /** What pg-boss's instance registry calls this process. */
  role?: "web" | "worker";
}

const studioSlot = processSlot<Promise<Studio>>("studio");

export function getStudio(opts: StudioOptions = {}): Promise<Studio> {
  return studioSlot.use(() =>
    boot(opts).catch((err) => {
      studioSlot.set(undefined); // let the next request retry (e.g. the database came up)
      throw err;
    }),
  );
}

/**
 * Counts the runs whose shape samples a process took down with it (it died with them queued):
 * once at start over the last week, then every minute over the last two hours. Any instance may
 * run it; a run is counted once whoever does (lib/inference/storage.ts).
 */
function sweepShapes(shapes: ShapeStore): void {
  const quiet = (err: unknown) => console.error("[tool-studio] shape sweep failed (retried in a minute)", err instanceof Error ? err.message : err);
  const minute = 60_000;
  shapes.sweep({ windowMs: 7 * 24 * 60 * minute, graceMs: minute }).catch(quiet);
  const timer = setInterval(() => {
    shapes.sweep({ windowMs: 120 * minute, graceMs: minute }).catch(quiet);
  }, minute);
  timer.unref?.();
}

/** Verified tokens are cached (lib/auth/tokens.ts): a revoke, a role change or a removed user anywhere clears every instance's cache. */
async function followAccessChanges(notifier: PgNotifier, identity: Identity): Promise<void> {
  identity.tokens.onChange = () => notifier.notify(ACCESS_CHANNEL, "tokens");
  await notifier.listen(ACCESS_CHANNEL, () => identity.tokens.forgetLocal());
  // Notifications missed while disconnected: forget everything, so it is read again.
  notifier.onReconnect(() => identity.tokens.forgetLocal());
}

const ACCESS_CHANNEL = "studio_access";

/** The NOTIFY, in a queued run's final transaction, that wakes a web instance waiting for it. */
function announceFinal(id: string): (tx: Prisma.TransactionClient) => Promise<void> {
  return async (tx) => {
    await tx.$executeRaw`SELECT pg_notify(${RUN_FINAL_CHANNEL}, ${id})`;
  };
}

/**
 * This process holds the MCP connections: it follows the config's servers and, on PostgreSQL,
 * publishes their status and tools for the web instances that hold none.
 */
function holdMcp(
  db: Awaited<ReturnType<typeof getDb>>,
  config: () => RuntimeConfig,
  configStore: ReturnType<typeof getConfigStore>,
  oauth: OAuthDeps,
): McpManager {
  const mcp = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" }, oauth: (server) => connectionProvider(oauth, server) });
  const sync = (): void => {
    mcp.sync(config().mcpServers).catch((err) => console.error("[tool-studio] MCP sync failed", err));
  };
  sync();
  configStore.subscribe(() => sync());
  if (db.kind === "pg") new McpPublisher(mcp, db.prisma, { publisher: instanceId() });
  return mcp;
}

/** STUDIO_WORKER=off keeps queued runs out of this process (PostgreSQL only: on PGlite nothing else can run them). */
export function workerWanted(kind: "pg" | "pglite", opts: StudioOptions, env: Record<string, string | undefined> = process.env): boolean {
  if (kind === "pglite") return true;
  if (opts.worker !== undefined) return opts.worker;
  return !/^(off|0|false|no)$/i.test(env.STUDIO_WORKER ?? "");
}

/** Every minute, any instance ends queued runs whose job is gone (lib/queue: sweepOrphans). */
function sweepQueue(prisma: Parameters<typeof RunQueue.sweepOrphans>[0], runs: RunStore): void {
  const timer = setInterval(() => {
    RunQueue.sweepOrphans(prisma, runs).catch((err) =>
      console.error("[tool-studio] queue sweep failed (retried in a minute)", err instanceof Error ? err.message : err),
    );
  }, 60_000);
  timer.unref?.();
}

async function boot(opts: StudioOptions): Promise<Studio> {
  const db = await getDb();
  const audit = new AuditLog(db.prisma, db.sql);
  // Each run's audit entry commits in the run's own transaction.
  const lease = { owner: instanceId(), ms: leaseMs() };
  const runs = new RunStore(db.prisma, { audit: runAudit(audit), lease, sql: db.sql });
  // Runs left `running` by a process that died will never finish. PGlite belongs to this one
  // process, so whatever is running from before is over; on PostgreSQL other instances may be
  // running theirs, so only runs whose lease has ended are marked, now and by the sweeps.
  if (db.kind === "pglite") await runs.markInterrupted(heldRunIds());
  else await runs.expireLeases(new Date(), heldRunIds());
  keepLeases(runs, { ms: lease.ms, held: heldRunIds });
  const outbox = new OutboxStore(db.prisma);
  const presets = new PresetStore(db.prisma);
  const configStore = getConfigStore();
  const config = () => configStore.current().config;
  // The config lives in the database as revisions; the file mirrors the latest one (lib/config/sync.ts).
  const notifier = db.kind === "pg" && db.url ? new PgNotifier(db.url) : null;
  const configSync = new ConfigSync({
    store: configStore,
    revisions: new ConfigRevisions(db.prisma, audit, notifier !== null),
    fileAuthor: localActor,
    notifier,
    pollMs: notifier ? 5000 : 0,
  });
  await configSync.start();
  // Cancels sent by other instances for runs this one is running.
  if (notifier) await followCancels(notifier);
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config, listTools: () => registry.list() }));
  // MCP connections belong to the processes that run queued runs (workers); a web instance with
  // STUDIO_WORKER=off reads their servers and tools from the database and hands MCP runs to them.
  const holdsMcp = workerWanted(db.kind, opts);
  // The auth secret also keys the sealing of MCP servers' OAuth credentials.
  const secret = await authSecret(db.prisma);
  const oauth: OAuthDeps = { store: new OAuthStore(db.prisma, new SecretBox(secret)), baseUrl: publicBaseUrl() };
  const mcp = holdsMcp ? holdMcp(db, config, configStore, oauth) : new McpDirectory(db.prisma, { servers: () => config().mcpServers, notifier });
  if (mcp instanceof McpDirectory) await mcp.start();
  registry.addSource(mcp.source());
  // Tools defined in the config come last: on a name clash the built-in or MCP tool is kept (and reported).
  registry.addSource(createRuntimeSource(config, (listener) => configStore.subscribe(() => listener())));
  const domains = new DomainService({ config, tools: async () => (await registry.snapshot()).tools });
  // A change of a tool's observed output shape is audited like any other change, in the revision's own transaction.
  const shapes = new ShapeStore(db.prisma, {
    audit: {
      chain: audit,
      entryOf: (r) => ({
        actor: "system:inference",
        action: "shape.change",
        target: r.toolName,
        detail: {
          kind: r.kind,
          revision: r.revision,
          runId: r.runId,
          samples: r.samples,
          changes: r.changes.slice(0, 20).map((c) => describeChange(c).slice(0, 500)),
        },
      }),
    },
  });
  const observers: RunObserver[] = [shapes.observer()];
  sweepShapes(shapes);
  const identity = new Identity({
    prisma: db.prisma,
    env: identityEnvFrom(),
    secret,
    baseURL: publicBaseUrl(),
    trustedOrigins: trustedOrigins(),
    oidc: () => oidcSettings(config()),
    signInLimit: signInLimitFromEnv(),
    audit: { chain: audit, entryOf: authAuditEntry },
    onSignInFailed: async (e) => void (await audit.append(authAuditEntry(e))),
  });
  const users = new UserAdmin(
    db.prisma,
    () => identity.auth,
    () => identity.tokens.forget(),
  );
  if (notifier) await followAccessChanges(notifier, identity);
  const queue = RunQueue.create(db, { maxRunMs: MAX_TIMEOUT_MS, instanceName: opts.role ?? "web" });
  await queue.start();
  const cancelQueued = async (id: string) => {
    const run = await runs.endQueued(id, {
      status: "cancelled",
      finishedAt: new Date(),
      error: { kind: "cancelled", message: "Cancelled by the caller before it started." },
    });
    if (run) await queue.cancel(id).catch((err) => console.error(`[tool-studio] could not drop the job of cancelled run ${id}`, err));
    return run;
  };
  const waiter = holdsMcp
    ? null
    : new RunWaiter({ runs, notifier, cancel: (id) => requestCancel({ runs, notifier, cancelQueued }, id), dropJob: (id) => queue.cancel(id) });
  const executeDeps = {
    registry,
    runs,
    domains,
    observers,
    runPolicy: () => config().runPolicy,
    sourcesSettled: () => mcp.settled(),
    delegate: waiter ? { wanted: (t: RegisteredTool) => t.spec.source.kind === "mcp", queue, wait: waiter.wait.bind(waiter) } : undefined,
  };
  const queueDeps = {
    ...executeDeps,
    queue,
    queuePolicy: () => config().queuePolicy,
    // A web instance waiting for a run it handed over hears of its end at once.
    onQueuedFinal: notifier ? announceFinal : undefined,
  };
  if (holdsMcp) {
    await queue.work(
      async (runId, signal, job) => {
        const r = await runQueued(queueDeps, runId, { signal, retries: !job.waited, stopping: () => queue.stopping });
        // A full concurrency limit: offered again after a wait that grows while it stays full.
        if (r && "held" in r) return { deferMs: deferralDelay(job.deferrals) };
      },
      { concurrency: Number(process.env.STUDIO_WORKER_CONCURRENCY) || 4 },
    );
  }
  sweepQueue(db.prisma, runs);
  return {
    registry,
    runs,
    outbox,
    domains,
    mcp,
    presets,
    audit,
    shapes,
    identity,
    users,
    config: configSync,
    notifier,
    execute: (req) => executeTool(executeDeps, req),
    enqueue: (req) => enqueueTool(queueDeps, req),
    cancelQueued,
    queue,
    oauth,
  };
}

/**
 * SSO from the config's `auth.oidc` (secrets as "${env:NAME}" references), else from
 * STUDIO_OIDC_ISSUER, STUDIO_OIDC_CLIENT_ID and STUDIO_OIDC_CLIENT_SECRET. A reference to an
 * unset variable turns SSO off and says why, instead of failing every sign-in.
 */
export function oidcSettings(config: RuntimeConfig, env: Record<string, string | undefined> = process.env): OidcSettings | null {
  const c = config.auth?.oidc;
  try {
    if (c) {
      return {
        issuer: resolveEnvRefs(c.issuer, env, "auth.oidc.issuer"),
        clientId: resolveEnvRefs(c.clientId, env, "auth.oidc.clientId"),
        clientSecret: resolveEnvRefs(c.clientSecret, env, "auth.oidc.clientSecret"),
        name: c.name,
        scopes: c.scopes,
        defaultRole: c.defaultRole,
      };
    }
  } catch (err) {
    warnOnce(`SSO is off: ${(err as Error).message}`);
    return null;
  }
  if (env.STUDIO_OIDC_ISSUER && env.STUDIO_OIDC_CLIENT_ID && env.STUDIO_OIDC_CLIENT_SECRET) {
    return {
      issuer: env.STUDIO_OIDC_ISSUER,
      clientId: env.STUDIO_OIDC_CLIENT_ID,
      clientSecret: env.STUDIO_OIDC_CLIENT_SECRET,
      name: env.STUDIO_OIDC_NAME,
      defaultRole: "viewer",
    };
  }
  return null;
}

const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[tool-studio] ${message}`);
}

/** STUDIO_SIGNIN_RATE_LIMIT="<max>/<seconds>": sign-in attempts per client address (default 10/60). */
function signInLimitFromEnv(env: Record<string, string | undefined> = process.env): { max: number; window: number } {
  const m = env.STUDIO_SIGNIN_RATE_LIMIT?.match(/^\s*(\d+)\s*\/\s*(\d+)\s*$/);
  return m ? { max: Number(m[1]), window: Number(m[2]) } : { max: 10, window: 60 };
}

/** Who a run is attributed to until login exists: the local user of the machine. */
export function localActor(): string {
  return process.env.STUDIO_ACTOR || `local:${safeUser()}`;
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return "user";
  }
}
